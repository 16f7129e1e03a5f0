// The staircase's fit, steps and conclusions.
#include "loopcheck/core/measure/staircase.hpp"
#include "support/catch.hpp"
#include "support/staircase_steps.hpp"
#include "support/text.hpp"

#include <cstdint>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

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
    auto a =
        conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    REQUIRE(a.fit_ms);
    CHECK(a.fit_ms->slope == Approx(500.0).margin(0.01));
    CHECK(a.fitted_limits == std::vector<int>{0, 1, 2, 3, 4, 5});
    CHECK(contains(a.conclusion, "each SYN retry after a refusal adds 500 ms"));
}

TEST_CASE("the times decide over the kernel's counts", "[staircase]") {
    // Counts that climb while the times stay flat: the shape is flat and
    // the report says the count disagrees.
    std::vector<Sample> per_limit;
    for (int l = 0; l <= 5; ++l)
        per_limit.push_back(refused(50us, OptionState::applied, l));
    auto a = conclude_staircase(ipv6_loopback(9), true, steps_from(per_limit), Os::windows);
    CHECK(a.shape == StaircaseShape::flat);
    CHECK(a.kernel_count == KernelCount::disagrees);
    CHECK(contains(a.conclusion, "The kernel's count disagrees"));
}

// Recorded Windows-like series: medians (ms) of refused loopback connects
// at limits 0..5, as Windows 11 gives them with SIO_TCP_INITIAL_RTO taking
// each limit (about 1 ms, then 500 ms per retry), with the kernel's
// SynRetrans as it might come back from SIO_TCP_INFO after the refusal.
namespace {

std::vector<StairStep> windows_series(const std::vector<double>& medians_ms,
                                      const std::vector<std::optional<int>>& syn_rtx) {
    std::vector<Sample> per_limit;
    for (std::size_t l = 0; l < medians_ms.size(); ++l) {
        auto s = refused(Micros{static_cast<std::int64_t>(medians_ms[l] * 1000.0)},
                         OptionState::applied, syn_rtx[l]);
        s.native_name = "WSAECONNREFUSED";
        per_limit.push_back(s);
    }
    return steps_from(per_limit);
}

const std::vector<double> clean_windows{0.9, 501.4, 1002.2, 1503.8, 2004.1, 2505.0};

} // namespace

TEST_CASE("Windows: clean 500 ms steps with SynRetrans 0 are still a staircase", "[staircase]") {
    // The bug: SynRetrans 0 at every limit used to decide "flat".
    const std::vector<std::optional<int>> zeros(6, 0);
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true,
                                windows_series(clean_windows, zeros), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    REQUIRE(a.fit_ms);
    CHECK(a.fit_ms->slope == Approx(500.8).margin(1.0));
    CHECK(a.kernel_count == KernelCount::disagrees);
    CHECK(contains(a.conclusion, "A staircase"));
    CHECK(contains(a.conclusion, "counted no SYN retransmission (at every limit)"));
    CHECK_FALSE(contains(a.conclusion, "not retried"));
}

TEST_CASE("Windows: clean 500 ms steps with SynRetrans counting up agree", "[staircase]") {
    // SynRetrans equal to the limit; limit 0 (NO_SYN_RETRANSMISSIONS) 0.
    const std::vector<std::optional<int>> counts{0, 1, 2, 3, 4, 5};
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true,
                                windows_series(clean_windows, counts), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    CHECK(a.kernel_count == KernelCount::agrees);
    CHECK(contains(a.conclusion, "The kernel's count agrees"));
}

TEST_CASE("Windows: SynRetrans 4 at every limit still agrees that SYNs were resent",
          "[staircase]") {
    // A count that does not follow the limit (the default's 4 everywhere)
    // still says "retransmitted"; the step comes from the times.
    const std::vector<std::optional<int>> fours(6, 4);
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true,
                                windows_series(clean_windows, fours), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    CHECK(a.kernel_count == KernelCount::agrees);
    REQUIRE(a.fit_ms);
    CHECK(a.fit_ms->slope == Approx(500.8).margin(1.0));
}

TEST_CASE("Windows: clean 500 ms steps with SynRetrans missing", "[staircase]") {
    const std::vector<std::optional<int>> missing(6);
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true,
                                windows_series(clean_windows, missing), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    CHECK(a.kernel_count == KernelCount::missing);
    CHECK_FALSE(contains(a.conclusion, "kernel"));
    CHECK(a.fit_ms->intercept == Approx(0.9).margin(5.0));
}

TEST_CASE("Windows: some steps counted, some not", "[staircase]") {
    const std::vector<std::optional<int>> some{std::nullopt, 1, 2, std::nullopt, 4, 5};
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true,
                                windows_series(clean_windows, some), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    CHECK(a.kernel_count == KernelCount::agrees);
    CHECK(contains(a.conclusion, "at 4 of 6 limits"));
}

TEST_CASE("Windows: a flat series (retries off for resets) is flat", "[staircase]") {
    const std::vector<double> flat{0.8, 0.7, 0.9, 0.8, 0.6, 0.9};
    const std::vector<std::optional<int>> zeros(6, 0);
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, windows_series(flat, zeros),
                                Os::windows);
    CHECK(a.shape == StaircaseShape::flat);
    CHECK(a.kernel_count == KernelCount::agrees);
    CHECK(contains(a.conclusion, "refusals are not retried here"));
}

TEST_CASE("Windows: a noisy staircase is still found, and the step stays near 500 ms",
          "[staircase]") {
    // Jitter of tens of milliseconds, a scheduler hiccup at limit 2, and a
    // SynRetrans that only some steps report.
    const std::vector<double> noisy{3.8, 547.0, 1090.5, 1468.2, 2043.9, 2488.7};
    const std::vector<std::optional<int>> counts{0, std::nullopt, 0, 0, std::nullopt, 0};
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, windows_series(noisy, counts),
                                Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    REQUIRE(a.fit_ms);
    CHECK(a.fit_ms->slope == Approx(500.0).epsilon(0.2));
    CHECK(a.kernel_count == KernelCount::disagrees);
}

TEST_CASE("Windows: a noisy flat series stays flat", "[staircase]") {
    const std::vector<double> noisy{0.9, 6.5, 0.7, 12.0, 1.1, 0.8};
    const std::vector<std::optional<int>> missing(6);
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, windows_series(noisy, missing),
                                Os::windows);
    CHECK(a.shape == StaircaseShape::flat);
}

TEST_CASE("Windows: the old bug's shape (limit 0 at the default) is not a clean staircase",
          "[staircase]") {
    // What limit 0 = MaxSynRetransmissions 0 (the system default, 4 retries)
    // gave: ~2 s at limit 0, then 0.5, 1, 1.5, 2, 2.5 s. The fit is
    // ~214 ms per step with a 1 s intercept: still "retried", but the JSON
    // carries the fitted numbers the workflow checks against 500 ms.
    const std::vector<double> buggy{2004.0, 501.0, 1002.0, 1503.0, 2004.0, 2505.0};
    const std::vector<std::optional<int>> missing(6);
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, windows_series(buggy, missing),
                                Os::windows);
    REQUIRE(a.fit_ms);
    CHECK(a.fit_ms->slope == Approx(214.7).margin(1.0));
    CHECK(a.fit_ms->intercept > 900.0);
}

TEST_CASE("Linux: flat, TCP_SYNCNT=0 rejected, and refusals are not retried", "[staircase]") {
    std::vector<Sample> per_limit;
    for (int l = 0; l <= 5; ++l)
        per_limit.push_back(refused(Micros{45 + (l % 2) * 5}, OptionState::applied, 0));
    per_limit[0].option = OptionState::refused;
    per_limit[0].option_error_name = "EINVAL";
    auto a =
        conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::linux_);
    CHECK(a.shape == StaircaseShape::flat);
    CHECK(a.fitted_limits == std::vector<int>{1, 2, 3, 4, 5});
    CHECK(a.steps[0].option == OptionState::refused);
    CHECK(a.steps[0].option_error == "EINVAL");
    CHECK(contains(a.conclusion, "refusals are not retried here"));
    CHECK(a.kernel_count == KernelCount::agrees);
    CHECK(contains(a.conclusion, "no SYN retransmission (at every limit)"));
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
    auto a =
        conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::windows);
    CHECK(a.shape == StaircaseShape::retried);
    CHECK(a.fitted_limits == std::vector<int>{0, 1, 2, 3, 4});
    CHECK(contains(a.conclusion, "timed out at limit 5"));
}

TEST_CASE("an interrupted probe is `interrupted`, never `timeout`, in steps and conclusions",
          "[staircase]") {
    // Issue 28: Ctrl-C during the first limit's probe gave "timeout" in
    // the table and JSON and "was not refused (timeout; a filtered port,
    // or raise --timeout)" as the conclusion.
    Sample cut;
    cut.outcome = Outcome::timeout;
    cut.latency = 40ms;
    cut.native_name = "interrupted";
    cut.interrupted = true;
    const std::vector<Sample> v{cut};
    auto step = summarize_step(0, v);
    CHECK(step.interrupted);
    CHECK(step_outcome_name(step) == "interrupted");
    auto a = conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, {step}, Os::linux_);
    INFO(a.conclusion);
    CHECK(contains(a.conclusion, "interrupted"));
    CHECK_FALSE(contains(a.conclusion, "timeout"));
    CHECK_FALSE(contains(a.conclusion, "raise --timeout"));
}
