// The Java rows of the client table on Windows loopback: JDK 16 (JDK-8250521) turns SYN retries
// off.
#include "loopcheck/core/clients/impact.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"

#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

const ConnectPrediction& java(const std::vector<ClientImpact>& all, const std::string& id,
                              const std::string& min, bool windows = false) {
    for (const auto& c : all)
        if (c.id == id && c.min_version.value_or("") == min)
            return windows ? *c.windows : c.prediction;
    FAIL("no row " << id << " min " << min);
    return all.front().prediction;
}

} // namespace

TEST_CASE("Java >= 16 refuses fast on Windows loopback, earlier Java takes the retries",
          "[clients]") {
    // The server listens on ::1 only; Java prefers IPv4 and tries 127.0.0.1
    // alone. Refused after 2.03 s with the defaults, 0.7 ms without retries.
    const std::vector<Observation> win{
        observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 2030ms, 700us),
        observe(ipv6_loopback(8000), Outcome::accepted, 200us)};
    const auto all = predict_clients(win, {"localhost", Os::windows});
    CHECK_FALSE(java(all, "java-socket", "").connected);
    CHECK(java(all, "java-socket", "").time == 2030ms);
    CHECK(java(all, "java-socket", "16").time == 700us);
    CHECK_FALSE(java(all, "java-socket", "16").connected);
    // HttpClient connects once more after a refusal: twice the cost.
    CHECK(java(all, "java-httpclient", "11").time == 4060ms);
    CHECK(java(all, "java-httpclient", "16").time == 1400us);
    CHECK(java(all, "java-httpclient", "16").attempts == 2);
}

TEST_CASE("off Windows the Java rows differ only in their Windows prediction", "[clients]") {
    // Linux: the same set-up refuses at once, so both rows measure the same;
    // on Windows the < 16 rows pay the retries (2 s per refusal).
    const std::vector<Observation> lin{
        observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 50us),
        observe(ipv6_loopback(8000), Outcome::accepted, 100us)};
    const auto all = predict_clients(lin, {"localhost", Os::linux_});
    CHECK(java(all, "java-socket", "").time == java(all, "java-socket", "16").time);
    CHECK(java(all, "java-socket", "", true).time == windows_refusal_retries);
    CHECK(java(all, "java-socket", "16", true).time == windows_fast_refusal);
    CHECK(java(all, "java-httpclient", "11", true).time == 2 * windows_refusal_retries);
    CHECK(java(all, "java-httpclient", "16", true).time == 2 * windows_fast_refusal);
}
