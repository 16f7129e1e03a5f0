// Durations as users type them ("250ms", "2s", "1.5") and as loopcheck
// prints them.
#pragma once

#include "loopcheck/core/result.hpp"

#include <chrono>
#include <string>
#include <string_view>

namespace loopcheck {

/// Every duration inside loopcheck: microseconds are the finest unit any
/// report shows, and an int64 of them spans far more than any bound we allow.
using Micros = std::chrono::microseconds;

/// Parses "250ms", "2s", "1.5" (seconds), "500us", "1m", "1h" and Go's
/// sums "1m30s", "1h15m". A lone number without a unit is seconds, like
/// curl's --connect-timeout; in a sum every part has its unit. Rejects
/// negatives, empty strings, unknown units, and anything above one day (a
/// typo, not a wish).
Result<Micros> parse_duration(std::string_view text);

/// Human form, ASCII only (Windows consoles mangle "µ"): "0.018 ms",
/// "4.25 ms", "12.3 ms", "250 ms", "2.03 s", rounded half up from the whole
/// microseconds. Used by the text and Markdown reports.
std::string format_duration(Micros d);

/// A median with its range, compactly: "2.03 s [2.02..2.04]"; the range
/// keeps its own units where they differ: "0.200 ms [0.190 ms..1.20 s]".
std::string format_spread(Micros min, Micros median, Micros max);

/// Milliseconds with microsecond precision, the unit of the JSON report.
double to_ms(Micros d) noexcept;

} // namespace loopcheck
