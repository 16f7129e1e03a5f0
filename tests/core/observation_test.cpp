#include "loopcheck/core/measure/observation.hpp"
#include "support/catch.hpp"

#include <vector>

using namespace loopcheck;
using namespace std::chrono_literals;

namespace {
Sample sample(Outcome o, Micros t, OptionState opt = OptionState::not_requested) {
    Sample s;
    s.outcome = o;
    s.latency = t;
    s.option = opt;
    return s;
}
} // namespace

TEST_CASE("the representative outcome is the most common one", "[observation]") {
    std::vector<Sample> v{sample(Outcome::timeout, 5s), sample(Outcome::accepted, 1ms),
                          sample(Outcome::accepted, 2ms)};
    auto s = summarize_address(v, {});
    CHECK(s.outcome == Outcome::accepted);
    CHECK(s.mixed);
    CHECK(s.latency.count == 3);
    CHECK_FALSE(s.fast_latency);

    std::vector<Sample> same{sample(Outcome::refused, 20us), sample(Outcome::refused, 30us)};
    auto r = summarize_address(same, {});
    CHECK(r.outcome == Outcome::refused);
    CHECK_FALSE(r.mixed);
}

TEST_CASE("only applied no-retry probes count as 'without SYN retries'", "[observation]") {
    std::vector<Sample> def{sample(Outcome::refused, 2030ms)};
    std::vector<Sample> fast{sample(Outcome::refused, 700us, OptionState::applied)};
    auto s = summarize_address(def, fast);
    REQUIRE(s.fast_latency);
    CHECK(s.fast_latency->median == 700us);
    CHECK(*s.fast_outcome == Outcome::refused);
    CHECK_FALSE(s.fast_option_refused);

    std::vector<Sample> refused{sample(Outcome::refused, 2030ms, OptionState::refused)};
    auto w = summarize_address(def, refused);
    CHECK_FALSE(w.fast_latency);
    CHECK(w.fast_option_refused);
}

TEST_CASE("the largest kernel retransmission count is kept", "[observation]") {
    std::vector<Sample> v{sample(Outcome::refused, 1s), sample(Outcome::refused, 2s)};
    v[0].syn_retransmissions = 1;
    v[1].syn_retransmissions = 2;
    CHECK(summarize_address(v, {}).syn_retransmissions == 2);
    std::vector<Sample> none{sample(Outcome::refused, 1s)};
    CHECK_FALSE(summarize_address(none, {}).syn_retransmissions);
}

TEST_CASE("interrupted samples are not measurements", "[observation]") {
    auto cut = sample(Outcome::timeout, 300ms);
    cut.interrupted = true;
    std::vector<Sample> v{sample(Outcome::refused, 20us), cut};
    auto s = summarize_address(v, {});
    CHECK(s.outcome == Outcome::refused);
    CHECK_FALSE(s.mixed);
    CHECK(s.latency.count == 1);
    CHECK_FALSE(s.interrupted);

    std::vector<Sample> only{cut};
    auto o = summarize_address(only, {});
    CHECK(o.interrupted);
    CHECK(o.latency.count == 0);
}

TEST_CASE("the OS's error name is implied by an accept or a plain refusal", "[observation]") {
    AddressSummary s;
    s.outcome = Outcome::accepted;
    CHECK(native_name_implied(s));
    s.outcome = Outcome::refused;
    s.native_name = "ECONNREFUSED";
    CHECK(native_name_implied(s));
    s.native_name = "WSAECONNREFUSED";
    CHECK(native_name_implied(s));
    s.mixed = true; // refused in some rounds only: the name adds something
    CHECK_FALSE(native_name_implied(s));
    s.mixed = false;
    s.outcome = Outcome::unreachable;
    s.native_name = "EHOSTUNREACH";
    CHECK_FALSE(native_name_implied(s));
}

TEST_CASE("an interrupted address or probe is 'interrupted', not its placeholder timeout",
          "[observation]") {
    Sample cut;
    cut.outcome = Outcome::timeout;
    cut.native_name = "interrupted";
    cut.interrupted = true;
    CHECK(sample_outcome_name(cut) == "interrupted");
    const std::vector<Sample> samples{cut};
    const auto s = summarize_address(samples, {});
    REQUIRE(s.interrupted);
    CHECK(summary_outcome_name(s) == "interrupted");
    Sample timed_out;
    timed_out.outcome = Outcome::timeout;
    CHECK(sample_outcome_name(timed_out) == "timeout");
    const std::vector<Sample> timed{timed_out};
    CHECK(summary_outcome_name(summarize_address(timed, {})) == "timeout");
}
