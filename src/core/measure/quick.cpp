// --quick: default-stack samples inferred from the no-retry probe and the retry limit.
#include "loopcheck/core/measure/quick.hpp"

#include "loopcheck/core/windows/tcp_settings.hpp"

#include <charconv>

namespace loopcheck {

RetryLimit
retry_limit_for_inference(const std::vector<std::pair<std::string, std::string>>& tcp_settings) {
    for (const auto& [key, value] : tcp_settings) {
        if (key != max_syn_retransmissions_key)
            continue;
        // One number when the template that applies could be picked (or
        // every template agrees); "Internet=4, ..." or "unknown" otherwise,
        // and then the default is assumed.
        int n = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec == std::errc{} && end == value.data() + value.size() && n >= 0 && n <= 255)
            return {n, false};
    }
    return {};
}

Sample infer_default_sample(const Sample& no_retry, RetryLimit limit, Micros step) {
    Sample s = no_retry;
    if (no_retry.option != OptionState::applied)
        return s; // the option was not taken: this probe ran with the defaults
    s.option = OptionState::not_requested;
    s.option_error = 0;
    s.option_error_name.clear();
    s.syn_retransmissions.reset();
    s.inferred = true;
    if (no_retry.outcome == Outcome::refused)
        s.latency = no_retry.latency + step * limit.retries;
    return s;
}

} // namespace loopcheck
