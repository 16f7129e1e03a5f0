// One address's samples summarised (median, range, outcome, kernel count).
#include "loopcheck/core/measure/observation.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace loopcheck {

namespace {

Outcome representative(std::span<const Sample> samples, bool& mixed) {
    std::array<int, 5> counts{};
    for (const auto& s : samples)
        ++counts[static_cast<std::size_t>(s.outcome)];
    Outcome best = samples.front().outcome;
    for (std::size_t i = 0; i < counts.size(); ++i)
        if (counts[i] > counts[static_cast<std::size_t>(best)])
            best = static_cast<Outcome>(i);
    mixed = counts[static_cast<std::size_t>(best)] != static_cast<int>(samples.size());
    return best;
}

Summary latency_of(std::span<const Sample> samples) {
    std::vector<Micros> v;
    v.reserve(samples.size());
    for (const auto& s : samples)
        v.push_back(s.latency);
    return summarize(v);
}

} // namespace

AddressSummary summarize_address(std::span<const Sample> all_samples,
                                 std::span<const Sample> fast_samples) {
    AddressSummary out;
    if (all_samples.empty())
        return out;
    // Interrupted probes measured nothing; summarise the others.
    std::vector<Sample> measured;
    for (const auto& s : all_samples)
        if (!s.interrupted)
            measured.push_back(s);
    if (measured.empty()) {
        out.interrupted = true;
        out.outcome = Outcome::timeout;
        out.native_name = "interrupted";
        return out;
    }
    const std::span<const Sample> samples = measured;
    out.outcome = representative(samples, out.mixed);
    for (const auto& s : samples) {
        if (s.outcome == out.outcome) {
            out.native_name = s.native_name;
            break;
        }
    }
    out.latency = latency_of(samples);
    for (const auto& s : samples)
        if (s.syn_retransmissions)
            out.syn_retransmissions =
                std::max(out.syn_retransmissions.value_or(0), *s.syn_retransmissions);

    // Only probes where the OS actually took the option say anything about
    // "without SYN retries"; the others are plain default probes.
    std::vector<Sample> applied;
    for (const auto& s : fast_samples) {
        if (s.interrupted)
            continue;
        if (s.option == OptionState::applied)
            applied.push_back(s);
        else if (s.option == OptionState::refused || s.option == OptionState::unsupported) {
            out.fast_option_refused = true;
            if (out.fast_option_error.empty())
                out.fast_option_error = s.option_error_name;
        }
    }
    if (!applied.empty()) {
        bool ignored = false;
        out.fast_outcome = representative(applied, ignored);
        out.fast_latency = latency_of(applied);
    }
    return out;
}

bool native_name_implied(const AddressSummary& s) {
    return s.outcome == Outcome::accepted ||
           (s.outcome == Outcome::refused && !s.mixed &&
            s.native_name.find("CONNREFUSED") != std::string::npos);
}

std::string_view summary_outcome_name(const AddressSummary& s) noexcept {
    return s.interrupted ? std::string_view("interrupted") : outcome_name(s.outcome);
}

} // namespace loopcheck
