// Every renderer on hostile process names, hosts-file lines and OS strings:
// no control or bidi byte reaches text, Markdown tables keep their columns
// and no name opens a link or a code span; JSON carries the name exactly.
#include "loopcheck/core/diagnose/audit.hpp"
#include "loopcheck/core/listeners/local_targets.hpp"
#include "loopcheck/core/measure/conclude.hpp"
#include "loopcheck/core/measure/staircase.hpp"
#include "loopcheck/core/text/text.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/core/windows/tcp_settings.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "report/json/writer.hpp"
#include "report/phrasing.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"
#include "support/untrusted_checks.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;

namespace {

struct Hostile {
    const char* what;
    std::string name;
};

std::vector<Hostile> hostile_names() {
    std::string long_name;
    while (long_name.size() < 4096)
        long_name += "\x1b]52;c;QUJD\a|](x)`\xe2\x80\xae";
    return {
        {"ESC, CSI and an OSC title", "\x1b[31mEV\a\x1b]0;x\x1b\\"},
        {"other C0 and DEL", std::string("a\0b\x01\x7f", 5)},
        {"tab, newline, return", "a\tb\nc\rd"},
        {"C1 controls (UTF-8 and a raw byte)", "\xc2\x9b"
                                               "31m\xc2\x85\x9b"
                                               "2J"},
        {"bidi override", "\xe2\x80\xae"
                          "exe.txt"},
        {"bidi isolates and marks", "\xe2\x81\xa6x\xe2\x81\xa9\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c"},
        {"invalid UTF-8", "\xff\xfe\xc0\xaf\xed\xa0\x80\xe2\x80"},
        {"Markdown syntax", "a|b](x)`c"},
        {"Markdown and HTML", "[l](http://x) ![i](y) <img src=x> *b* _i_ ~~s~~ &amp; # ```"},
        {"a table row", "| x | y |\n|---|---|"},
        {"backslashes", "\\x1b \\| \\"},
        {"a 4 KiB name", long_name},
    };
}

/// localhost:8000 as a check leaves it: ::1 refused slowly, 127.0.0.1
/// accepted by a listener named `name`, a hosts-file entry holding `name`,
/// a Windows TCP setting whose name is `name`; and a name that did not
/// resolve, with `name` in the resolver's message.
Report check_report(const std::string& name) {
    Report r;
    r.loopcheck_version = "0.1.0";
    r.command_line = "loopcheck localhost:8000";
    r.system.os = Os::linux_;
    r.system.os_name = "Linux";
    r.system.os_version = "6.1";
    r.system.hosts_file = "/etc/hosts";
    r.system.tcp_settings.emplace_back(
        "MaxSynRetransmissions", summarize_max_syn_retransmissions(std::vector<TcpSettingRow>{
                                     {name, 2, std::nullopt}, {"Internet", 4, std::nullopt}}));
    TargetReport t;
    t.target = *parse_target("localhost:8000");
    // ::1 refused after Windows' 2 s of SYN retries: the findings and the
    // fixes name the listener on 127.0.0.1.
    for (const auto& [a, o, latency] :
         {std::tuple{ipv6_loopback(8000), Outcome::refused, Micros{2'000'000}},
          std::tuple{make_ipv4(127, 0, 0, 1, 8000), Outcome::accepted, Micros{50}}}) {
        AddressReport ar;
        ar.address = a;
        Sample s;
        s.outcome = o;
        s.latency = latency;
        s.native_name = o == Outcome::refused ? "ECONNREFUSED" : "";
        ar.samples.push_back(s);
        t.addresses.push_back(ar);
    }
    Resolution res;
    res.hosts_file_readable = true;
    res.hosts_lines.push_back({3, "127.0.0.1 localhost " + name, Family::ipv4});
    t.resolution = res;
    r.targets.push_back(t);
    // An OS message that reached a report unescaped (the resolver's text
    // is escaped where it enters; this is the safety net's case).
    TargetReport unresolved;
    unresolved.target = *parse_target("db.internal:80");
    unresolved.resolve_error = Error{ErrorKind::resolve, "cannot resolve 'db.internal': " + name};
    r.targets.push_back(unresolved);

    ListenerTable table;
    Listener l;
    l.bound = make_ipv4(127, 0, 0, 1, 8000);
    l.pid = 4242;
    l.process = name;
    table.listeners.push_back(l);
    attach_listeners(r, table);
    for (auto& tr : r.targets)
        conclude_target(tr, {.threshold = Micros{100000},
                             .timeout = Micros{5000000},
                             .os = r.system.os,
                             .expect_refused = false,
                             .listen_overflows = std::nullopt});
    return r;
}

AuditReport audit_report(const std::string& name) {
    AuditReport a;
    a.check = check_report(name);
    AuditPort p;
    p.port = 8000;
    p.listeners = *a.check.targets[0].listeners;
    p.target = 0;
    a.ports.push_back(p);
    conclude_audit(a);
    return a;
}

StaircaseReport staircase_report(const std::string& name) {
    StaircaseReport s;
    s.system = check_report(name).system;
    s.target = "localhost:8000";
    return s;
}

std::size_t escapes_in(const std::string& s) {
    return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\x1b'));
}

} // namespace

TEST_CASE("every renderer neutralises hostile names", "[untrusted][report]") {
    const auto benign = check_report("srv");
    const auto benign_audit = audit_report("srv");
    for (const auto& h : hostile_names()) {
        INFO(h.what);
        const auto r = check_report(h.name);
        const auto a = audit_report(h.name);
        const auto shown = escape_text(h.name);
        REQUIRE(r.targets[0].listeners);

        // -v: everything, the hosts file's lines too (the default is one
        // screen without them).
        check_terminal_safe(render_text(r, TextStyle{}));
        const auto text = render_text(r, TextStyle{false, 100, true});
        check_terminal_safe(text);
        // A name wider than its column wraps inside it: whole when it fits.
        if (shown.size() < 40)
            CHECK(contains(text, shown + " (pid 4242)"));
        CHECK(contains(text, "(pid 4242)"));
        CHECK(contains(text, "/etc/hosts line 3: 127.0.0.1 localhost"));
        // With colour, the only escapes are loopcheck's own colour codes:
        // as many as for a harmless name.
        TextStyle color;
        color.color = true;
        CHECK(escapes_in(render_text(r, color)) == escapes_in(render_text(benign, color)));

        const auto audit_text = render_text(a, TextStyle{});
        check_terminal_safe(audit_text);
        // The name is in the table's process column, wrapped inside it:
        // whole once the column's breaks are taken out.
        const auto unwrapped = [](std::string t) {
            std::erase_if(t, [](char c) { return c == ' ' || c == '\n'; });
            return t;
        };
        CHECK(contains(unwrapped(audit_text), unwrapped(shown + " (pid 4242)")));
        CHECK(escapes_in(render_text(a, color)) == escapes_in(render_text(benign_audit, color)));

        check_terminal_safe(render_text(staircase_report(h.name)));

        const auto md = render_markdown(r);
        check_markdown(md);
        CHECK(contains(md, Untrusted(h.name).markdown(MarkdownPlace::table_cell)));
        const auto audit_md = render_markdown(a);
        check_markdown(audit_md);

        // JSON: the exact name, escaped by the JSON writer alone.
        const auto exact = "\"process\": " + JsonWriter::escape(h.name);
        for (const auto& json : {render_json(r), render_json(a)}) {
            check_terminal_safe(json);
            CHECK(contains(json, exact));
        }
        const auto hosts = "\"text\": " + JsonWriter::escape("127.0.0.1 localhost " + h.name);
        CHECK(contains(render_json(r), hosts));
        check_terminal_safe(render_json(staircase_report(h.name)));
    }
}

TEST_CASE("a finding and a fix name the process, escaped", "[untrusted][report]") {
    const auto r = check_report("a|b](x)`c\x1b");
    const auto& d = r.targets[0].diagnosis;
    const auto names = [](const std::string& s) { return contains(s, "a|b](x)`c\\x1b"); };
    CHECK(std::any_of(d.findings.begin(), d.findings.end(),
                      [&](const Finding& f) { return names(phrasing::finding(f)); }));
    CHECK(std::any_of(d.fixes.begin(), d.fixes.end(),
                      [&](const facts::Fix& f) { return names(phrasing::fix(f)); }));
    const auto md = render_markdown(r);
    CHECK(contains(md, "a\\|b\\](x)\\`c\\\\x1b (pid 4242)"));
}

TEST_CASE("the audit table pads by characters: a UTF-8 process name", "[untrusted][report]") {
    // "ollama-prévu-✓": 14 characters in 17 bytes.
    const std::string name = "ollama-pr\xc3\xa9vu-\xe2\x9c\x93";
    const auto all = split_lines(render_text(audit_report(name), TextStyle{}));
    const auto head = std::find_if(
        all.begin(), all.end(), [](const std::string& l) { return contains(l, "localhost:PORT"); });
    REQUIRE(head != all.end());
    REQUIRE(std::next(head) != all.end());
    const std::string& row = *std::next(head);
    const std::string owner = name + " (pid 4242)";
    const auto at = row.find(owner);
    REQUIRE(at != std::string::npos);
    // The owner is the widest process cell: the last column starts two
    // spaces after it, counted in characters, on the heading and the row.
    const auto last = columns(row.substr(0, at)) + columns(owner) + 2;
    CHECK(columns(head->substr(0, head->find("localhost:PORT"))) == last);
    CHECK(columns(row.substr(0, row.find_first_not_of(' ', at + owner.size()))) == last);
}
