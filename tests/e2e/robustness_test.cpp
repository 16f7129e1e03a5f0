// The bad-input table of docs/robustness.md, row by row, against the real
// binary: every row gets one line on stderr, a documented exit code, and no
// probing (nothing on stdout).
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "support/catch.hpp"
#include "support/process.hpp"

#include <string>
#include <string_view>
#include <vector>

using namespace loopcheck;
using namespace loopcheck::test;

namespace {

struct Row {
    const char* what;
    std::vector<std::string> args;
    const char* message; ///< a fragment of the one error line
};

} // namespace

TEST_CASE("the bad-input table in docs/robustness.md", "[robustness]") {
    const std::vector<Row> rows = {
        {"port 0", {"localhost:0"}, "port 0"},
        {"port above 65535", {"localhost:65536"}, "out of range"},
        {"port with 30 digits", {"localhost:" + std::string(30, '9')}, "out of range"},
        {"negative port", {"localhost:-1"}, "not a number"},
        {"empty host", {"http://:80"}, "empty host"},
        {"empty target", {""}, "empty target"},
        {"unbalanced bracket", {"[::1:80"}, "unbalanced"},
        {"IPv6 without brackets", {"::1:80"}, "brackets"},
        {"not an IPv6 address in brackets", {"[zz::1]:80"}, "not an IPv6"},
        {"scheme without default port", {"gopher://localhost"}, "no default port"},
        {"stray character", {"local host:80"}, "stray character"},
        {"shell metacharacters", {"$(reboot):80"}, "stray character"},
        {"name over 253 bytes", {std::string(254, 'a') + ":80"}, "254 bytes"},
        {"label over 63 bytes", {std::string(64, 'b') + ".test:80"}, "63 bytes"},
        {"control bytes", {std::string("a\x1b[31mb:80")}, "\\x1b"},
        {"non-UTF-8 bytes", {std::string("h\xff\xfe:80")}, "\\xff"},
        {"control bytes in a URL's path", {"http://localhost:80/\x1b]0;x\a"}, "control character"},
        {"a bidi override in a URL's fragment",
         {"http://localhost:80/#\xe2\x80\xae"},
         "bidi control"},
        {"control bytes in an option's value",
         {"--format", "\x1b[31m", "localhost:80"},
         "\\x1b[31m"},
        {"control bytes in an option's name", {"--\x1b]0;x\a"}, "\\x1b]0;x\\x07"},
        {"a bad target among good ones", {"localhost:80", "localhost:0"}, "port 0"},
        {"count 0", {"-n", "0", "localhost:80"}, "--count"},
        {"count above the limit", {"-n", "10001", "localhost:80"}, "--count"},
        {"count not a number", {"-n", "1e9", "localhost:80"}, "count"},
        {"timeout 0", {"--timeout", "0", "localhost:80"}, "--timeout"},
        {"timeout above an hour", {"--timeout", "2h", "localhost:80"}, "--timeout"},
        {"timeout above a day", {"--timeout", "100000000", "localhost:80"}, "--timeout"},
        {"negative timeout", {"--timeout=-1s", "localhost:80"}, "--timeout"},
        {"threshold with an unknown unit",
         {"--threshold", "5 parsecs", "localhost:80"},
         "--threshold"},
        {"unknown emulation", {"--emulate", "telepathy", "localhost:80"}, "unknown strategy"},
        {"emulation delay below 10 ms",
         {"--emulate", "happy-eyeballs=1ms", "localhost:80"},
         "10ms"},
        {"syn retries out of range", {"--syn-retries", "300", "localhost:80"}, "syn-retries"},
        {"unknown option", {"--frobnicate"}, "frobnicate"},
        {"two families", {"-4", "-6", "localhost:80"}, "exclude"},
        {"two formats", {"--json", "--markdown", "localhost:80"}, "one output format"},
        {"quiet and verbose", {"-q", "-v", "localhost:80"}, "exclude"},
        {"unknown format", {"--format", "yaml", "localhost:80"}, "format"},
        {"unknown colour mode", {"--color", "sometimes", "localhost:80"}, "color"},
        {"unknown expectation", {"--expect", "accepted", "localhost:80"}, "expect"},
    };
    for (const auto& row : rows) {
        INFO(row.what);
#ifdef _WIN32
        // The test starts loopcheck with a command line made from these
        // bytes in the ANSI code page (support/process.cpp), and loopcheck
        // reads its UTF-16 command line (GetCommandLineW): bytes that are
        // not UTF-8 cannot be passed at all, and U+202E arrives as three
        // ANSI characters. Both rows run on POSIX; here they would test the
        // harness, not loopcheck.
        if (std::string_view(row.what) == "non-UTF-8 bytes" ||
            std::string_view(row.what) == "a bidi override in a URL's fragment") {
            WARN("skipped on Windows: the harness passes arguments in the ANSI code page");
            continue;
        }
#endif
        auto r = run_loopcheck(row.args);
        INFO("stderr: " << r.err);
        CHECK(r.exit_code == exit_code::usage);
        CHECK(r.out.empty());
        CHECK(lines(r.err).size() == 1);
        CHECK(r.err.rfind("loopcheck: error: ", 0) == 0);
        CHECK(r.err.find(row.message) != std::string::npos);
        // Quoted input is escaped. The line without its end: a Windows
        // console stream ends lines with CRLF.
        auto line = r.err.substr(0, r.err.find('\n'));
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        CHECK(is_terminal_safe(line));
    }
}
