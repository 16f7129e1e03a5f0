// Outcome and option-state names.
#include "loopcheck/core/measure/sample.hpp"

namespace loopcheck {

std::string_view outcome_name(Outcome o) noexcept {
    switch (o) {
    case Outcome::accepted:
        return "accepted";
    case Outcome::refused:
        return "refused";
    case Outcome::timeout:
        return "timeout";
    case Outcome::unreachable:
        return "unreachable";
    case Outcome::error:
        return "error";
    }
    return "error";
}

std::string_view option_state_name(OptionState s) noexcept {
    switch (s) {
    case OptionState::not_requested:
        return "not-requested";
    case OptionState::applied:
        return "applied";
    case OptionState::refused:
        return "refused";
    case OptionState::unsupported:
        return "unsupported";
    }
    return "unsupported";
}

std::string_view sample_outcome_name(const Sample& s) noexcept {
    return s.interrupted ? std::string_view("interrupted") : outcome_name(s.outcome);
}

} // namespace loopcheck
