// `loopcheck staircase`: refused connects timed with the SYN retry limit
// set to 0..5. On Windows each retry after a reset waits about 500 ms, so
// the times climb in steps; where a reset ends the connect (Linux) they
// stay flat. This is the pure part: summaries, the fitted step, the
// conclusion (report/staircase_report.hpp renders it).
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/measure/sample.hpp"
#include "loopcheck/core/measure/stats.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// The limits walked: 0 up to one above Windows' default of 4.
inline constexpr int staircase_max_limit = 5;

/// y = intercept + slope * x.
struct LineFit {
    double slope = 0;
    double intercept = 0;
};

/// Ordinary least squares; nullopt with fewer than two points, when the
/// spans differ in length, or when every x is the same.
std::optional<LineFit> fit_line(std::span<const double> x, std::span<const double> y);

/// The probes at one retry limit.
struct StairStep {
    int limit = 0;
    Outcome outcome = Outcome::error; ///< the outcome most probes had
    bool mixed = false;
    /// Cut short by Ctrl-C or SIGTERM: no probe at this limit measured
    /// anything, and reports say "interrupted", not the placeholder outcome.
    bool interrupted = false;
    std::string native_name;
    Summary latency;
    std::optional<int> syn_retransmissions; ///< most the kernel counted
    /// Refused when the OS rejected the limit for any probe at this step.
    OptionState option = OptionState::not_requested;
    std::string option_error; ///< the OS's name for that rejection
};

StairStep summarize_step(int limit, std::span<const Sample> samples);

/// A step's outcome as reports print it: "interrupted" for a step that was
/// cut short, else outcome_name().
std::string_view step_outcome_name(const StairStep& s) noexcept;

enum class StaircaseShape : std::uint8_t {
    retried,     ///< each retry after a reset adds time
    flat,        ///< the limit changes nothing: a reset is not retried
    unclear,     ///< refused throughout, but neither pattern fits
    not_refused, ///< the target did not refuse: nothing to step through
    no_option,   ///< the OS took the limit at fewer than two steps
};

std::string_view staircase_shape_name(StaircaseShape s) noexcept;

/// A fit steeper than this per retry is a staircase; Windows' is ~500 ms.
inline constexpr Micros staircase_step_min{100'000};
/// A fit flatter than this per retry is flat; a refused loopback connect
/// itself takes well under a millisecond where resets are final.
inline constexpr Micros staircase_flat_max{10'000};

/// How the kernel's SYN retransmission counts (Linux TCP_INFO, Windows
/// SIO_TCP_INFO SynRetrans) compare with the shape the timing fit gave.
enum class KernelCount : std::uint8_t {
    missing,      ///< no fitted step has a count (Wine; macOS; Windows if it stops answering)
    agrees,       ///< counts above 0 with a staircase, 0 everywhere when flat
    disagrees,    ///< the counts say the opposite of the times; the times win
    not_compared, ///< counts exist, but the times gave no clear shape
};

std::string_view kernel_count_name(KernelCount k) noexcept;

struct StaircaseAddress {
    Address address;
    bool reserved = false; ///< a closed port loopcheck bound for the run
    std::vector<StairStep> steps;
    /// Milliseconds per retry and at no retry, over the steps that were
    /// refused with the limit applied; nullopt with fewer than two.
    std::optional<LineFit> fit_ms;
    std::vector<int> fitted_limits;
    StaircaseShape shape = StaircaseShape::unclear;
    KernelCount kernel_count = KernelCount::missing;
    std::string conclusion; ///< plain words, from the above and `os`
};

/// The fitted slope decides the shape, against staircase_step_min and
/// staircase_flat_max. The kernel's counts only corroborate: nothing
/// documents that Windows' SIO_TCP_INFO still answers after a failed
/// connect or counts the SYNs sent again after a reset, so a count of 0
/// must not turn a clean 500 ms staircase into "not retried". When the
/// counts say otherwise the conclusion says so (kernel_count).
StaircaseAddress conclude_staircase(const Address& address, bool reserved,
                                    std::vector<StairStep> steps, Os os);

/// What the option that sets the limit is called on `os`.
std::string_view syn_limit_option(Os os) noexcept;

struct StaircaseReport {
    std::string loopcheck_version;
    SystemFacts system;
    std::string target; ///< as typed; empty for the reserved closed ports
    Micros timeout{0};
    int count = 0;
    std::vector<StaircaseAddress> addresses;
    std::vector<std::string> notes; ///< e.g. "IPv6 loopback is not available"
    bool incomplete = false;
    int exit_code = 0;
};

} // namespace loopcheck
