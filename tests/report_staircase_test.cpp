// The staircase report's renderings (report/staircase_report.hpp) on a
// concluded staircase.
#include "loopcheck/report/staircase_report.hpp"
#include "support/catch.hpp"
#include "support/text.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;
using loopcheck::test::contains;

namespace {

Sample refused(Micros t, OptionState option = OptionState::applied,
               std::optional<int> syn_rtx = std::nullopt) {
    Sample s;
    s.outcome = Outcome::refused;
    s.latency = t;
    s.native_name = "ECONNREFUSED";
    s.option = option;
    s.syn_retransmissions = syn_rtx;
    return s;
}

/// Steps 0..5 from one latency per limit (three identical probes each).
std::vector<StairStep> steps_from(const std::vector<Sample>& per_limit) {
    std::vector<StairStep> out;
    for (std::size_t l = 0; l < per_limit.size(); ++l) {
        std::vector<Sample> three(3, per_limit[l]);
        out.push_back(summarize_step(static_cast<int>(l), three));
    }
    return out;
}

} // namespace

TEST_CASE("text and JSON show every limit, the fit and the conclusion", "[staircase]") {
    std::vector<Sample> per_limit(6, refused(50us, OptionState::applied, 0));
    StaircaseReport r;
    r.loopcheck_version = "0.1.0";
    r.system.os = Os::linux_;
    r.system.os_name = "Linux";
    r.system.os_version = "6.1";
    r.timeout = 5s;
    r.count = 3;
    r.addresses.push_back(
        conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::linux_));
    const auto text = render_staircase_text(r);
    CHECK(contains(text, "TCP_SYNCNT set to 0..5"));
    CHECK(contains(text, "127.0.0.1:9 (a closed port loopcheck reserved)  [flat]"));
    CHECK(contains(text, "limit"));
    CHECK(contains(text, "Fit: +0.000 ms per retry"));
    CHECK(contains(text, "refusals are not retried here"));

    const auto json = render_staircase_json(r);
    CHECK(contains(json, "\"schema\": \"loopcheck-staircase/1\""));
    CHECK(contains(json, "\"shape\": \"flat\""));
    CHECK(contains(json, "\"limit\": 5"));
    CHECK(contains(json, "\"step_ms\": 0.000"));
}
