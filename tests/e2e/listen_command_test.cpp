// `loopcheck listen`: its spec parser, and the real binary's errors, exit
// codes and output.
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/input/listen_spec.hpp"
#include "loopcheck/platform/platform.hpp"
#include "run/probe.hpp"
#include "support/catch.hpp"
#include "support/child.hpp"
#include "support/helpers.hpp"
#include "support/process.hpp"

#include <csignal>
#include <cstdint>
#include <string>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

void expect_usage_error(const std::vector<std::string>& args, const std::string& needle) {
    auto r = run_loopcheck(args);
    INFO("args: " << args.back() << "\nstderr: " << r.err);
    CHECK(r.exit_code == exit_code::usage);
    CHECK(r.out.empty()); // nothing was opened
    CHECK(lines(r.err).size() == 1);
    CHECK(contains(r.err, needle));
}

} // namespace

TEST_CASE("listen specs: addresses, names, dual, port 0", "[listen]") {
    auto v4 = parse_listen_spec("127.0.0.1:8000");
    REQUIRE(v4);
    CHECK(v4->kind == ListenSpec::Kind::address);
    CHECK(endpoint_string(v4->address) == "127.0.0.1:8000");

    auto v6 = parse_listen_spec("[::1]:0");
    REQUIRE(v6);
    CHECK(v6->kind == ListenSpec::Kind::address);
    CHECK(endpoint_string(v6->address) == "[::1]:0");
    CHECK(v6->port == 0);

    auto name = parse_listen_spec("localhost:8000");
    REQUIRE(name);
    CHECK(name->kind == ListenSpec::Kind::name);
    CHECK(name->host == "localhost");
    CHECK(name->port == 8000);

    auto dual = parse_listen_spec("dual:65535");
    REQUIRE(dual);
    CHECK(dual->kind == ListenSpec::Kind::dual);
    CHECK(endpoint_string(dual->address) == "[::]:65535");
}

TEST_CASE("listen specs: bad ones name the bad part", "[listen]") {
    auto why = [](std::string_view text) {
        auto r = parse_listen_spec(text);
        REQUIRE_FALSE(r);
        CHECK(r.error().kind == ErrorKind::usage);
        CHECK(contains(r.error().message, "invalid listen spec"));
        return r.error().message;
    };
    CHECK(contains(why("8000"), "expected HOST:PORT"));
    CHECK(contains(why(":8000"), "expected HOST:PORT"));
    CHECK(contains(why("localhost:"), "missing port"));
    CHECK(contains(why("127.0.0.1:http"), "not a number"));
    CHECK(contains(why("127.0.0.1:65536"), "out of range"));
    CHECK(contains(why("127.0.0.1:123456"), "not a number"));
    CHECK(contains(why("[::1:80"), "unbalanced"));
    CHECK(contains(why("[::1]80"), "missing ':PORT'"));
    CHECK(contains(why("[127.0.0.1]:80"), "not an IPv6 address"));
    CHECK(contains(why("::1:80"), "brackets"));
    CHECK(contains(why("127.0.0.256:80"), "not an IPv4 address"));
    CHECK(contains(why("bad$name:80"), "not a host name"));
    CHECK(contains(why("a\x01:80"), "\\x01")); // control bytes are shown, not printed raw
}

TEST_CASE("listen: loopback only unless --allow-any", "[listen]") {
    auto any4 = *parse_listen_spec("0.0.0.0:80");
    CHECK(contains(listen_refusal(any4, any4.address), "not a loopback address"));
    auto dual = *parse_listen_spec("dual:80");
    CHECK(contains(listen_refusal(dual, dual.address), "every interface"));
    auto lo = *parse_listen_spec("127.0.0.2:80");
    CHECK(listen_refusal(lo, lo.address).empty());
    auto lo6 = *parse_listen_spec("[::1]:80");
    CHECK(listen_refusal(lo6, lo6.address).empty());
}

TEST_CASE("listen: bad input is one line and exit 2", "[listen][cli]") {
    expect_usage_error({"listen"}, "needs at least one SPEC");
    expect_usage_error({"listen", "8000"}, "expected HOST:PORT");
    expect_usage_error({"listen", "[::1:80"}, "unbalanced");
    expect_usage_error({"listen", "127.0.0.1:70000"}, "out of range");
    expect_usage_error({"listen", "192.0.2.1:80"}, "--allow-any");
    expect_usage_error({"listen", "dual:0"}, "--allow-any");
    expect_usage_error({"listen", "127.0.0.1:0", "--for", "soon"}, "--for");
    expect_usage_error({"listen", "127.0.0.1:0", "--for", "0"}, "--for");
    expect_usage_error({"listen", "127.0.0.1:0", "--bogus"}, "bogus");
}

TEST_CASE("listen: a name that does not resolve exits 4, a taken port 5", "[listen][cli]") {
    auto r = run_loopcheck({"listen", "nosuch.invalid:0", "--for", "1s"});
    CHECK(r.exit_code == exit_code::unresolved);
    CHECK(lines(r.err).size() == 1);
    CHECK(contains(r.err, "nosuch.invalid"));

    platform::NetworkScope net;
    auto held = platform::open_listener({make_ipv4(127, 0, 0, 1), true, 16});
    REQUIRE(held);
    const auto port = platform::local_address(*held)->port;
    auto taken = run_loopcheck({"listen", "127.0.0.1:" + std::to_string(port), "--for", "1s"});
    INFO(taken.err);
    CHECK(taken.exit_code == exit_code::internal);
    CHECK(lines(taken.err).size() == 1);
    CHECK(contains(taken.err, "cannot bind 127.0.0.1:" + std::to_string(port)));
}

TEST_CASE("listen --for ends on its own and -q keeps stderr quiet", "[listen][cli][integration]") {
    auto r = run_loopcheck({"listen", "127.0.0.1:0", "--for", "300ms"});
    INFO(r.err);
    CHECK(r.exit_code == exit_code::healthy);
    REQUIRE(lines(r.out).size() == 1);
    CHECK(lines(r.out)[0].rfind("listening on 127.0.0.1:", 0) == 0);
    CHECK(contains(r.err, "stopped after 0 connection(s)"));

    auto q = run_loopcheck({"listen", "-q", "127.0.0.1:0", "--for", "100ms"});
    CHECK(q.exit_code == exit_code::healthy);
    CHECK(q.err.empty());
}

TEST_CASE("listen localhost:0 opens every address of the name on one port",
          "[listen][cli][integration]") {
    platform::NetworkScope net;
    auto resolved = platform::resolve("localhost", 1, FamilyFilter::any);
    REQUIRE(resolved);
    auto r = run_loopcheck({"listen", "localhost:0", "--for", "100ms"});
    INFO(r.err);
    CHECK(r.exit_code == exit_code::healthy);
    const auto out = lines(r.out);
    REQUIRE(out.size() == resolved->size());
    std::string port;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto expect = "listening on " + endpoint_string((*resolved)[i]);
        const auto prefix = expect.substr(0, expect.rfind(':') + 1);
        CHECK(out[i].rfind(prefix, 0) == 0);
        const auto p = out[i].substr(prefix.size());
        CHECK(p != "0");
        if (i == 0)
            port = p;
        CHECK(p == port);
    }
}

TEST_CASE("listen dual:0 --allow-any takes IPv4 and IPv6 on one [::] socket",
          "[listen][cli][integration]") {
    platform::NetworkScope net;
    if (!platform::bind_closed(ipv6_loopback()).ok())
        LC_SKIP("IPv6 is not available on this machine");
    auto child = Child::start({LOOPCHECK_EXE, "listen", "dual:0", "--allow-any", "--for", "60s"});
    if (!child)
        LC_SKIP("no child processes on this platform");
    auto line = child->read_line(10s);
    REQUIRE(line);
    CHECK(line->rfind("listening on [::]:", 0) == 0);
    CHECK(contains(*line, "(IPV6_V6ONLY off)"));
    const auto port = static_cast<std::uint16_t>(std::stoi(line->substr(line->rfind("]:") + 2)));
    std::vector<ProbeSpec> specs{{make_ipv4(127, 0, 0, 1, port)}, {ipv6_loopback(port)}};
    auto samples = probe(specs, 5s);
    CHECK(samples[0].outcome == Outcome::accepted);
    CHECK(samples[1].outcome == Outcome::accepted);
    child->signal(SIGINT); // Ctrl-C ends it as cleanly as SIGTERM
    CHECK(child->wait(10s) == 0);
}
