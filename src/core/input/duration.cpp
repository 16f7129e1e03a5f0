// Parsing "250ms", "2s", "1.5" and printing durations.
#include "loopcheck/core/input/duration.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <optional>

namespace loopcheck {

namespace {

/// Microseconds in one `unit` (none means seconds); nullopt for a unit this
/// parser does not know.
std::optional<long double> microseconds_per(std::string_view unit) {
    if (unit.empty() || unit == "s")
        return 1e6L;
    if (unit == "ms")
        return 1e3L;
    if (unit == "us" || unit == "\xC2\xB5s")
        return 1;
    if (unit == "m" || unit == "min")
        return 60e6L;
    if (unit == "h")
        return 3600e6L;
    return std::nullopt;
}

} // namespace

namespace {

/// One "NUMBER[UNIT]" from the front of `text` (consumed), in microseconds.
/// `unit_required`: a bare number is seconds only when it stands alone.
Result<long double> parse_segment(std::string_view& text, const std::string& original,
                                  bool unit_required) {
    // Split "1.5ms" into the number and the unit by hand: std::from_chars
    // for double is missing from older libstdc++ and from MinGW's, and
    // strtod would honour the locale.
    std::size_t i = 0;
    bool seen_digit = false, seen_dot = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9')
            seen_digit = true;
        else if (c == '.' && !seen_dot)
            seen_dot = true;
        else
            break;
    }
    if (!seen_digit)
        return usage_error(
            fmt::format("'{}' is not a duration (try 250ms, 2s, 1m30s or 1.5)", original));
    const auto number = text.substr(0, i);
    std::size_t j = i;
    while (j < text.size() && !(text[j] >= '0' && text[j] <= '9') && text[j] != '.')
        ++j;
    const auto unit = text.substr(i, j - i);
    text.remove_prefix(j);

    long double value = 0, scale = 1;
    bool after_dot = false;
    for (const char c : number) {
        if (c == '.') {
            after_dot = true;
            continue;
        }
        if (after_dot) {
            scale /= 10;
            value += (c - '0') * scale;
        } else {
            value = value * 10 + (c - '0');
        }
        if (value > 1e12L)
            return usage_error(fmt::format("duration '{}' is too large", original));
    }
    if (unit.empty() && unit_required)
        return usage_error(
            fmt::format("'{}' is not a duration: each part of 1m30s needs its unit", original));
    const auto per_unit_us = microseconds_per(unit);
    if (!per_unit_us)
        return usage_error(fmt::format("unknown unit '{}' in duration '{}' (use us, ms, s, m or h)",
                                       unit, original));
    return value * *per_unit_us;
}

} // namespace

Result<Micros> parse_duration(std::string_view text) {
    const std::string original(text);
    if (text.empty())
        return usage_error("empty duration");
    // "1h", "1m30s", "2.5s", "250ms": Go's form (time.ParseDuration, what
    // wait4x and Kubernetes take), one or more NUMBER UNIT parts summed. A
    // lone number without a unit is seconds, like curl's --connect-timeout.
    long double us = 0;
    bool first = true;
    while (!text.empty()) {
        const bool alone = first && text.find_first_not_of("0123456789.") == std::string_view::npos;
        auto part = parse_segment(text, original, !alone);
        if (!part)
            return part.error();
        us += *part;
        first = false;
    }
    constexpr long double one_day_us = 86400e6L;
    if (us > one_day_us)
        return usage_error(fmt::format("duration '{}' is longer than one day", original));
    return Micros{static_cast<std::int64_t>(std::llround(static_cast<double>(us)))};
}

namespace {

/// `units` of 10^-`decimals` as "I.FF" (no dot for no decimals).
std::string fixed_point(std::int64_t units, int decimals) {
    static constexpr std::array<std::int64_t, 4> scale{1, 10, 100, 1000};
    std::string out = std::to_string(units / scale[static_cast<std::size_t>(decimals)]);
    if (decimals > 0) {
        const auto frac = std::to_string(units % scale[static_cast<std::size_t>(decimals)]);
        out += '.';
        out.append(static_cast<std::size_t>(decimals) - frac.size(), '0');
        out += frac;
    }
    return out;
}

/// `us` in whole `unit`s, half up; no overflow near the int64 maximum.
std::int64_t rounded(std::int64_t us, std::int64_t unit) {
    return us / unit + (us % unit >= unit - unit / 2 ? 1 : 0);
}

} // namespace

std::string format_duration(Micros d) {
    // Integer arithmetic on the microseconds: a report formats dozens of
    // durations, and the exact decimal digits need no floating point.
    const std::int64_t us = d.count();
    if (us < 0) {
        auto magnitude = format_duration(Micros{us == INT64_MIN ? INT64_MAX : -us});
        magnitude.insert(magnitude.begin(), '-');
        return magnitude;
    }
    // Below 1 ms to the microsecond, above it three significant digits.
    // rounded() counts 10, 100 or 1000 µs units, and the band is chosen
    // after rounding, so a value that rounds up into the next band prints
    // as that band does: 9,995 µs is "10.0 ms" (not "10.00 ms"), 999,500 µs
    // "1.00 s".
    if (us < 1000)
        return fixed_point(us, 3) + " ms";
    struct Band {
        std::int64_t unit; ///< µs
        int decimals;      ///< of a millisecond
    };
    for (const Band band : {Band{10, 2}, Band{100, 1}, Band{1000, 0}})
        if (const std::int64_t units = rounded(us, band.unit); units < 1000)
            return fixed_point(units, band.decimals) + " ms";
    return fixed_point(rounded(us, 10'000), 2) + " s";
}

std::string format_spread(Micros min, Micros median, Micros max) {
    const auto mid = format_duration(median);
    auto lo = format_duration(min), hi = format_duration(max);
    const auto unit = [](const std::string& s) { return s.substr(s.rfind(' ')); };
    if (unit(lo) == unit(mid) && unit(hi) == unit(mid)) {
        lo.resize(lo.rfind(' '));
        hi.resize(hi.rfind(' '));
    }
    return fmt::format("{} [{}..{}]", mid, lo, hi);
}

double to_ms(Micros d) noexcept {
    return static_cast<double>(d.count()) / 1000.0;
}

} // namespace loopcheck
