#include "loopcheck/core/diagnose/diagnose.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/listeners/servers.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"
#include "support/text.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

struct Run {
    Target target;
    std::vector<Observation> obs;
    Diagnosis d;
};

Run diagnose_scenario(const std::string& input, std::vector<Observation> obs, Os os,
                      Micros timeout = 5s, bool expect_refused = false,
                      std::optional<std::vector<Listener>> listeners = std::nullopt) {
    Run r{*parse_target(input), std::move(obs), {}};
    DiagnosisInput in;
    in.target = &r.target;
    in.addresses = r.obs;
    in.threshold = 100ms;
    in.timeout = timeout;
    in.os = os;
    in.expect_refused = expect_refused;
    if (listeners)
        in.listeners = std::span<const Listener>(*listeners);
    r.d = diagnose(in);
    return r;
}

/// A listener as platform::list_listeners reports one.
Listener listening(Address bound, std::optional<std::uint32_t> pid, std::string name,
                   std::optional<bool> v6only = std::nullopt) {
    Listener l;
    l.bound = bound;
    l.pid = pid;
    l.process = std::move(name);
    l.v6only = v6only;
    return l;
}

Address wildcard6(std::uint16_t port) {
    Address a;
    a.family = Family::ipv6;
    a.port = port;
    return a;
}

const Finding* find(const Diagnosis& d, std::string_view id) {
    auto it = std::find_if(d.findings.begin(), d.findings.end(),
                           [&](const Finding& f) { return f.id == id; });
    return it == d.findings.end() ? nullptr : &*it;
}

/// The facts of a finding, which must be there and of kind T.
template <class T>
const T& facts_of(const Finding* f) {
    REQUIRE(f);
    const T* t = std::get_if<T>(&f->facts);
    REQUIRE(t);
    return *t;
}

/// The fix at `i` when it is of kind T; nullptr otherwise.
template <class T>
const T* fix_at(const Diagnosis& d, std::size_t i) {
    return i < d.fixes.size() ? std::get_if<T>(&d.fixes[i]) : nullptr;
}

template <class T>
bool has_fix(const Diagnosis& d) {
    return std::any_of(d.fixes.begin(), d.fixes.end(),
                       [](const facts::Fix& f) { return std::holds_alternative<T>(f); });
}

bool has_setting(const Diagnosis& d, facts::ClientSetting::Which which) {
    return std::any_of(d.fixes.begin(), d.fixes.end(), [&](const facts::Fix& f) {
        const auto* s = std::get_if<facts::ClientSetting>(&f);
        return s && s->which == which;
    });
}

bool names(const std::vector<std::string>& clients, const std::string& part) {
    return std::any_of(clients.begin(), clients.end(),
                       [&](const std::string& c) { return contains(c, part); });
}

using Kind = facts::SynEvidence::Kind;
using Which = facts::ClientSetting::Which;
using facts::VerdictForm;

} // namespace

TEST_CASE("Windows: ::1 refused after 2.03 s, IPv4-only server", "[diagnose]") {
    auto r = diagnose_scenario(
        "http://localhost:11434/v1",
        {observe(ipv6_loopback(11434), Outcome::refused, 2030ms, 700us),
         observe(make_ipv4(127, 0, 0, 1, 11434), Outcome::accepted, 200us, 200us)},
        Os::windows);
    const auto& d = r.d;
    // Slow for in-order clients; Node.js 17 to 19 tries ::1 only and fails.
    CHECK(d.exit_code == exit_code::partial);
    CHECK(d.verdict.form == VerdictForm::slow_fallback);
    CHECK(d.verdict.some_fail);
    CHECK(d.verdict.word == "PARTIAL");
    CHECK(d.verdict.facts.winner_time == 2030ms + 200us);

    auto* slow = find(d, finding_id::slow_refusal);
    REQUIRE(slow);
    CHECK(slow->cause == cause::syn_retransmission);
    CHECK(slow->severity == Severity::warning);
    const auto& refusal = facts_of<facts::SlowRefusal>(slow);
    CHECK(refusal.evidence.kind == Kind::no_retry_twin);
    CHECK(refusal.evidence.no_retry_time == 700us);
    CHECK(refusal.time == 2030ms);
    CHECK(endpoint_string(*slow->address) == "[::1]:11434");
    // The fallback-penalty finding times this refusal beside the table.
    CHECK(slow->covered_by == CoveredBy::finding);
    CHECK(slow->covering == finding_id::fallback_penalty);

    auto* fb = find(d, finding_id::fallback_penalty);
    REQUIRE(fb);
    CHECK(fb->severity == Severity::warning);
    const auto& fallback = facts_of<facts::FallbackPenalty>(fb);
    CHECK(fallback.penalty == 2030ms);
    REQUIRE(fallback.failed.size() == 1);
    CHECK(fallback.failed[0].outcome == Outcome::refused);
    CHECK(endpoint_string(fallback.winner) == "127.0.0.1:11434");
    // The verdict line words it in full.
    CHECK(fb->covered_by == CoveredBy::verdict);

    auto* single = find(d, finding_id::single_stack_listener);
    const auto& stack = facts_of<facts::SingleStack>(single);
    CHECK(stack.served == Family::ipv4);
    CHECK(stack.listeners.empty());
    CHECK_FALSE(find(d, finding_id::healthy));

    REQUIRE(d.rewritten);
    CHECK(*d.rewritten == "http://127.0.0.1:11434/v1");
    const auto* connect = fix_at<facts::ConnectInstead>(d, 0);
    REQUIRE(connect);
    CHECK(connect->rewritten == "http://127.0.0.1:11434/v1");
    CHECK_FALSE(has_fix<facts::KeepIpv6>(d));
}

TEST_CASE("the cause is inferred from the retry staircase when not paired", "[diagnose]") {
    // 4 retries 500 ms apart: 2.03 s fits 4 whole steps.
    auto r = diagnose_scenario("localhost:9", {observe(ipv6_loopback(9), Outcome::refused, 2030ms)},
                               Os::windows);
    auto* slow = find(r.d, finding_id::slow_refusal);
    REQUIRE(slow);
    CHECK(slow->cause == cause::syn_retransmission);
    const auto& evidence = facts_of<facts::SlowRefusal>(slow).evidence;
    CHECK(evidence.kind == Kind::retry_steps);
    CHECK(evidence.steps == 4);
    CHECK(evidence.step == 500ms);
    CHECK(r.d.exit_code == exit_code::slow); // a slow refusal outranks "server down"

    // 1.77 s is no whole number of 500 ms steps, and nothing else says why.
    auto u = diagnose_scenario("localhost:9", {observe(ipv6_loopback(9), Outcome::refused, 1770ms)},
                               Os::windows);
    REQUIRE(find(u.d, finding_id::slow_refusal));
    CHECK(find(u.d, finding_id::slow_refusal)->cause == cause::unknown);
    CHECK(facts_of<facts::SlowRefusal>(find(u.d, finding_id::slow_refusal)).evidence.kind ==
          Kind::none);
}

TEST_CASE("the kernel's retransmission count names the cause (Linux netns)", "[diagnose]") {
    auto r =
        diagnose_scenario("localhost:8000",
                          {observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
                           observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 60us)},
                          Os::linux_);
    auto* slow = find(r.d, finding_id::slow_refusal);
    REQUIRE(slow);
    CHECK(slow->cause == cause::syn_retransmission);
    CHECK(facts_of<facts::SlowRefusal>(slow).evidence.kind == Kind::kernel_count);
    CHECK(facts_of<facts::SlowRefusal>(slow).evidence.retransmissions == 1);
    CHECK(r.d.exit_code == exit_code::partial); // and Node.js 17 to 19 fails
    CHECK(*r.d.rewritten == "127.0.0.1:8000");
}

TEST_CASE("Linux: a fast refusal then IPv4: PARTIAL for Node.js 17 to 19, the latent cost named",
          "[diagnose]") {
    auto r = diagnose_scenario("localhost:8000",
                               {observe(ipv6_loopback(8000), Outcome::refused, 20us),
                                observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 50us)},
                               Os::linux_);
    // Cheap here for every client but Node.js 17 to 19, which tries ::1
    // only and fails (issue #23: this was "OK", exit 0).
    CHECK(r.d.exit_code == exit_code::partial);
    CHECK(r.d.verdict.word == "PARTIAL");
    CHECK(r.d.verdict.form == VerdictForm::partial_fails);
    auto* fb = find(r.d, finding_id::fallback_penalty);
    REQUIRE(fb);
    CHECK(fb->severity == Severity::info);
    CHECK(facts_of<facts::FallbackPenalty>(fb).costly_on_windows);
    CHECK_FALSE(find(r.d, finding_id::healthy));
    const auto& fail = facts_of<facts::ClientsFail>(find(r.d, finding_id::clients_fail));
    CHECK(names(fail.clients, "Node.js 17 to 19"));
    REQUIRE(fail.accepts);
    CHECK(endpoint_string(*fail.accepts) == "127.0.0.1:8000");
    // The client fold names every row it lists.
    CHECK(find(r.d, finding_id::clients_fail)->covered_by == CoveredBy::client_fold);
    CHECK(find(r.d, finding_id::single_stack_listener));
    // Cheap here for every client but Node.js 17 to 19, which tries ::1
    // only and fails: its setting is a fix. On Windows, ::1's refusal costs
    // the clients that try in turn 2 s: the address that accepts comes
    // first, for Windows users, then the server on both families.
    REQUIRE(r.d.fixes.size() == 3);
    const auto* windows = fix_at<facts::WindowsConnect>(r.d, 0);
    REQUIRE(windows);
    CHECK(windows->rewritten == "127.0.0.1:8000");
    CHECK(windows->input == "localhost:8000");
    CHECK(windows->pays_here);
    CHECK(fix_at<facts::BothFamilies>(r.d, 1));
    REQUIRE(fix_at<facts::ClientSetting>(r.d, 2));
    CHECK(fix_at<facts::ClientSetting>(r.d, 2)->which == Which::node_ipv4_first);
    CHECK(r.d.rewritten == "127.0.0.1:8000");
}

TEST_CASE("this machine fine, Windows 2 s: the address fix, for Windows users", "[diagnose]") {
    // The stock Linux hosts file (localhost is 127.0.0.1 only), a server on
    // 127.0.0.1: every client connects here at once; on Windows, which
    // answers localhost itself with ::1 first, Python requests pays 2 s.
    auto ollama = listening(make_ipv4(127, 0, 0, 1, 11434), 4242, "ollama");
    ollama.server = recognise_server("ollama", std::vector<std::string>{"ollama", "serve"});
    REQUIRE(ollama.server);
    const std::vector<Observation> v4{
        observe(make_ipv4(127, 0, 0, 1, 11434), Outcome::accepted, 90us)};
    // curl's own localhost probes (it answers ::1 itself): ::1 refused.
    const std::vector<Observation> curl{observe(ipv6_loopback(11434), Outcome::refused, 67us),
                                        v4.front()};
    auto with_curl = [&](const std::string& input, const std::vector<Listener>& table, Os os) {
        Run run{*parse_target(input), v4, {}};
        DiagnosisInput in;
        in.target = &run.target;
        in.addresses = run.obs;
        in.os = os;
        in.listeners = std::span<const Listener>(table);
        in.curl_localhost = curl;
        run.d = diagnose(in);
        return run;
    };
    const std::vector<Listener> ollama_table{ollama};
    auto r = with_curl("localhost:11434", ollama_table, Os::linux_);
    // This machine is fine: the verdict and exit code say so.
    CHECK(r.d.exit_code == exit_code::healthy);
    CHECK(r.d.verdict.form == VerdictForm::ok);
    REQUIRE(r.d.fixes.size() == 2);
    const auto* for_windows = fix_at<facts::WindowsConnect>(r.d, 0);
    REQUIRE(for_windows);
    CHECK(for_windows->rewritten == "127.0.0.1:11434");
    CHECK(for_windows->input == "localhost:11434");
    CHECK(for_windows->localhost_ipv6_first);
    CHECK_FALSE(for_windows->pays_here);
    CHECK(for_windows->server == ollama);
    // Ollama is recognised: its own setting, shown beside the first fix.
    REQUIRE(r.d.server_fix == 1u);
    const auto* own = fix_at<facts::ServerOwn>(r.d, 1);
    REQUIRE(own);
    CHECK(own->server.id == "ollama");
    CHECK(own->port == 11434);
    CHECK(r.d.rewritten == "127.0.0.1:11434");

    // A URL keeps its path; an unknown server gets "listen on both".
    const std::vector<Listener> app{listening(make_ipv4(127, 0, 0, 1, 11434), 7, "app")};
    auto url = with_curl("http://localhost:11434/v1", app, Os::linux_);
    REQUIRE(url.d.fixes.size() == 2);
    REQUIRE(fix_at<facts::WindowsConnect>(url.d, 0));
    CHECK(fix_at<facts::WindowsConnect>(url.d, 0)->rewritten == "http://127.0.0.1:11434/v1");
    CHECK(fix_at<facts::WindowsConnect>(url.d, 0)->input == "http://localhost:11434/v1");
    REQUIRE(fix_at<facts::BothFamilies>(url.d, 1));
    CHECK(fix_at<facts::BothFamilies>(url.d, 1)->server == app.front());

    // ::1 first here and a server on both families: Windows pays nothing more.
    auto both = diagnose_scenario(
        "localhost:11434", {observe(ipv6_loopback(11434), Outcome::accepted, 80us), v4.front()},
        Os::linux_);
    CHECK(both.d.fixes.empty());
    // On Windows itself the report measures Windows: no projection, no fix.
    auto windows = with_curl("localhost:11434", ollama_table, Os::windows);
    CHECK(windows.d.fixes.empty());
}

TEST_CASE("IPv6-only server: never rewrite to 127.0.0.1", "[diagnose]") {
    auto r = diagnose_scenario("localhost:3000",
                               {observe(make_ipv4(127, 0, 0, 1, 3000), Outcome::refused, 2030ms),
                                observe(ipv6_loopback(3000), Outcome::accepted, 300us)},
                               Os::windows);
    // Slow for in-order clients, and Java (IPv4 only) fails: PARTIAL.
    CHECK(r.d.exit_code == exit_code::partial);
    CHECK(*r.d.rewritten == "[::1]:3000");
    CHECK(has_fix<facts::KeepIpv6>(r.d));
}

TEST_CASE("server down: fast refusals exit 3, or 0 when expected", "[diagnose]") {
    std::vector<Observation> obs{observe(ipv6_loopback(9), Outcome::refused, 20us),
                                 observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 25us)};
    auto r = diagnose_scenario("localhost:9", obs, Os::linux_);
    CHECK(r.d.exit_code == exit_code::server_down);
    CHECK(r.d.verdict.form == VerdictForm::down);
    auto* down = find(r.d, finding_id::server_down);
    REQUIRE(down);
    CHECK(down->severity == Severity::error);
    const auto& nothing = facts_of<facts::ServerDown>(down);
    CHECK(nothing.tried.size() == 2);
    CHECK(nothing.total == 45us);
    CHECK_FALSE(nothing.expected);

    auto e = diagnose_scenario("localhost:9", obs, Os::linux_, 5s, true);
    CHECK(e.d.exit_code == exit_code::healthy);
    CHECK(e.d.verdict.form == VerdictForm::ok_refused_as_expected);
    CHECK(facts_of<facts::ServerDown>(find(e.d, finding_id::server_down)).expected);

    // Expected refusals that are slow are still slow.
    std::vector<Observation> slow{observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 2030ms)};
    CHECK(diagnose_scenario("127.0.0.1:9", slow, Os::windows, 5s, true).d.exit_code ==
          exit_code::slow);
}

TEST_CASE("a timeout is no refusal, and a short --timeout is flagged", "[diagnose]") {
    auto r = diagnose_scenario("127.0.0.1:80",
                               {observe(make_ipv4(127, 0, 0, 1, 80), Outcome::timeout, 2s)},
                               Os::windows, 2s);
    CHECK(find(r.d, finding_id::no_answer));
    CHECK(find(r.d, finding_id::short_timeout));
    CHECK(r.d.exit_code == exit_code::server_down);

    auto longer = diagnose_scenario("127.0.0.1:80",
                                    {observe(make_ipv4(127, 0, 0, 1, 80), Outcome::timeout, 5s)},
                                    Os::windows, 5s);
    CHECK(find(longer.d, finding_id::no_answer));
    CHECK_FALSE(find(longer.d, finding_id::short_timeout));
}

TEST_CASE("a timeout where nothing listens names no listener's queue", "[diagnose]") {
    // A lab that drops the resets, -t 1s: the table says nothing listens.
    auto r = diagnose_scenario("127.0.0.1:8000",
                               {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::timeout, 1s)},
                               Os::linux_, 1s, false, std::vector<Listener>{});
    auto* no_answer = find(r.d, finding_id::no_answer);
    REQUIRE(no_answer);
    // No listener's queue: nothing listens, so the reset is what went missing.
    const auto& silent = facts_of<facts::NoAnswer>(no_answer);
    CHECK_FALSE(silent.listener);
    CHECK(silent.nothing_listens);
    CHECK(silent.address.port == 8000);
    CHECK(silent.timeout == 1s);
    CHECK(facts_of<facts::ShortTimeout>(find(r.d, finding_id::short_timeout)).timeout == 1s);

    // Without a table, the queue stays a possibility.
    auto unknown = diagnose_scenario("127.0.0.1:8000",
                                     {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::timeout, 1s)},
                                     Os::linux_, 1s);
    const auto& maybe_queue = facts_of<facts::NoAnswer>(find(unknown.d, finding_id::no_answer));
    CHECK_FALSE(maybe_queue.nothing_listens);
    CHECK_FALSE(maybe_queue.listener);
}

TEST_CASE("a slow accept is slow", "[diagnose]") {
    auto r = diagnose_scenario("127.0.0.1:80",
                               {observe(make_ipv4(127, 0, 0, 1, 80), Outcome::accepted, 300ms)},
                               Os::linux_);
    const auto& accept = facts_of<facts::SlowAccept>(find(r.d, finding_id::slow_accept));
    CHECK(accept.time == 300ms);
    CHECK(accept.threshold == 100ms);
    CHECK(r.d.exit_code == exit_code::slow);
    CHECK(r.d.verdict.form == VerdictForm::slow_connect);
}

TEST_CASE("an unresolved name exits 4", "[diagnose]") {
    auto t = *parse_target("nosuch.invalid:80");
    auto d = diagnose_unresolved(t, Error{ErrorKind::resolve, "cannot resolve 'nosuch.invalid'"});
    CHECK(d.exit_code == exit_code::unresolved);
    CHECK(d.verdict.form == VerdictForm::unresolved);
    CHECK(d.verdict.error == "cannot resolve 'nosuch.invalid'");
    REQUIRE(d.findings.size() == 1);
    CHECK(d.findings[0].id == finding_id::unresolved);
    CHECK(facts_of<facts::Unresolved>(&d.findings[0]).error == "cannot resolve 'nosuch.invalid'");
    // The verdict line says the resolver's words in full.
    CHECK(d.findings[0].covered_by == CoveredBy::verdict);
    REQUIRE(d.fixes.size() == 1);
    REQUIRE(fix_at<facts::CheckName>(d, 0));
    CHECK(fix_at<facts::CheckName>(d, 0)->host == "nosuch.invalid");
    CHECK_FALSE(fix_at<facts::CheckName>(d, 0)->meant);
}

TEST_CASE("an unresolved near-miss of localhost asks 'did you mean'", "[diagnose]") {
    auto t = *parse_target("locahost:20401");
    auto d = diagnose_unresolved(t, Error{ErrorKind::resolve, "cannot resolve 'locahost'"});
    CHECK(d.exit_code == exit_code::unresolved);
    REQUIRE(d.fixes.size() == 1);
    REQUIRE(fix_at<facts::CheckName>(d, 0));
    CHECK(fix_at<facts::CheckName>(d, 0)->host == "locahost");
    CHECK(fix_at<facts::CheckName>(d, 0)->meant == "localhost");
}

TEST_CASE("retry steps", "[diagnose]") {
    CHECK(fits_retry_steps(2030ms, 500ms) == 4);
    CHECK(fits_retry_steps(1020ms, 1s) == 1);
    CHECK(fits_retry_steps(520ms, 500ms) == 1);
    CHECK_FALSE(fits_retry_steps(1770ms, 500ms));
    CHECK_FALSE(fits_retry_steps(20ms, 500ms));
    CHECK_FALSE(fits_retry_steps(2s, 0ms));
    CHECK(syn_retry_step(Os::windows) == 500ms);
    CHECK(syn_retry_step(Os::linux_) == 1s);
}

TEST_CASE("exit codes combine by documented precedence", "[diagnose]") {
    using namespace exit_code;
    CHECK(combine(healthy, server_down) == server_down);
    CHECK(combine(server_down, slow) == slow);
    CHECK(combine(slow, partial) == partial);
    CHECK(combine(partial, not_refused) == not_refused);
    CHECK(combine(not_refused, unresolved) == unresolved);
    CHECK(combine(slow, unresolved) == unresolved);
    CHECK(combine(unresolved, usage) == usage);
    CHECK(combine(internal, usage) == internal);
    CHECK(combine(interrupted, internal) == interrupted);
    CHECK(combine(healthy, healthy) == healthy);
}

TEST_CASE("interrupted addresses carry no finding", "[diagnose]") {
    auto cut = observe(ipv6_loopback(80), Outcome::timeout, 300ms);
    cut.summary.interrupted = true;
    auto r = diagnose_scenario("localhost:80",
                               {cut, observe(make_ipv4(127, 0, 0, 1, 80), Outcome::accepted, 50us)},
                               Os::linux_);
    CHECK_FALSE(find(r.d, finding_id::no_answer));
    CHECK(r.d.exit_code == exit_code::healthy);

    auto all = diagnose_scenario("localhost:80", {cut}, Os::linux_);
    CHECK(all.d.exit_code == exit_code::interrupted);
    CHECK(all.d.verdict.form == VerdictForm::incomplete);
    CHECK(all.d.verdict.facts.input == "localhost:80");
    CHECK(all.d.findings.empty());
}

TEST_CASE("listeners: the single-stack finding and the fix name the process", "[diagnose]") {
    auto r = diagnose_scenario(
        "http://localhost:11434/v1",
        {observe(ipv6_loopback(11434), Outcome::refused, 2030ms, 700us),
         observe(make_ipv4(127, 0, 0, 1, 11434), Outcome::accepted, 200us, 200us)},
        Os::windows, 5s, false,
        std::vector{listening(make_ipv4(127, 0, 0, 1, 11434), 4242, "ollama.exe")});
    const auto& single = facts_of<facts::SingleStack>(find(r.d, finding_id::single_stack_listener));
    REQUIRE(single.listeners.size() == 1);
    CHECK(single.listeners[0].pid == 4242u);
    CHECK(single.served == Family::ipv4);
    CHECK(single.first == ipv6_loopback(11434)); // the other family first
    CHECK(single.host == "localhost");
    REQUIRE(r.d.fixes.size() >= 2);
    const auto* connect = fix_at<facts::ConnectInstead>(r.d, 0);
    REQUIRE(connect);
    CHECK(connect->rewritten == "http://127.0.0.1:11434/v1");
    CHECK(connect->input == "http://localhost:11434/v1");
    REQUIRE(connect->server);
    CHECK(connect->server->pid == 4242u);
    const auto* both = fix_at<facts::BothFamilies>(r.d, 1);
    REQUIRE(both);
    REQUIRE(both->server);
    CHECK(both->server->process.escaped() == "ollama.exe");
    // Listener data changes words, not verdicts: PARTIAL, as Node.js 17 to
    // 19 tries ::1 only and fails.
    CHECK(r.d.exit_code == exit_code::partial);
    CHECK(r.d.verdict.form == VerdictForm::slow_fallback);
    CHECK(r.d.verdict.some_fail);
}

TEST_CASE("listeners: IPv4 first, the other family named", "[diagnose]") {
    auto r = diagnose_scenario("localhost:8000",
                               {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 50us),
                                observe(ipv6_loopback(8000), Outcome::refused, 20us)},
                               Os::linux_, 5s, false,
                               std::vector{listening(make_ipv4(0, 0, 0, 0, 8000), 12, "uvicorn")});
    const auto& single = facts_of<facts::SingleStack>(find(r.d, finding_id::single_stack_listener));
    REQUIRE(single.listeners.size() == 1);
    CHECK(single.listeners[0].pid == 12u);
    CHECK(single.first == make_ipv4(127, 0, 0, 1, 8000)); // the family served first
    CHECK(single.others == std::vector<Address>{ipv6_loopback(8000)});
    const auto& healthy = facts_of<facts::Healthy>(find(r.d, finding_id::healthy));
    REQUIRE(healthy.server);
    CHECK(healthy.server->pid == 12u);
    CHECK(healthy.winner == make_ipv4(127, 0, 0, 1, 8000));
}

TEST_CASE("listeners: a server on ::1 only, localhost resolving to 127.0.0.1 only", "[diagnose]") {
    auto r = diagnose_scenario(
        "localhost:3000", {observe(make_ipv4(127, 0, 0, 1, 3000), Outcome::refused, 30us)},
        Os::linux_, 5s, false, std::vector{listening(ipv6_loopback(3000), 77, "node", true)});
    CHECK(r.d.exit_code == exit_code::server_down);
    auto* elsewhere = find(r.d, finding_id::listener_elsewhere);
    REQUIRE(elsewhere);
    CHECK(elsewhere->severity == Severity::error);
    const auto& where = facts_of<facts::ListenerElsewhere>(elsewhere);
    REQUIRE(where.listeners.size() == 1);
    CHECK(where.listeners[0].pid == 77u);
    CHECK(where.input == "localhost:3000");
    CHECK_FALSE(where.literal);
    CHECK(where.tried == std::vector<Address>{make_ipv4(127, 0, 0, 1, 3000)});
    CHECK_FALSE(where.v6only_wildcard);
    CHECK(endpoint_string(*elsewhere->address) == "[::1]:3000");
    REQUIRE(r.d.rewritten);
    CHECK(*r.d.rewritten == "[::1]:3000");
    REQUIRE(r.d.fixes.size() == 2);
    const auto* connect = fix_at<facts::ConnectInstead>(r.d, 0);
    REQUIRE(connect);
    CHECK(connect->rewritten == "[::1]:3000");
    CHECK(connect->input == "localhost:3000");
    REQUIRE(connect->server);
    CHECK(connect->server->pid == 77u);
    const auto* listen = fix_at<facts::ListenOnTried>(r.d, 1);
    REQUIRE(listen);
    CHECK(listen->server.process.escaped() == "node");
    CHECK(listen->tried == std::vector<Address>{make_ipv4(127, 0, 0, 1, 3000)});
    CHECK_FALSE(facts_of<facts::ServerDown>(find(r.d, finding_id::server_down)).nothing_listens);
}

TEST_CASE("listeners: [::] with IPV6_V6ONLY on refuses IPv4", "[diagnose]") {
    auto r = diagnose_scenario(
        "127.0.0.1:8080", {observe(make_ipv4(127, 0, 0, 1, 8080), Outcome::refused, 25us)},
        Os::linux_, 5s, false, std::vector{listening(wildcard6(8080), std::nullopt, "", true)});
    auto* elsewhere = find(r.d, finding_id::listener_elsewhere);
    REQUIRE(elsewhere);
    const auto& where = facts_of<facts::ListenerElsewhere>(elsewhere);
    REQUIRE(where.listeners.size() == 1);
    CHECK_FALSE(where.listeners[0].pid);
    CHECK(where.listeners[0].v6only == true);
    CHECK(where.literal);
    CHECK(where.tried == std::vector<Address>{make_ipv4(127, 0, 0, 1, 8080)});
    CHECK(where.v6only_wildcard);
    CHECK(*r.d.rewritten == "[::1]:8080");
    REQUIRE(fix_at<facts::ListenOnTried>(r.d, 1));
    CHECK(fix_at<facts::ListenOnTried>(r.d, 1)->server.process.empty());
}

TEST_CASE("listeners: nothing listens on the port", "[diagnose]") {
    std::vector<Observation> obs{observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 25us)};
    // A listener on another port is no listener on this one.
    auto r = diagnose_scenario("127.0.0.1:9", obs, Os::linux_, 5s, false,
                               std::vector{listening(make_ipv4(127, 0, 0, 1, 10), 5, "x")});
    auto* down = find(r.d, finding_id::server_down);
    REQUIRE(down);
    CHECK(facts_of<facts::ServerDown>(down).nothing_listens);
    CHECK(facts_of<facts::ServerDown>(down).port == 9);
    CHECK_FALSE(find(r.d, finding_id::listener_elsewhere));
    REQUIRE(fix_at<facts::StartServer>(r.d, 0));
    CHECK(fix_at<facts::StartServer>(r.d, 0)->port == 9);

    // Without a table nothing is claimed about listeners.
    auto unknown = diagnose_scenario("127.0.0.1:9", obs, Os::linux_);
    CHECK_FALSE(
        facts_of<facts::ServerDown>(find(unknown.d, finding_id::server_down)).nothing_listens);

    // A closed port expected to refuse: a listener elsewhere is only noted.
    auto expected = diagnose_scenario("127.0.0.1:9", obs, Os::linux_, 5s, true,
                                      std::vector{listening(ipv6_loopback(9), 5, "x")});
    CHECK(expected.d.exit_code == exit_code::healthy);
    REQUIRE(find(expected.d, finding_id::listener_elsewhere));
    CHECK(find(expected.d, finding_id::listener_elsewhere)->severity == Severity::info);
}

TEST_CASE("listeners: a timeout at a listening address is a full queue", "[diagnose]") {
    auto r = diagnose_scenario(
        "127.0.0.1:80", {observe(make_ipv4(127, 0, 0, 1, 80), Outcome::timeout, 5s)}, Os::linux_,
        5s, false, std::vector{listening(make_ipv4(127, 0, 0, 1, 80), 300, "gunicorn")});
    auto* no_answer = find(r.d, finding_id::no_answer);
    REQUIRE(no_answer);
    const auto& queue = facts_of<facts::NoAnswer>(no_answer);
    REQUIRE(queue.listener);
    CHECK(queue.listener->pid == 300u);
    CHECK_FALSE(find(r.d, finding_id::listener_elsewhere)); // it is right there
    CHECK_FALSE(has_fix<facts::StartServer>(r.d));
}

TEST_CASE("listeners: Windows [::] with V6ONLY unknown, IPv4 refused", "[diagnose]") {
    // The refusal shows the [::] socket takes no IPv4, whatever its flag.
    auto r = diagnose_scenario(
        "127.0.0.1:5000", {observe(make_ipv4(127, 0, 0, 1, 5000), Outcome::refused, 2030ms)},
        Os::windows, 5s, false, std::vector{listening(wildcard6(5000), 900, "node.exe")});
    auto* elsewhere = find(r.d, finding_id::listener_elsewhere);
    REQUIRE(elsewhere);
    const auto& where = facts_of<facts::ListenerElsewhere>(elsewhere);
    REQUIRE(where.listeners.size() == 1);
    CHECK(where.listeners[0].pid == 900u);
    CHECK(where.listeners[0].bound == wildcard6(5000));
    CHECK(*r.d.rewritten == "[::1]:5000");
    CHECK(r.d.exit_code == exit_code::slow); // the 2 s refusal is still the headline
}

// --- issue 13: wording that follows the measurement ---------------------

TEST_CASE("lab, IPv6-only server behind a slow refusal of 127.0.0.1: named a refusal, Java's "
          "fix given",
          "[diagnose]") {
    // gai.conf puts 127.0.0.1 first; its RST is dropped once (1.02 s); the
    // server listens on ::1 only.
    auto r = diagnose_scenario(
        "localhost:8000",
        {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 1020ms, std::nullopt, 1),
         observe(ipv6_loopback(8000), Outcome::accepted, 100us)},
        Os::linux_);
    CHECK(r.d.exit_code == exit_code::partial);            // the Java rows fail
    CHECK(r.d.verdict.form == VerdictForm::slow_fallback); // in-order clients pay it
    CHECK(has_setting(r.d, Which::java_prefer_ipv6));
    // Every Java row fails here, before and after JDK 16's Windows change.
    const auto failing = std::find_if(r.d.fixes.begin(), r.d.fixes.end(), [](const auto& f) {
        return std::holds_alternative<facts::ConnectFailingClients>(f);
    });
    REQUIRE(failing != r.d.fixes.end());
    const auto& never = std::get<facts::ConnectFailingClients>(*failing);
    CHECK(never.accepts == ipv6_loopback(8000));
    for (const auto* java : {"Java java.net.Socket < 16", "Java java.net.Socket >= 16",
                             "Java HttpClient 11 to 15", "Java HttpClient >= 16"})
        CHECK(std::find(never.clients.begin(), never.clients.end(), java) != never.clients.end());
    CHECK(has_setting(r.d, Which::curl_ipv6));
    CHECK_FALSE(has_fix<facts::ClosedPortTest>(r.d));
    CHECK_FALSE(has_setting(r.d, Which::curl_ipv4));
}

TEST_CASE("IPv6-only server, ::1 first: the slow refusal no in-order client reaches is called a "
          "refusal",
          "[diagnose]") {
    auto r = diagnose_scenario(
        "localhost:8000",
        {observe(ipv6_loopback(8000), Outcome::accepted, 100us),
         observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 1020ms, std::nullopt, 1)},
        Os::linux_);
    CHECK(r.d.exit_code == exit_code::partial); // the Java rows fail
    CHECK(r.d.verdict.form == VerdictForm::slow_refusal);
    CHECK(r.d.verdict.facts.slow_refused == make_ipv4(127, 0, 0, 1, 8000));
    CHECK(r.d.verdict.facts.slow_refused_time == 1020ms);
    // Java tries 127.0.0.1 only and fails: it is named, with its setting.
    const auto* never = fix_at<facts::ConnectFailingClients>(r.d, 0);
    REQUIRE(never);
    CHECK(never->accepts == ipv6_loopback(8000));
    CHECK(names(never->clients, "Java java.net.Socket"));
    CHECK(has_setting(r.d, Which::java_prefer_ipv6));
}

TEST_CASE("advice that holds on Windows only is not given as such elsewhere", "[diagnose]") {
    // The same slow fallback on Linux (dropped RST) and on Windows.
    const std::vector<Observation> obs{
        observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
        observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 60us)};
    auto linux_run = diagnose_scenario("localhost:8000", obs, Os::linux_);
    for (const auto& f : linux_run.d.fixes) {
        if (const auto* wait = std::get_if<facts::NoWaitClient>(&f))
            CHECK_FALSE(wait->windows);
        if (const auto* test = std::get_if<facts::ClosedPortTest>(&f))
            CHECK_FALSE(test->windows);
    }
    CHECK(has_fix<facts::NoWaitClient>(linux_run.d));
    // The client-specific fixes for an IPv4-only server: who pays here.
    CHECK(has_setting(linux_run.d, Which::node_ipv4_first));
    CHECK(has_setting(linux_run.d, Which::dotnet_no_ipv6));
    CHECK(has_setting(linux_run.d, Which::curl_ipv4));
    // Every row carries what Windows would charge for the same set-up.
    for (const auto& c : linux_run.d.clients)
        CHECK(c.windows.has_value());

    // Down, with slow refusals: SIO_TCP_INITIAL_RTO only on Windows.
    const std::vector<Observation> down{
        observe(ipv6_loopback(9), Outcome::refused, 1020ms, std::nullopt, 1),
        observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 1020ms, std::nullopt, 1)};
    const auto linux_down = diagnose_scenario("localhost:9", down, Os::linux_);
    REQUIRE(has_fix<facts::ClosedPortTest>(linux_down.d));
    CHECK_FALSE(
        fix_at<facts::ClosedPortTest>(linux_down.d, linux_down.d.fixes.size() - 1)->windows);
    const std::vector<Observation> down_win{
        observe(ipv6_loopback(9), Outcome::refused, 2030ms, 700us),
        observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 2030ms, 700us)};
    auto win = diagnose_scenario("localhost:9", down_win, Os::windows);
    REQUIRE(fix_at<facts::ClosedPortTest>(win.d, win.d.fixes.size() - 1));
    CHECK(fix_at<facts::ClosedPortTest>(win.d, win.d.fixes.size() - 1)->windows);
    for (const auto& c : win.d.clients)
        CHECK_FALSE(c.windows.has_value());
}

TEST_CASE("accept-queue-full: an accept that needed a SYN retransmission", "[diagnose]") {
    // -n 5 against a Python server with backlog 5: one round's accept took
    // 1.00 s with one SYN retransmission; the median stayed fast.
    Observation o =
        observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 17us, std::nullopt, 1);
    o.summary.latency.max = 1000ms;
    Run r{*parse_target("127.0.0.1:8000"), {o}, {}};
    DiagnosisInput in;
    in.target = &r.target;
    in.addresses = r.obs;
    in.os = Os::linux_;
    in.listen_overflows = ListenOverflows{40, 41};
    r.d = diagnose(in);
    auto* f = find(r.d, finding_id::accept_queue_full);
    REQUIRE(f);
    CHECK(f->severity == Severity::warning);
    const auto& full = facts_of<facts::AcceptQueueFull>(f);
    CHECK(full.evidence.kind == Kind::kernel_count);
    CHECK(full.evidence.retransmissions == 1);
    CHECK(full.worst == 1000ms);
    REQUIRE(full.counter);
    CHECK(full.counter->before == 40);
    CHECK(full.counter->after == 41);
    CHECK(r.d.exit_code == exit_code::slow);
    CHECK(r.d.verdict.form == VerdictForm::slow_accept_queue);

    // Without the kernel's count, a whole retry step in the worst round
    // is the evidence; a fast accept gives none.
    Observation step = observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 20us);
    step.summary.latency.max = 1010ms;
    auto r2 = diagnose_scenario("127.0.0.1:8000", {step}, Os::linux_);
    REQUIRE(find(r2.d, finding_id::accept_queue_full));
    const auto& step_facts =
        facts_of<facts::AcceptQueueFull>(find(r2.d, finding_id::accept_queue_full));
    CHECK(step_facts.evidence.kind == Kind::retry_steps);
    CHECK(step_facts.evidence.steps == 1);
    CHECK_FALSE(step_facts.counter);
    auto r3 = diagnose_scenario("127.0.0.1:8000",
                                {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 20us)},
                                Os::linux_);
    CHECK_FALSE(find(r3.d, finding_id::accept_queue_full));
}

// The contradictions issue #23 lists, each as the verdict now reads.

TEST_CASE("server on [::1] only, stock hosts file: PARTIAL, not DOWN", "[diagnose][verdict]") {
    Target t = *parse_target("localhost:18434");
    const std::vector<Observation> obs{
        observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::refused, 80us)};
    const std::vector<Observation> extra{observe(ipv6_loopback(18434), Outcome::accepted, 90us)};
    const std::vector<Listener> ls{listening(ipv6_loopback(18434), 77, "python3")};
    DiagnosisInput in;
    in.target = &t;
    in.addresses = obs;
    in.os = Os::linux_;
    in.curl_localhost = extra;
    in.listeners = std::span<const Listener>(ls);
    const auto d = diagnose(in);
    CHECK(d.exit_code == exit_code::partial);
    CHECK(d.verdict.form == VerdictForm::partial_no_winner);
    CHECK_FALSE(d.verdict.slow);
    CHECK(find(d, finding_id::listener_elsewhere));
    CHECK_FALSE(find(d, finding_id::server_down));
    const auto& fail = facts_of<facts::ClientsFail>(find(d, finding_id::clients_fail));
    CHECK(names(fail.clients, "Python requests"));
    CHECK_FALSE(fail.accepts); // only curl's own answer for localhost reaches it
}

TEST_CASE("PARTIAL without a winner names the slow refusal in its first line",
          "[diagnose][verdict]") {
    // The stock hosts file (127.0.0.1 only), the server on [::1] only, and
    // 127.0.0.1's refusal slow (RSTs dropped): every client that asks the
    // resolver waits 1.02 s and then fails. The line leads with that cost.
    Target t = *parse_target("localhost:18434");
    const std::vector<Observation> obs{
        observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::refused, 1020ms, std::nullopt, 1)};
    const std::vector<Observation> extra{observe(ipv6_loopback(18434), Outcome::accepted, 90us)};
    DiagnosisInput in;
    in.target = &t;
    in.addresses = obs;
    in.os = Os::linux_;
    in.curl_localhost = extra;
    const auto d = diagnose(in);
    CHECK(d.exit_code == exit_code::partial);
    CHECK(d.verdict.form == VerdictForm::partial_no_winner);
    CHECK(d.verdict.slow);
    CHECK(d.verdict.facts.slow_refused == make_ipv4(127, 0, 0, 1, 18434));
    CHECK(d.verdict.facts.slow_refused_time == 1020ms);
}

TEST_CASE("server on [::1] only, ::1 first: PARTIAL, the clients that never try it named",
          "[diagnose][verdict]") {
    auto r = diagnose_scenario("localhost:18434",
                               {observe(ipv6_loopback(18434), Outcome::accepted, 90us),
                                observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::refused, 80us)},
                               Os::linux_);
    CHECK(r.d.exit_code == exit_code::partial);
    const auto& fail = facts_of<facts::ClientsFail>(find(r.d, finding_id::clients_fail));
    CHECK(names(fail.clients, "Node.js < 12.19"));
    CHECK(names(fail.clients, "Java HttpClient"));
}

TEST_CASE("server on 127.0.0.1 only, ::1 first: the failing Node.js 17 to 19 row is a finding",
          "[diagnose][verdict]") {
    auto r = diagnose_scenario("localhost:18434",
                               {observe(ipv6_loopback(18434), Outcome::refused, 316us),
                                observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::accepted, 90us)},
                               Os::linux_);
    CHECK(r.d.exit_code == exit_code::partial);
    const auto& fail = facts_of<facts::ClientsFail>(find(r.d, finding_id::clients_fail));
    CHECK(names(fail.clients, "Node.js 17 to 19"));
}

TEST_CASE("every attempt timed out: DOWN, called timeouts, no accept-queue-full",
          "[diagnose][verdict]") {
    auto o = observe(make_ipv4(192, 0, 2, 123, 80), Outcome::timeout, 1s);
    o.summary.mixed = true; // one round was EHOSTUNREACH
    o.summary.latency.max = 1s;
    auto r = diagnose_scenario("192.0.2.123:80", {o}, Os::linux_, 1s);
    CHECK(r.d.exit_code == exit_code::server_down);
    CHECK(r.d.verdict.form == VerdictForm::down);
    CHECK(r.d.verdict.facts.addresses == 1);
    CHECK(r.d.verdict.facts.any_timeout);
    CHECK_FALSE(r.d.verdict.facts.any_refused);
    CHECK(r.d.verdict.facts.timeout == 1s);
    CHECK_FALSE(find(r.d, finding_id::accept_queue_full));
}

TEST_CASE("IPv6 off here: said so, and no advice to listen on ::1", "[diagnose][verdict]") {
    auto off = observe(ipv6_loopback(18434), Outcome::unreachable, 40us);
    off.summary.native_name = "EADDRNOTAVAIL";
    auto r = diagnose_scenario(
        "localhost:18434", {off, observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::accepted, 90us)},
        Os::linux_, 5s, false, std::vector{listening(make_ipv4(127, 0, 0, 1, 18434), 9, "node")});
    auto* f = find(r.d, finding_id::ipv6_off);
    REQUIRE(f);
    CHECK(facts_of<facts::Ipv6Off>(f).native_name == "EADDRNOTAVAIL");
    CHECK(facts_of<facts::Ipv6Off>(f).address == ipv6_loopback(18434));
    CHECK_FALSE(find(r.d, finding_id::single_stack_listener));
    // No fix sends a client to ::1 or asks a server to listen there.
    CHECK_FALSE(has_fix<facts::BothFamilies>(r.d));
    CHECK_FALSE(has_fix<facts::ServerOwn>(r.d));
    CHECK_FALSE(has_fix<facts::ConnectFailingClients>(r.d));
    CHECK_FALSE(has_setting(r.d, Which::curl_ipv6));
    CHECK_FALSE(has_setting(r.d, Which::java_prefer_ipv6));
}

TEST_CASE("expect refused: an accept fails it, a slow refusal fails it, a timeout fails it",
          "[diagnose][verdict]") {
    auto accepts = diagnose_scenario(
        "127.0.0.1:18434", {observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::accepted, 90us)},
        Os::linux_, 5s, true);
    CHECK(accepts.d.exit_code == exit_code::not_refused);
    CHECK(accepts.d.verdict.form == VerdictForm::unexpected);
    CHECK(accepts.d.verdict.facts.winner == make_ipv4(127, 0, 0, 1, 18434));
    CHECK(find(accepts.d, finding_id::not_refused));
    auto slow =
        diagnose_scenario("[::1]:18434", {observe(ipv6_loopback(18434), Outcome::refused, 2030ms)},
                          Os::windows, 5s, true);
    CHECK(slow.d.exit_code == exit_code::slow);
    auto timeout = diagnose_scenario(
        "127.0.0.1:18434", {observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::timeout, 1s)},
        Os::linux_, 1s, true);
    CHECK(timeout.d.exit_code == exit_code::server_down);
    CHECK(timeout.d.verdict.form == VerdictForm::down);
    CHECK(timeout.d.verdict.facts.any_timeout);
    auto fast = diagnose_scenario("127.0.0.1:18434",
                                  {observe(make_ipv4(127, 0, 0, 1, 18434), Outcome::refused, 80us)},
                                  Os::linux_, 5s, true);
    CHECK(fast.d.exit_code == exit_code::healthy);
    CHECK(fast.d.verdict.form == VerdictForm::ok_refused_as_expected);
}

TEST_CASE("without full client rows the findings, fixes and verdict are the same", "[diagnose]") {
    // run/measure asks for lean rows when the report keeps none (more than
    // three targets, text): the one line per target must read the same.
    const std::vector<std::pair<std::string, std::vector<Observation>>> cases{
        {"localhost:8000",
         {observe(ipv6_loopback(8000), Outcome::refused, 1020ms, std::nullopt, 1),
          observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, 100us)}},
        {"localhost:8000",
         {observe(make_ipv4(127, 0, 0, 1, 8000), Outcome::refused, 40us),
          observe(ipv6_loopback(8000), Outcome::accepted, 100us)}},
        {"127.0.0.1:9", {observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 30us)}},
        {"localhost:9",
         {observe(ipv6_loopback(9), Outcome::refused, 1020ms, std::nullopt, 1),
          observe(make_ipv4(127, 0, 0, 1, 9), Outcome::refused, 1019ms, std::nullopt, 1)}}};
    for (const auto& [input, obs] : cases) {
        for (const Os os : {Os::linux_, Os::windows}) {
            const Target target = *parse_target(input);
            DiagnosisInput in;
            in.target = &target;
            in.addresses = obs;
            in.os = os;
            const auto full = diagnose(in);
            in.full_client_rows = false;
            const auto lean = diagnose(in);
            INFO(input << " " << os_label(os));
            CHECK(lean.verdict == full.verdict);
            CHECK(lean.exit_code == full.exit_code);
            CHECK(lean.fixes == full.fixes);
            REQUIRE(lean.findings.size() == full.findings.size());
            for (std::size_t i = 0; i < full.findings.size(); ++i) {
                CHECK(lean.findings[i].id == full.findings[i].id);
                CHECK(lean.findings[i].facts == full.findings[i].facts);
                CHECK(lean.findings[i].covered_by == full.findings[i].covered_by);
            }
            CHECK(lean.clients_agree == full.clients_agree);
        }
    }
}
