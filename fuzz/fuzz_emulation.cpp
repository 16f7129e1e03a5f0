// libFuzzer: --emulate strategy parsing and IP literal parsing.
#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/clients/emulation.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)loopcheck::parse_emulation(text);
    if (auto a = loopcheck::parse_ip_literal(text)) {
        // Printing and parsing again gives the same address.
        auto again = loopcheck::parse_ip_literal(loopcheck::ip_string(*a));
        if (!again || !(*again == *a))
            __builtin_trap();
    }
    return 0;
}
