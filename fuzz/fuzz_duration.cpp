// libFuzzer: the duration parser and the duration printers.
#include "loopcheck/core/input/duration.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto d = loopcheck::parse_duration(text);
    if (d) {
        // Accepted durations are never negative nor above a day.
        if (d->count() < 0 || d->count() > 86'400'000'000LL)
            __builtin_trap();
        (void)loopcheck::format_duration(*d);
        (void)loopcheck::format_spread(*d / 2, *d, *d);
    }
    return 0;
}
