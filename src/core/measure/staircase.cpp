// The staircase's conclusions: each limit's step, the line fitted through them, the words.
#include "loopcheck/core/measure/staircase.hpp"

#include "loopcheck/core/measure/observation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

std::optional<LineFit> fit_line(std::span<const double> x, std::span<const double> y) {
    if (x.size() != y.size() || x.size() < 2)
        return std::nullopt;
    const auto n = static_cast<double>(x.size());
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (sxx == 0)
        return std::nullopt;
    const double slope = sxy / sxx;
    return LineFit{slope, my - slope * mx};
}

StairStep summarize_step(int limit, std::span<const Sample> samples) {
    StairStep step;
    step.limit = limit;
    if (samples.empty())
        return step;
    const AddressSummary s = summarize_address(samples, {});
    step.outcome = s.outcome;
    step.mixed = s.mixed;
    step.interrupted = s.interrupted;
    step.native_name = s.native_name;
    step.latency = s.latency;
    step.syn_retransmissions = s.syn_retransmissions;
    step.option = samples.front().option;
    for (const auto& sample : samples) {
        if (sample.option == OptionState::refused) {
            step.option = OptionState::refused;
            step.option_error = sample.option_error_name;
            break;
        }
    }
    return step;
}

std::string_view step_outcome_name(const StairStep& s) noexcept {
    return s.interrupted ? std::string_view("interrupted") : outcome_name(s.outcome);
}

std::string_view staircase_shape_name(StaircaseShape s) noexcept {
    switch (s) {
    case StaircaseShape::retried:
        return "retried";
    case StaircaseShape::flat:
        return "flat";
    case StaircaseShape::unclear:
        return "unclear";
    case StaircaseShape::not_refused:
        return "not-refused";
    case StaircaseShape::no_option:
        return "no-option";
    }
    return "unclear";
}

std::string_view kernel_count_name(KernelCount k) noexcept {
    switch (k) {
    case KernelCount::missing:
        return "missing";
    case KernelCount::agrees:
        return "agrees";
    case KernelCount::disagrees:
        return "disagrees";
    case KernelCount::not_compared:
        return "not-compared";
    }
    return "missing";
}

std::string_view syn_limit_option(Os os) noexcept {
    if (os == Os::windows)
        return "SIO_TCP_INITIAL_RTO MaxSynRetransmissions";
    if (os == Os::linux_)
        return "TCP_SYNCNT";
    return "the SYN retry limit";
}

namespace {

std::string ms_text(double ms) {
    const auto us = static_cast<std::int64_t>(std::llround(ms * 1000.0));
    return fmt::format("{}{}", us < 0 ? "-" : "", format_duration(Micros{us < 0 ? -us : us}));
}

/// Where the fitted steps come from: refused, and the OS took the limit.
bool fittable(const StairStep& s) {
    return s.outcome == Outcome::refused && !s.mixed && s.option == OptionState::applied;
}

std::string limits_text(const std::vector<int>& limits) {
    return fmt::format("{}", fmt::join(limits, ", "));
}

/// Nothing refused: no refusal to time.
std::string not_refused_words(const std::string& where, const std::vector<StairStep>& st) {
    if (!st.empty() && st.front().interrupted)
        return fmt::format("{} was interrupted before it answered: no conclusion.", where);
    const auto o = st.empty() ? Outcome::error : st.front().outcome;
    return fmt::format(
        "{} was not refused ({}{}), so there is no refusal to time: a staircase needs a "
        "port where nothing listens. Run `loopcheck staircase` without a target to use a "
        "closed port loopcheck reserves.",
        where, outcome_name(o),
        o == Outcome::timeout ? "; a filtered port, or raise --timeout" : "");
}

/// The kernel's SYN counts at the fitted limits.
struct KernelCounts {
    int counted = 0; ///< fitted limits with a count
    bool any_retransmitted = false;
};

/// Fits the line through the clean refusals; fills fitted_limits and fit_ms.
KernelCounts fit_steps(StaircaseAddress& out) {
    std::vector<double> x, y;
    KernelCounts k;
    for (const auto& s : out.steps) {
        if (!fittable(s))
            continue;
        out.fitted_limits.push_back(s.limit);
        x.push_back(s.limit);
        y.push_back(to_ms(s.latency.median));
        if (s.syn_retransmissions) {
            ++k.counted;
            k.any_retransmitted = k.any_retransmitted || *s.syn_retransmissions > 0;
        }
    }
    out.fit_ms = fit_line(x, y);
    return k;
}

/// No line to fit: the option was refused, or too few clean refusals.
std::string no_fit_words(const StaircaseAddress& out, Os os) {
    const auto& st = out.steps;
    const auto rejected = std::find_if(st.begin(), st.end(), [](auto& s) {
        return s.option == OptionState::refused || s.option == OptionState::unsupported;
    });
    if (rejected == st.end())
        return "Fewer than two limits gave a clean refusal; there is nothing to fit. Run again "
               "with a higher --count.";
    return fmt::format(
        "The OS did not take {} at {} of {} limits ({}), so those probes ran with the system's "
        "default retries and there is no staircase to fit.",
        syn_limit_option(os), st.size() - out.fitted_limits.size(), st.size(),
        rejected->option_error.empty() ? option_state_name(rejected->option)
                                       : std::string_view(rejected->option_error));
}

/// The times decide; see conclude_staircase() in the header for why the
/// kernel's count does not.
StaircaseShape shape_of(double step_ms) {
    const auto step_us = step_ms * 1000.0;
    if (step_us >= static_cast<double>(staircase_step_min.count()))
        return StaircaseShape::retried;
    if (std::abs(step_us) < static_cast<double>(staircase_flat_max.count()))
        return StaircaseShape::flat;
    return StaircaseShape::unclear;
}

/// Sets out.kernel_count from how the count compares with the shape, and
/// returns the sentence that says so (empty when there is nothing to say).
std::string kernel_count_words(StaircaseAddress& out, const KernelCounts& k) {
    const std::string counted_at =
        k.counted == static_cast<int>(out.fitted_limits.size())
            ? std::string("at every limit")
            : fmt::format("at {} of {} limits", k.counted, out.fitted_limits.size());
    if (k.counted == 0) {
        out.kernel_count = KernelCount::missing;
        return {};
    }
    if (out.shape == StaircaseShape::unclear) {
        out.kernel_count = KernelCount::not_compared;
        return {};
    }
    if ((out.shape == StaircaseShape::retried) == k.any_retransmitted) {
        out.kernel_count = KernelCount::agrees;
        return k.any_retransmitted
                   ? fmt::format(" The kernel's count agrees: it counted SYN retransmissions "
                                 "after the reset ({}).",
                                 counted_at)
                   : fmt::format(" The kernel's count agrees: no SYN retransmission ({}).",
                                 counted_at);
    }
    out.kernel_count = KernelCount::disagrees;
    return k.any_retransmitted
               ? fmt::format(" The kernel's count disagrees: it counted SYN retransmissions "
                             "({}) although the times do not climb; the times decide.",
                             counted_at)
               : fmt::format(" The kernel's count disagrees: it counted no SYN retransmission "
                             "({}) although the times climb; the times decide (the count may "
                             "not cover SYNs resent after a reset).",
                             counted_at);
}

std::string shape_words(const StaircaseAddress& out, const std::string& evidence, Os os) {
    const double step = out.fit_ms->slope;
    const double base = out.fit_ms->intercept;
    switch (out.shape) {
    case StaircaseShape::retried:
        return fmt::format(
            "A staircase: each SYN retry after a refusal adds {} (fitted over limits {}; {} "
            "with no retry). The stack sends the SYN again after the reset, so a refused "
            "connect costs about the retry limit times {}.{}",
            ms_text(step), limits_text(out.fitted_limits), ms_text(base), ms_text(step), evidence);
    case StaircaseShape::flat:
        return fmt::format(
            "Flat: a refused connect takes about {} whatever the limit, so refusals are not "
            "retried here.{}{}",
            ms_text(base), evidence,
            os == Os::linux_ ? " Linux ends a connect at the first reset; TCP_SYNCNT only bounds "
                               "the retries of a SYN that gets no answer."
                             : "");
    default:
        return fmt::format("Refused at every limit, but {} per retry is neither flat nor a "
                           "staircase; run again with a higher --count.",
                           ms_text(step));
    }
}

} // namespace

StaircaseAddress conclude_staircase(const Address& address, bool reserved,
                                    std::vector<StairStep> steps, Os os) {
    StaircaseAddress out;
    out.address = address;
    out.reserved = reserved;
    out.steps = std::move(steps);
    const auto& st = out.steps;
    if (std::none_of(st.begin(), st.end(), [](auto& s) { return s.outcome == Outcome::refused; })) {
        out.shape = StaircaseShape::not_refused;
        out.conclusion = not_refused_words(endpoint_string(address), st);
        return out;
    }
    const KernelCounts counts = fit_steps(out);

    std::string tail;
    const auto timed_out = std::find_if(st.begin(), st.end(), [](auto& s) {
        return s.outcome == Outcome::timeout && !s.interrupted;
    });
    if (timed_out != st.end())
        tail = fmt::format(" The connect timed out at limit {}: raise --timeout to see the "
                           "higher steps.",
                           timed_out->limit);
    if (!out.fit_ms) {
        out.shape = StaircaseShape::no_option;
        out.conclusion = no_fit_words(out, os) + tail;
        return out;
    }
    out.shape = shape_of(out.fit_ms->slope);
    const std::string evidence = kernel_count_words(out, counts);
    out.conclusion = shape_words(out, evidence, os) + tail;
    return out;
}

} // namespace loopcheck
