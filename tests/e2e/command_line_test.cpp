// The command line as a person types it (issue 23): the shared options mean
// the same before and after every subcommand, every subcommand writes every
// format, and every usage error is one line in loopcheck's words, exit 2,
// pointing to --help. The real binary, against listeners the test opens.
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"
#include "support/process.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;

namespace {

using Args = std::vector<std::string>;

/// The output with every measured time ("0.051 ms", "connect_ms": 0.051)
/// written "T", and the check's echo of argv as typed (its "command_line"
/// keeps the order the words were typed in) written "C": two runs differ
/// only there. The subcommands' command lines are normalised, not masked.
std::string without_times(const std::string& text) {
    // A fitted intercept may come out "-0.001 ms" in one run and "0.002 ms"
    // in the next; the staircase chart's axis top follows the slowest probe.
    static const std::regex decimal(R"(-?\d+(\.\d+)?( ?(µs|us|ms|s)\b)|-?\d+\.\d+)");
    static const std::regex axis(R"(--> \d+)");
    static const std::regex typed(R"("command_line": "loopcheck (--|127)[^"]*")");
    // An audit cell says "OK T via ADDRESS" when the client rows agree and
    // "OK T to T (slowest: ...)" when their times spread: which one depends
    // on how fast this run's connects were (Wine's spread more).
    static const std::regex cell(R"(\| OK T (via [^|]*|to T \(slowest:[^|]*)\|)");
    const auto masked = std::regex_replace(
        std::regex_replace(std::regex_replace(text, typed, "C"), axis, "--> T"), decimal, "T");
    return std::regex_replace(masked, cell, "| OK T |");
}

/// `args` with `options` put before the first word, then after the last.
std::pair<Args, Args> before_and_after(const Args& options, const Args& command) {
    Args before = options;
    before.insert(before.end(), command.begin(), command.end());
    Args after = command;
    after.insert(after.end(), options.begin(), options.end());
    return {before, after};
}

/// A loopback port nothing listens on (a listener opened and closed).
std::uint16_t closed_port() {
    auto s = listener(make_ipv4(127, 0, 0, 1, 0));
    return port_of(s);
}

} // namespace

TEST_CASE("shared options before and after each subcommand give the same output", "[cli][e2e]") {
    Net net;
    auto open = listener(make_ipv4(127, 0, 0, 1, 0));
    const std::string port = std::to_string(port_of(open));
    const std::string closed = std::to_string(closed_port());
    const auto dir = std::filesystem::temp_directory_path() / "loopcheck-e2e-options";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "client.py") << "requests.get('http://localhost:11434/api')\n";

    struct Case {
        Args options, command;
    };
    const std::vector<Case> cases = {
        {{"--json", "-t", "2s", "--threshold", "10s"}, {"127.0.0.1:" + port}},
        // A loaded machine may take more than 100 ms to connect: a high
        // --threshold keeps the verdict from flipping between two runs.
        {{"--json", "-t", "2s", "--threshold", "10s"}, {"audit", port}},
        {{"--markdown", "--color", "never", "-q", "--threshold", "10s"}, {"audit", port}},
        {{"--format", "markdown", "-t", "1s"}, {"staircase", "-n", "1", "127.0.0.1:" + closed}},
        {{"--json", "-q"}, {"wait", "--for", "5s", "127.0.0.1:" + port}},
        {{"--markdown", "--color=never"}, {"wait", "--for", "5s", "127.0.0.1:" + port}},
        {{"--json", "-t", "1s"}, {"scan", "--no-probe", dir.string()}},
        {{"--json", "-q"}, {"listen", "--for", "50ms", "127.0.0.1:" + closed}},
        {{"--markdown", "-q"}, {"listen", "--for", "50ms", "127.0.0.1:" + closed}},
    };
    for (const auto& c : cases) {
        const auto [before, after] = before_and_after(c.options, c.command);
        const auto a = run_loopcheck(before);
        const auto b = run_loopcheck(after);
        INFO("loopcheck " << c.options.front() << " ... " << c.command.front()
                          << "\nstderr: " << a.err << "\n"
                          << b.err);
        CHECK(a.exit_code == b.exit_code);
        CHECK(a.exit_code != exit_code::usage);
        CHECK_FALSE(a.out.empty());
        CHECK(without_times(a.out) == without_times(b.out));
        // The option took effect: not the text report.
        const bool json = c.options.front() == "--json";
        CHECK(a.out.front() == (json ? '{' : '#'));
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("staircase takes -t typed before it (it was ignored)", "[cli][e2e]") {
    Net net;
    const std::string closed = std::to_string(closed_port());
    const auto r =
        run_loopcheck({"-t", "1s", "--json", "staircase", "-n", "1", "127.0.0.1:" + closed});
    INFO(r.err);
    REQUIRE(r.exit_code == exit_code::healthy);
    CHECK(contains(r.out, "\"timeout_ms\": 1000.000"));
}

TEST_CASE("every subcommand writes text, JSON and Markdown", "[cli][e2e]") {
    Net net;
    const std::string closed = std::to_string(closed_port());
    const auto md = run_loopcheck({"staircase", "--markdown", "-n", "1", "127.0.0.1:" + closed});
    INFO(md.err);
    CHECK(md.exit_code == exit_code::healthy);
    CHECK(contains(md.out, "| Limit | Outcome | Median | Min | Max |"));
    CHECK(contains(md.out, "loopcheck "));

    const auto json = run_loopcheck({"listen", "--json", "--for", "50ms", "127.0.0.1:" + closed});
    INFO(json.err);
    CHECK(json.exit_code == exit_code::healthy);
    const auto out = lines(json.out);
    REQUIRE(out.size() == 2);
    CHECK(out[0] == "{\"event\":\"listening\",\"address\":\"127.0.0.1:" + closed +
                        "\",\"ip\":\"127.0.0.1\",\"port\":" + closed +
                        ",\"family\":\"ipv4\",\"v6only\":null}");
    CHECK(out[1] == "{\"event\":\"stopped\",\"accepted\":0}");

    const auto listen_md =
        run_loopcheck({"listen", "--markdown", "--for", "50ms", "127.0.0.1:" + closed});
    CHECK(contains(listen_md.out, "| `127.0.0.1:" + closed + "` | - |"));
    CHECK(contains(listen_md.out, "Stopped after 0 connection(s)."));

    // --color and -v are every command's: accepted by wait and listen too.
    auto open = listener(make_ipv4(127, 0, 0, 1, 0));
    const auto w = run_loopcheck({"wait", "--color", "always", "-v", "--for", "5s",
                                  "127.0.0.1:" + std::to_string(port_of(open))});
    CHECK(w.exit_code == exit_code::healthy);
    const auto l =
        run_loopcheck({"listen", "--color", "always", "--for", "50ms", "127.0.0.1:" + closed});
    CHECK(contains(l.out, "listening on \x1b[1m127.0.0.1:" + closed + "\x1b[0m"));
}

TEST_CASE("every usage error is one line, exit 2, ending with a --help pointer", "[cli][e2e]") {
    struct Bad {
        Args args;
        std::string says;
    };
    const std::vector<Bad> table = {
        {{"wiat"}, "unknown command 'wiat'; did you mean 'wait'? see loopcheck --help"},
        {{"audti", "8000"}, "did you mean 'audit'?"},
        {{"--timout", "1s", "localhost:1"},
         "unknown option '--timout'; did you mean '--timeout'? see loopcheck --help"},
        {{"audit", "--timout", "1s"},
         "unknown option '--timout'; did you mean '--timeout'? see loopcheck audit --help"},
        {{"--jsn", "wait", "localhost:1"}, "did you mean '--json'? see loopcheck wait --help"},
        {{"--frobnicate"}, "unknown option '--frobnicate'; see loopcheck --help"},
        {{"-n", "abc", "localhost:1"}, "takes a whole number, not 'abc'"},
        {{"--count=2x", "localhost:1"}, "takes a whole number"},
        // A whole number too large for the option's type is out of bounds,
        // and the message says the bounds and what was typed.
        {{"-n", "99999999999", "localhost:1"}, "--count must be from 1 to 10000, not 99999999999"},
        {{"-n", "10001", "localhost:1"}, "--count must be from 1 to 10000, not 10001"},
        {{"--syn-retries", "99999999999", "localhost:1"},
         "--syn-retries must be from 0 to 253, not 99999999999"},
        {{"--max-probes", "-1", "localhost:1"}, "--max-probes must be from 1 to 100000000, not -1"},
        {{"--max-probes", "99999999999999999999", "localhost:1"},
         "--max-probes must be from 1 to 100000000, not 99999999999999999999"},
        {{"staircase", "-n", "99999999999", "localhost:1"},
         "--count must be from 1 to 100, not 99999999999; see loopcheck staircase --help"},
        {{"--timeout"}, "--timeout needs a value"},
        {{"--format", "xml", "localhost:1"}, "--format must be text, json or markdown, not 'xml'"},
        {{"--color", "sometimes", "audit"}, "--color must be auto, always or never"},
        {{"--expect", "open", "localhost:1"}, "--expect takes only 'refused', not 'open'"},
        {{"--syn-retries", "300", "localhost:1"}, "--syn-retries must be from 0 to 253, not 300"},
        {{"--max-probes", "0", "localhost:1"}, "--max-probes must be from 1 to"},
        {{"-q", "-v", "localhost:1"}, "-q and -v exclude each other"},
        {{"localhost"}, "no port"},
        {{"localhost:99999/v1"}, "out of range"},
        {{"staircase", "--threshold", "1s"}, "--threshold does not apply to loopcheck staircase"},
        {{"-6", "audit"}, "-6 does not apply to loopcheck audit"},
        {{"audit", "--ipv6"}, "--ipv6 does not apply to loopcheck audit"},
        {{"-4", "staircase"}, "does not apply to loopcheck staircase: name one address"},
        {{"--threshold", "1s", "wait", "localhost:1"},
         "--threshold does not apply to loopcheck wait"},
        {{"listen", "-t", "1s", "127.0.0.1:0"}, "-t does not apply to loopcheck listen"},
        {{"listen", "--timeout", "1s", "127.0.0.1:0"},
         "--timeout does not apply to loopcheck listen"},
        {{"scan", "--threshold", "1s"}, "--threshold does not apply to loopcheck scan"},
        {{"wait"}, "loopcheck wait needs at least one TARGET"},
        {{"listen"}, "loopcheck listen needs at least one SPEC"},
        {{"staircase", "localhost:1", "localhost:2"}, "unexpected word 'localhost:2'"},
        {{"wait", "--for", "soon", "localhost:1"}, "--for: "},
        {{"wait", "-t", "1m30", "localhost:1"}, "needs its unit"},
        {{"wait", "--http", "health", "localhost:1"}, "--http: 'health' is not a path"},
        {{"wait", "--expect-status", "99", "http://localhost:1/"},
         "--expect-status: '99' is not a status"},
        {{"wait", "--expect-status", "200", "localhost:1"},
         "--expect-status needs an http:// target or --http PATH"},
        {{"wait", "--down", "http://localhost:1/"}, "--down waits for the port to close"},
        {{"wait", "--", "true"}, "needs at least one TARGET"},
        {{"listen", "--for", "soon", "127.0.0.1:0"}, "--for: "},
        {{"listen", "8.8.8.8:0"}, "see loopcheck listen --help"},
        {{"audit", "0"}, "see loopcheck audit --help"},
        {{"localhost:1", "audit"}, "a subcommand's name comes first (loopcheck audit ...)"},
        {{"wait", "localhost:1", "--quick"}, "unknown option '--quick'"},
        {{"--expect", "refused", "audit"},
         "--expect does not apply to loopcheck audit: it applies to the check only"},
        // The reviewer's five (issue 25/23 leftovers): --expect is blamed, not the target.
        {{"--expect", "refused", "staircase", "127.0.0.1:9"},
         "--expect does not apply to loopcheck staircase"},
        {{"help", "wiat"}, "unknown command 'wiat'; did you mean 'wait'? see loopcheck --help"},
        {{"help", "frobnicate"}, "unknown command 'frobnicate' (loopcheck help takes"},
        {{"audit", "-n", "3"}, "-n does not apply to loopcheck audit: audit connects once"},
        {{"-n", "3", "audit"}, "-n does not apply to loopcheck audit"},
        {{"audit", "--count", "3"}, "--count does not apply to loopcheck audit"},
        {{"scan", "-n", "2"}, "-n does not apply to loopcheck scan"},
        {{"wait", "-n", "2", "localhost:1"}, "-n does not apply to loopcheck wait"},
        {{"listen", "-n", "2", "127.0.0.1:0"}, "-n does not apply to loopcheck listen"},
        {{"--json", "--markdown", "scan"}, "choose one output format; see loopcheck scan --help"},
    };
    for (const auto& bad : table) {
        const auto r = run_loopcheck(bad.args);
        std::string shown;
        for (const auto& a : bad.args)
            shown += " " + a;
        INFO("loopcheck" << shown << "\nstderr: " << r.err);
        CHECK(r.exit_code == exit_code::usage);
        CHECK(r.out.empty());
        REQUIRE(lines(r.err).size() == 1);
        const std::string line = lines(r.err).front();
        CHECK(line.starts_with("loopcheck: error: "));
        CHECK(contains(line, bad.says));
        CHECK(std::regex_search(line, std::regex(R"(see loopcheck( [a-z]+)? --help$)")));
        // CLI11's own words never show through.
        for (const char* cli11 : {"not expected", "Could not convert", "is required", "not in {",
                                  "Expected exactly", "required but received"})
            CHECK_FALSE(contains(line, cli11));
    }
}

TEST_CASE("`loopcheck help` is --help", "[cli][e2e]") {
    const auto top = run_loopcheck({"help"});
    CHECK(top.exit_code == exit_code::healthy);
    CHECK(top.out == run_loopcheck({"--help"}).out);
    const auto wait = run_loopcheck({"help", "wait"});
    CHECK(wait.exit_code == exit_code::healthy);
    CHECK(wait.out == run_loopcheck({"wait", "--help"}).out);
}

TEST_CASE("HOST:PORT/path is a URL without its scheme", "[cli][e2e]") {
    Net net;
    auto open = listener(make_ipv4(127, 0, 0, 1, 0));
    const std::string target = "127.0.0.1:" + std::to_string(port_of(open)) + "/v1";
    const auto r = run_loopcheck({"--json", target});
    INFO(r.err);
    CHECK(r.exit_code != exit_code::usage);
    CHECK(contains(r.out, "\"input\": \"" + target + "\""));
}

TEST_CASE("an open port fails the check with --expect refused", "[cli][e2e]") {
    Net net;
    auto open = listener(make_ipv4(127, 0, 0, 1, 0));
    const std::string target = "127.0.0.1:" + std::to_string(port_of(open));
    const auto r = run_loopcheck({"--expect", "refused", target});
    INFO(r.out << r.err);
    // The rule itself is core's (issue 23, must-have 3, another branch):
    // until it is merged, the old exit 0 is reported as a skip, not a pass.
    if (r.exit_code == exit_code::healthy)
        LC_SKIP("--expect refused still exits 0 on an open port: the core rule is not merged");
    CHECK(r.exit_code != exit_code::usage);
    CHECK(r.exit_code != exit_code::healthy);
}
