// The staircase's Mermaid chart (report/markdown/staircase_chart.hpp).
#include "report/markdown/staircase_chart.hpp"
#include "support/catch.hpp"
#include "support/staircase_steps.hpp"
#include "support/text.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;
using namespace loopcheck::test;

TEST_CASE("a Windows staircase charts one bar per limit, in ms, on a rounded axis", "[staircase]") {
    std::vector<StairStep> steps;
    for (int l = 0; l <= staircase_max_limit; ++l) {
        std::vector<Sample> three(3, refused(Micros{1'000 + 500'000 * l}, OptionState::applied));
        steps.push_back(summarize_step(l, three));
    }
    const auto a = conclude_staircase(ipv6_loopback(11434), false, std::move(steps), Os::windows);
    const auto chart = staircase_chart(a);
    CHECK(chart.starts_with("```mermaid\nxychart-beta\n"));
    CHECK(chart.ends_with("```\n"));
    CHECK(contains(chart, "title \"[::1]:11434: median refused connect by SYN retry limit\""));
    CHECK(contains(chart, "x-axis \"SYN retransmissions allowed\" [0, 1, 2, 3, 4, 5]"));
    CHECK(contains(chart, "bar [1.0, 501.0, 1001.0, 1501.0, 2001.0, 2501.0]"));
    // 2501 ms * 1.1 rounded up to a whole 100 ms.
    CHECK(contains(chart, "y-axis \"ms\" 0 --> 2800"));
}

TEST_CASE("the chart skips limits that measured nothing and needs two bars", "[staircase]") {
    std::vector<StairStep> steps;
    steps.push_back(summarize_step(0, std::vector<Sample>(2, refused(80us, OptionState::applied))));
    steps.push_back(summarize_step(1, std::vector<Sample>(2, refused(90us, OptionState::applied))));
    StairStep cut = summarize_step(2, {});
    cut.interrupted = true;
    steps.push_back(cut);
    const auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps, Os::linux_);
    const auto chart = staircase_chart(a);
    CHECK(contains(chart, "[0, 1]"));
    CHECK(contains(chart, "bar [0.1, 0.1]"));
    CHECK(contains(chart, "0 --> 1\n")); // a flat staircase stays on a 1 ms axis

    steps.resize(1);
    CHECK(staircase_chart(conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps, Os::linux_))
              .empty());
}
