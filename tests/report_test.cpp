#include "loopcheck/report_render.hpp"
#include "loopcheck/target.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;

TEST_CASE("placeholder for the report golden tests", "[report]") {
    SUCCEED();
}

namespace {

/// One loopback target whose paired no-retry probes the OS refused.
Report option_refused_report() {
    Report r;
    r.system.os = "Windows";
    r.system.os_version = "10.0.18362";
    r.timeout = 5s;
    r.threshold = 100ms;
    TargetReport t;
    t.target = *parse_target("127.0.0.1:9");
    AddressReport a;
    a.address = make_ipv4(127, 0, 0, 1, 9);
    a.summary = test::observe(a.address, Outcome::refused, 60us).summary;
    a.summary.fast_option_refused = true;
    a.summary.fast_option_error = "WSAEOPNOTSUPP";
    t.addresses.push_back(a);
    r.targets.push_back(t);
    return r;
}

} // namespace

TEST_CASE("a refused SYN-retry option is one line in text and said in Markdown", "[report]") {
    auto r = option_refused_report();
    const auto text = render_text(r, TextStyle{});
    int lines_with_ioctl = 0;
    for (std::size_t pos = 0; (pos = text.find("SIO_TCP_INITIAL_RTO", pos)) != std::string::npos;
         ++pos)
        ++lines_with_ioctl;
    CHECK(lines_with_ioctl == 1);
    CHECK(text.find("SIO_TCP_INITIAL_RTO (no SYN retries) refused by the OS (WSAEOPNOTSUPP): "
                    "default probes only.\n") != std::string::npos);
    CHECK(text.find("option refused") != std::string::npos);

    const auto md = render_markdown(r);
    CHECK(md.find("SIO_TCP_INITIAL_RTO (no SYN retries) was refused by the OS (`WSAEOPNOTSUPP`)") !=
          std::string::npos);

    r.targets[0].addresses[0].summary.fast_option_refused = false;
    CHECK(render_text(r, TextStyle{}).find("SIO_TCP_INITIAL_RTO") == std::string::npos);
    CHECK(render_markdown(r).find("SIO_TCP_INITIAL_RTO") == std::string::npos);
}
