// libFuzzer: the target/URL parser, and the rewrite that a fix prints.
#include "loopcheck/core/input/target.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto t = loopcheck::parse_target(text);
    if (!t) {
        // Errors are one line, always.
        if (t.error().message.find('\n') != std::string::npos)
            __builtin_trap();
        return 0;
    }
    if (t->port == 0 || t->host.empty() || t->host.size() > loopcheck::max_host_length + 2)
        __builtin_trap();
    if (t->host_pos + t->host_len > t->input.size())
        __builtin_trap();
    (void)loopcheck::rewrite_host(*t, loopcheck::make_ipv4(127, 0, 0, 1, t->port));
    (void)loopcheck::rewrite_host(*t, loopcheck::ipv6_loopback(t->port));
    return 0;
}
