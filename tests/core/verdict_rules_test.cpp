// The verdict rules (docs/diagnosis.md, "The verdict") checked over a few
// thousand generated observation sets: address orders, per-address outcomes
// and costs, listener tables, OS and --expect refused. The verdict line, its
// severity word, the exit code, the findings and every client row must never
// contradict each other. Each rule counts its violations and prints the first
// case that broke it, so a failure says which rule and on what.
#include "loopcheck/core/diagnose/diagnose.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;
using namespace std::chrono_literals;

namespace {

constexpr std::uint16_t port = 18080;
constexpr Micros threshold = 100ms;

/// One generated world: where a server listens, how this machine answers
/// an address nothing listens on, and what the resolver says.
struct World {
    std::string input;
    bool v4_listens = false, v6_listens = false;
    bool ipv6_off = false; ///< ::1 is not configured: EADDRNOTAVAIL
    bool drops = false;    ///< a firewall drops SYNs: timeouts, not refusals
    Micros refusal{100us}, accept{200us};
    Os os = Os::linux_;
    Micros timeout = 5s;
    bool expect_refused = false;
    bool listener_table = false;
    std::vector<Observation> obs, curl_extra;
    std::vector<Listener> listeners;
    std::string describe() const {
        std::ostringstream s;
        s << input << " os=" << os_label(os) << " timeout=" << format_duration(timeout)
          << " listens v4=" << v4_listens << " v6=" << v6_listens << " ipv6_off=" << ipv6_off
          << " drops=" << drops << " expect_refused=" << expect_refused
          << " listeners=" << listener_table << " |";
        for (const auto& o : obs)
            s << ' ' << endpoint_string(o.address) << ' ' << outcome_name(o.summary.outcome) << ' '
              << format_duration(o.summary.latency.median) << (o.summary.mixed ? " mixed" : "");
        for (const auto& o : curl_extra)
            s << " (curl: " << endpoint_string(o.address) << ' ' << outcome_name(o.summary.outcome)
              << ')';
        return s.str();
    }
};

Observation answer(const World& w, Address a, std::mt19937& rng) {
    const bool v6 = a.family == Family::ipv6;
    const bool loopback = is_loopback(a);
    if (loopback && (v6 ? w.v6_listens : w.v4_listens))
        return observe(a, Outcome::accepted, w.accept);
    if (v6 && w.ipv6_off) {
        auto o = observe(a, Outcome::unreachable, 40us);
        o.summary.native_name = "EADDRNOTAVAIL";
        return o;
    }
    if (w.drops || !loopback) {
        auto o = observe(a, Outcome::timeout, w.timeout);
        // 192.0.2.123 -n 6: most rounds time out, one is EHOSTUNREACH.
        o.summary.mixed = std::bernoulli_distribution(0.5)(rng);
        return o;
    }
    const bool probe_fast = std::bernoulli_distribution(0.3)(rng);
    return observe(a, Outcome::refused, w.refusal,
                   probe_fast ? std::optional<Micros>(150us) : std::nullopt);
}

World generate(std::mt19937& rng) {
    auto pick = [&](auto... xs) {
        std::vector<std::common_type_t<decltype(xs)...>> v{xs...};
        return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
    };
    auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
    World w;
    w.os = pick(Os::linux_, Os::windows, Os::macos);
    w.timeout = pick(1s, 5s);
    w.ipv6_off = w.os == Os::linux_ && chance(0.15);
    const int server = std::uniform_int_distribution<int>(0, 3)(rng);
    w.v4_listens = server == 1 || server == 3;
    w.v6_listens = (server == 2 || server == 3) && !w.ipv6_off;
    w.drops = chance(0.1);
    w.refusal = pick(Micros{80us}, Micros{300us}, Micros{1s}, Micros{2030ms}, Micros{3s});
    if (w.refusal > w.timeout)
        w.refusal = Micros{80us};
    w.accept = pick(Micros{150us}, Micros{150us}, Micros{250ms}, Micros{1004ms});
    w.expect_refused = chance(0.2);
    const Address v4 = make_ipv4(127, 0, 0, 1, port), v6 = ipv6_loopback(port);
    std::vector<Address> order;
    switch (std::uniform_int_distribution<int>(0, 6)(rng)) {
    case 0:
        w.input = "localhost:18080", order = {v4};
        break;
    case 1:
        w.input = "localhost:18080", order = {v6, v4};
        break;
    case 2:
        w.input = "localhost:18080", order = {v4, v6};
        break;
    case 3:
        w.input = "localhost:18080", order = {v6};
        break;
    case 4:
        w.input = "127.0.0.1:18080", order = {v4};
        break;
    case 5:
        w.input = "[::1]:18080", order = {v6};
        break;
    default:
        w.input = "192.0.2.123:18080", order = {make_ipv4(192, 0, 2, 123, port)};
        break;
    }
    for (Address a : order)
        w.obs.push_back(answer(w, a, rng));
    if (w.input.rfind("localhost", 0) == 0)
        for (Address a : {v4, v6})
            if (std::find(order.begin(), order.end(), a) == order.end())
                w.curl_extra.push_back(answer(w, a, rng));
    w.listener_table = chance(0.5);
    if (w.listener_table) {
        auto add = [&](Address a) {
            Listener l;
            l.bound = a;
            l.pid = 4242;
            l.process = std::string("python3");
            w.listeners.push_back(l);
        };
        if (w.v4_listens)
            add(v4);
        if (w.v6_listens)
            add(v6);
    }
    return w;
}

struct Checked {
    World world;
    Target target;
    Diagnosis d;
};

Checked run(World w) {
    Checked c{std::move(w), *parse_target("localhost:1"), {}};
    c.target = *parse_target(c.world.input);
    DiagnosisInput in;
    in.target = &c.target;
    in.addresses = c.world.obs;
    in.threshold = threshold;
    in.timeout = c.world.timeout;
    in.os = c.world.os;
    in.expect_refused = c.world.expect_refused;
    in.curl_localhost = c.world.curl_extra;
    if (c.world.listener_table)
        in.listeners = std::span<const Listener>(c.world.listeners);
    c.d = diagnose(in);
    return c;
}

/// The verdict as a line for a failure's detail: its word and form.
std::string shown(const Diagnosis& d) {
    return std::string(d.verdict.word) + " (form " +
           std::to_string(static_cast<int>(d.verdict.form)) + ")";
}

/// Every client row a finding or a fix names: the rows clients-fail and
/// clients-slow list, and the rows a fix sends to the address that accepts.
std::vector<std::string> named_rows(const Diagnosis& d) {
    std::vector<std::string> rows;
    for (const auto& f : d.findings) {
        if (const auto* fail = std::get_if<facts::ClientsFail>(&f.facts))
            rows.insert(rows.end(), fail->clients.begin(), fail->clients.end());
        if (const auto* slow = std::get_if<facts::ClientsSlow>(&f.facts))
            for (const auto& c : slow->clients)
                rows.push_back(c.client);
    }
    for (const auto& f : d.fixes)
        if (const auto* never = std::get_if<facts::ConnectFailingClients>(&f))
            rows.insert(rows.end(), never->clients.begin(), never->clients.end());
    return rows;
}

/// Whether a fix asks a server to listen on ::1 (or on both families).
bool asks_to_listen_on_ipv6(const Diagnosis& d) {
    return std::any_of(d.fixes.begin(), d.fixes.end(), [](const facts::Fix& f) {
        if (std::holds_alternative<facts::BothFamilies>(f))
            return true;
        const auto* tried = std::get_if<facts::ListenOnTried>(&f);
        return tried && std::any_of(tried->tried.begin(), tried->tried.end(),
                                    [](const Address& a) { return a.family == Family::ipv6; });
    });
}

/// The verdict forms whose line names a refusal.
bool names_a_refusal(const facts::Verdict& v) {
    using facts::VerdictForm;
    switch (v.form) {
    case VerdictForm::slow_refusal:
    case VerdictForm::slow_nothing_accepts:
    case VerdictForm::ok_refused_as_expected:
        return true;
    case VerdictForm::partial_no_winner:
        return v.slow && v.facts.slow_refused.has_value();
    default:
        return false;
    }
}

/// The rules, each a name and a test that returns "" when it holds, else
/// what broke it.
std::vector<std::pair<std::string, std::string>> violations(const Checked& c) {
    const auto& d = c.d;
    const auto& obs = c.world.obs;
    std::vector<std::pair<std::string, std::string>> out;
    auto rule = [&](std::string name, bool holds, std::string detail = {}) {
        if (!holds)
            out.emplace_back(std::move(name), std::move(detail));
    };
    auto any = [&](Outcome o) {
        return std::any_of(obs.begin(), obs.end(),
                           [&](const Observation& x) { return x.summary.outcome == o; });
    };
    auto has = [&](std::string_view id) {
        return std::any_of(d.findings.begin(), d.findings.end(),
                           [&](const Finding& f) { return f.id == id; });
    };
    const bool accepts = any(Outcome::accepted);
    // curl answers localhost itself: an address only it tries may accept.
    const bool curl_accepts =
        std::any_of(c.world.curl_extra.begin(), c.world.curl_extra.end(),
                    [](const Observation& x) { return x.summary.outcome == Outcome::accepted; });
    const bool refused = any(Outcome::refused);
    const std::string w(d.verdict.word);
    const std::map<std::string, int> codes{{"OK", exit_code::healthy},
                                           {"SLOW", exit_code::slow},
                                           {"DOWN", exit_code::server_down},
                                           {"PARTIAL", 6},
                                           {"UNEXPECTED", 7}};
    const auto code = codes.find(w);
    rule("the verdict word is one of the documented ones and its exit code matches",
         code != codes.end() && code->second == d.exit_code,
         shown(d) + " exit " + std::to_string(d.exit_code));
    rule("the verdict's exit code is the diagnosis's", d.verdict.exit_code == d.exit_code,
         shown(d));
    rule("a target where some address accepts is never DOWN",
         !(accepts || curl_accepts) || (w != "DOWN" && d.exit_code != exit_code::server_down),
         shown(d));
    rule("a verdict names a refusal only where something was refused",
         refused || !names_a_refusal(d.verdict), shown(d));
    rule("accept-queue-full only after an accept", !has(finding_id::accept_queue_full) || accepts,
         shown(d));
    // What the one-screen report leaves to -v because another line says it
    // (the covers relation).
    for (const auto& f : d.findings) {
        if (f.covered_by == CoveredBy::verdict)
            rule("a finding the verdict covers is one it words in full",
                 (f.id == finding_id::fallback_penalty &&
                  d.verdict.form == facts::VerdictForm::slow_fallback) ||
                     f.id == finding_id::unresolved,
                 f.id + " / " + shown(d));
        if (f.covered_by == CoveredBy::finding)
            rule("a finding another finding covers names one the diagnosis holds",
                 !f.covering.empty() && has(f.covering), f.id + " / " + f.covering);
        if (f.covered_by == CoveredBy::client_fold)
            rule("the client fold covers only findings about client rows, when there are rows",
                 (f.id == finding_id::clients_fail || f.id == finding_id::clients_slow) &&
                     !d.clients.empty(),
                 f.id);
    }
    if (d.verdict.form == facts::VerdictForm::slow_fallback)
        rule("a verdict that words the fallback penalty covers its finding",
             std::any_of(d.findings.begin(), d.findings.end(),
                         [](const Finding& f) {
                             return f.id == finding_id::fallback_penalty &&
                                    f.covered_by == CoveredBy::verdict;
                         }),
             shown(d));
    const bool all_refused_fast =
        !obs.empty() && std::all_of(obs.begin(), obs.end(), [](const Observation& o) {
            return o.summary.outcome == Outcome::refused && o.summary.latency.median <= threshold;
        });
    if (c.world.expect_refused)
        rule("--expect refused passes exactly when every address refuses fast",
             (d.exit_code == exit_code::healthy) == (all_refused_fast && !curl_accepts), shown(d));
    // Every client row that fails or waits here is covered by a finding or a
    // fix that names it (when nothing accepts, the server-down finding is
    // the cover for every row).
    const auto named = named_rows(d);
    if ((accepts || curl_accepts) && !c.world.expect_refused) {
        for (const auto& row : d.clients) {
            const bool pays = !row.prediction.connected || row.prediction.time > threshold;
            if (pays)
                rule("every client row that fails or is slow here is named by a finding or fix",
                     std::find(named.begin(), named.end(), row.client) != named.end(),
                     row.client + " / " + shown(d));
        }
        const bool some_row_pays =
            std::any_of(d.clients.begin(), d.clients.end(), [](const ClientImpact& r) {
                return !r.prediction.connected || r.prediction.time > threshold;
            });
        rule("OK only when no client row fails or is slow here", !(w == "OK" && some_row_pays),
             shown(d));
    }
    if (!accepts && !curl_accepts && !c.world.expect_refused)
        rule("nothing accepts: a server-down finding covers the failing rows",
             has(finding_id::server_down), shown(d));
    const bool ipv6_off = std::any_of(obs.begin(), obs.end(), [](const Observation& o) {
        return o.address.family == Family::ipv6 && o.summary.outcome == Outcome::unreachable;
    });
    if (ipv6_off) {
        rule("IPv6 off is said by the ipv6-off finding", has(finding_id::ipv6_off), shown(d));
        rule("IPv6 off: no advice to listen on ::1", !asks_to_listen_on_ipv6(d), shown(d));
    }
    // The Windows projection of localhost: Windows answers ::1 then
    // 127.0.0.1 itself, and a refusal costs 2 s there in place of here.
    if (c.world.os != Os::windows && c.target.host == "localhost" && !d.clients.empty()) {
        const auto& python = d.clients.front();
        const Micros waited = python.windows ? python.windows->time - c.world.accept : Micros{0};
        if (python.windows && c.world.v4_listens && !c.world.v6_listens && !c.world.drops)
            rule("on Windows, localhost with a 127.0.0.1-only server costs python 2 s more "
                 "than the accept (in place of this machine's refusal cost)",
                 python.windows->connected && waited == windows_refusal_retries,
                 format_duration(python.windows->time));
    }
    return out;
}

} // namespace

TEST_CASE("generated observation sets never contradict the verdict rules", "[verdict-rules]") {
    std::mt19937 rng(20261201);
    std::map<std::string, std::pair<int, std::string>> broken; // rule -> count, first case
    constexpr int cases = 4000;
    for (int i = 0; i < cases; ++i) {
        auto c = run(generate(rng));
        for (auto& [rule, detail] : violations(c)) {
            auto& [count, example] = broken[rule];
            if (count++ == 0)
                example = c.world.describe() + "\n      -> " + detail;
        }
    }
    for (const auto& [rule, v] : broken)
        std::cout << "BROKEN (" << v.first << " of " << cases << "): " << rule << "\n  e.g. "
                  << v.second << "\n";
    CHECK(broken.empty());
}
