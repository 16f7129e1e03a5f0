// loopcheck trace's renderers over analysed TraceRun values: the text
// report's one screen at 80x24 with the verdict first, the refused [::1]
// connects, the Windows cost and the fix; -v's connect table; Markdown's
// escaping of the command; the JSON's fields.
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "support/catch.hpp"

#include <sstream>

using namespace loopcheck;
using namespace std::chrono_literals;

namespace {

TraceConnect at(double ms, int tid, Address to, TraceOutcome o) {
    TraceConnect c;
    c.start_ms = ms;
    c.duration_ms = 0.08;
    c.pid = 4242;
    c.tid = tid;
    c.destination = to;
    c.outcome = o;
    c.error = o == TraceOutcome::refused ? 111 : 0;
    c.program_errno = c.error;
    return c;
}

/// python3 app.py under --windows-order against a 127.0.0.1-only server,
/// plus a node process whose connects cost nothing on Windows.
TraceReport done_when() {
    TraceRun run;
    run.mode = TraceMode::seccomp_ptrace;
    run.mode_reason = "seccomp filter and ptrace allowed";
    run.windows_order = true;
    run.command = {"python3", "app.py", "--items", "25"};
    run.processes = {{4242, 1, "/usr/bin/python3.11", {"python3", "app.py"}, "", ""},
                     {4300, 4242, "/usr/bin/node", {"node", "x.js"}, "node", "20.20.2"}};
    for (int i = 0; i < 25; ++i) {
        run.connects.push_back(at(40.0 * i, 4242, ipv6_loopback(8000), TraceOutcome::refused));
        run.connects.push_back(
            at(40.0 * i + 0.3, 4242, make_ipv4(127, 0, 0, 1, 8000), TraceOutcome::accepted));
    }
    auto n = at(1100, 4300, make_ipv4(127, 0, 0, 1, 5432), TraceOutcome::accepted);
    n.pid = 4300;
    run.connects.push_back(n);
    run.wall_ms = 1234.5;
    run.io_uring_setups = 1;
    return analyze_trace(run, 100ms);
}

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

} // namespace

TEST_CASE("trace text: one screen at 80x24, the verdict first", "[trace]") {
    const auto r = done_when();
    const auto text = render_text(r, TextStyle{false, 80, false, false});
    const auto lines = lines_of(text);
    INFO(text);
    CHECK(lines.size() <= 24);
    for (const auto& l : lines)
        CHECK(l.size() <= 80);
    CHECK(lines.front() ==
          "SLOW ON WINDOWS: up to 50.00 s lost by 25 connections to localhost:8000");
    CHECK(text.find("refused  [::1]:8000, 25 times; each connection then fell back to") !=
          std::string::npos);
    CHECK(text.find("2.00 s") != std::string::npos);
    CHECK(text.find("50.00 s for the run") != std::string::npos);
    CHECK(text.find("Connect to 127.0.0.1:8000") != std::string::npos);
    CHECK(text.find("io_uring") != std::string::npos);
    CHECK(text.find("seccomp+ptrace") != std::string::npos);
    CHECK(lines.back() == "exit 1: on Windows the run would lose more than --threshold 100 ms");
    // Without -v no connect table.
    CHECK(text.find("every loopback connect") == std::string::npos);
}

TEST_CASE("trace text: -v lists every connect and every client row", "[trace]") {
    const auto r = done_when();
    const auto text = render_text(r, TextStyle{false, 100, true, false});
    CHECK(text.find("every loopback connect") != std::string::npos);
    CHECK(text.find("Python asyncio open_connection (no delay)") != std::string::npos);
    std::size_t refused = 0;
    for (auto at = text.find("refused"); at != std::string::npos; at = text.find("refused", at + 1))
        ++refused;
    CHECK(refused >= 25);
}

TEST_CASE("trace markdown and json: the same facts, the command neutralised", "[trace]") {
    auto r = done_when();
    r.run.command = {"python3", "`x` | <b>"};
    const auto md = render_markdown(r);
    CHECK(md.find("**SLOW ON WINDOWS**") != std::string::npos);
    CHECK(md.find("<b>") == std::string::npos);
    CHECK(md.find("- **Fix**: Connect to 127.0.0.1:8000") != std::string::npos);
    const auto json = render_json(r);
    CHECK(json.find("\"schema\": \"loopcheck-trace/1\"") != std::string::npos);
    CHECK(json.find("\"exit_reason\": \"pays_on_windows\"") != std::string::npos);
    CHECK(json.find("\"refused_addresses\": [\n") != std::string::npos);
    CHECK(json.find("\"[::1]:8000\"") != std::string::npos);
    CHECK(json.find("\"connect_to\": \"127.0.0.1:8000\"") != std::string::npos);
}

TEST_CASE("trace text: a refused trace says why and nothing else", "[trace]") {
    TraceRun run;
    run.mode = TraceMode::none;
    run.mode_reason = "ptrace is not permitted (Yama ptrace_scope 3)";
    run.command = {"true"};
    const auto text = render_text(analyze_trace(run, 100ms), TextStyle{false, 80, false, false});
    CHECK(text.starts_with("NOT TRACED: ptrace is not permitted (Yama ptrace_scope 3)"));
}
