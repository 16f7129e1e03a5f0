#include "loopcheck/core/staircase.hpp"
#include "support/catch.hpp"
#include "support/text.hpp"

#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

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

TEST_CASE("least squares recovers the published 500 ms staircase", "[staircase]") {
    // Refused loopback connects on Windows 11 with MaxSynRetransmissions
    // 0..5: about 1 ms, then 500 ms more per retry (docs background).
    const std::vector<double> x{0, 1, 2, 3, 4, 5};
    const std::vector<double> y{0.8, 501.2, 1002.5, 1503.1, 2004.0, 2505.6};
    auto fit = fit_line(x, y);
    REQUIRE(fit);
    CHECK(fit->slope == Approx(501.0).margin(1.0));
    CHECK(fit->intercept == Approx(0.7).margin(2.0));
}

TEST_CASE("a flat line has no step", "[staircase]") {
    const std::vector<double> x{1, 2, 3, 4, 5};
    const std::vector<double> y{0.05, 0.05, 0.05, 0.05, 0.05};
    auto fit = fit_line(x, y);
    REQUIRE(fit);
    CHECK(fit->slope == Approx(0.0).margin(1e-9));
    CHECK(fit->intercept == Approx(0.05));
}

TEST_CASE("no line through fewer than two distinct x", "[staircase]") {
    const std::vector<double> one{1};
    CHECK_FALSE(fit_line(one, one));
    const std::vector<double> same_x{2, 2, 2};
    const std::vector<double> ys{1, 2, 3};
    CHECK_FALSE(fit_line(same_x, ys));
    const std::vector<double> two{1, 2};
    CHECK_FALSE(fit_line(two, ys));
}

TEST_CASE("a step keeps the median, the kernel's count and a refused option", "[staircase]") {
    std::vector<Sample> v{refused(1ms, OptionState::applied, 1), refused(3ms),
                          refused(2ms, OptionState::applied, 2)};
    auto s = summarize_step(2, v);
    CHECK(s.limit == 2);
    CHECK(s.outcome == Outcome::refused);
    CHECK(s.latency.median == 2ms);
    CHECK(s.syn_retransmissions == 2);
    CHECK(s.option == OptionState::applied);

    v[1].option = OptionState::refused;
    v[1].option_error_name = "EINVAL";
    auto r = summarize_step(0, v);
    CHECK(r.option == OptionState::refused);
    CHECK(r.option_error == "EINVAL");
}

TEST_CASE("Windows: a staircase without kernel counts is found by the fit", "[staircase]") {
    std::vector<Sample> per_limit;
    for (int l = 0; l <= 5; ++l)
        per_limit.push_back(refused(Micros{800 + l * 500'000}));
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    REQUIRE(a.fit_ms);
    CHECK(a.fit_ms->slope == Approx(500.0).margin(0.01));
    CHECK(a.fitted_limits == std::vector<int>{0, 1, 2, 3, 4, 5});
    CHECK(contains(a.conclusion, "each SYN retry after a refusal adds 500 ms"));
}

TEST_CASE("the kernel's counts decide over the times", "[staircase]") {
    std::vector<Sample> per_limit;
    for (int l = 0; l <= 5; ++l)
        per_limit.push_back(refused(50us, OptionState::applied, l));
    auto a = conclude_staircase(ipv6_loopback(9), true, steps_from(per_limit), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    CHECK(contains(a.conclusion, "The kernel counted SYN retransmissions"));
}

TEST_CASE("Linux: flat, TCP_SYNCNT=0 rejected, and refusals are not retried", "[staircase]") {
    std::vector<Sample> per_limit;
    for (int l = 0; l <= 5; ++l)
        per_limit.push_back(refused(Micros{45 + (l % 2) * 5}, OptionState::applied, 0));
    per_limit[0].option = OptionState::refused;
    per_limit[0].option_error_name = "EINVAL";
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::linux_);
    CHECK(a.shape == StaircaseShape::flat);
    CHECK(a.fitted_limits == std::vector<int>{1, 2, 3, 4, 5});
    CHECK(a.steps[0].option == OptionState::refused);
    CHECK(a.steps[0].option_error == "EINVAL");
    CHECK(contains(a.conclusion, "refusals are not retried here"));
    CHECK(contains(a.conclusion, "no SYN retransmission at any limit"));
    CHECK(contains(a.conclusion, "TCP_SYNCNT"));
}

TEST_CASE("flat by the fit alone when the kernel does not count", "[staircase]") {
    std::vector<Sample> per_limit(6, refused(700us));
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::macos);
    CHECK(a.shape == StaircaseShape::flat);
    CHECK(contains(a.conclusion, "refusals are not retried here"));
    CHECK_FALSE(contains(a.conclusion, "TCP_SYNCNT"));
}

TEST_CASE("Wine: the option refused at every limit gives no staircase", "[staircase]") {
    Sample s = refused(60us, OptionState::refused);
    s.option_error = 10045;
    s.option_error_name = "WSAEOPNOTSUPP";
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true,
                                steps_from(std::vector<Sample>(6, s)), Os::windows);
    CHECK(a.shape == StaircaseShape::no_option);
    CHECK_FALSE(a.fit_ms);
    CHECK(contains(a.conclusion, "WSAEOPNOTSUPP"));
    CHECK(contains(a.conclusion, "6 of 6 limits"));
}

TEST_CASE("a target that accepts has no staircase", "[staircase]") {
    Sample s;
    s.outcome = Outcome::accepted;
    s.latency = 80us;
    s.option = OptionState::applied;
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 8080), false,
                                steps_from(std::vector<Sample>(6, s)), Os::linux_);
    CHECK(a.shape == StaircaseShape::not_refused);
    CHECK(contains(a.conclusion, "was not refused (accepted)"));
}

TEST_CASE("a step cut off by --timeout is named", "[staircase]") {
    std::vector<Sample> per_limit;
    for (int l = 0; l <= 5; ++l)
        per_limit.push_back(refused(Micros{800 + l * 500'000}));
    per_limit[5].outcome = Outcome::timeout;
    per_limit[5].latency = 2s;
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    CHECK(a.fitted_limits == std::vector<int>{0, 1, 2, 3, 4});
    CHECK(contains(a.conclusion, "timed out at limit 5"));
}
