#include "loopcheck/core/measure/quick.hpp"
#include "loopcheck/core/windows/tcp_settings.hpp"
#include "support/catch.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;

TEST_CASE("quick: the retry limit comes from the facts, else Windows' default", "[quick]") {
    auto configured = retry_limit_for_inference({{max_syn_retransmissions_key, "2"}});
    CHECK(configured.retries == 2);
    CHECK_FALSE(configured.assumed);
    for (const char* unreadable : {"unknown", "Internet=4, Datacenter=2", "", "-1", "4x"}) {
        INFO(unreadable);
        auto r = retry_limit_for_inference({{max_syn_retransmissions_key, unreadable}});
        CHECK(r.retries == windows_default_max_syn_retransmissions);
        CHECK(r.assumed);
    }
    CHECK(retry_limit_for_inference({}).assumed);
}

TEST_CASE("quick: a refusal without retries becomes one with them", "[quick]") {
    Sample fast;
    fast.outcome = Outcome::refused;
    fast.latency = 700us;
    fast.option = OptionState::applied;
    fast.native_name = "WSAECONNREFUSED";
    // The seed figures: 0.7 ms without retries, about 2.0 s with 4.
    auto s = infer_default_sample(fast, {4, false}, 500ms);
    CHECK(s.inferred);
    CHECK(s.outcome == Outcome::refused);
    CHECK(s.latency == 2000ms + 700us);
    CHECK(s.option == OptionState::not_requested);
    CHECK(s.native_name == "WSAECONNREFUSED");

    fast.outcome = Outcome::accepted;
    fast.latency = 200us;
    auto a = infer_default_sample(fast, {4, false}, 500ms);
    CHECK(a.inferred);
    CHECK(a.latency == 200us); // an accepted connect retries nothing

    // The OS refused the option (Wine): the probe ran with the defaults.
    fast.outcome = Outcome::refused;
    fast.option = OptionState::refused;
    auto m = infer_default_sample(fast, {4, false}, 500ms);
    CHECK_FALSE(m.inferred);
    CHECK(m.latency == 200us);
}
