// The real binary against real listeners whose process names are escape
// sequences, a bidi override, Markdown syntax and bytes that are no UTF-8,
// set with prctl(PR_SET_NAME) (what /proc/PID/comm shows). Linux only: the
// other listener tables name processes by their executable's file name.
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/platform/platform.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"
#include "support/process.hpp"
#include "support/untrusted_checks.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

#ifdef __linux__
#include <csignal>
#include <filesystem>
#include <fstream>
#include <optional>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace {

/// COLUMNS=400 for the processes started while it lives (the text reports
/// fit COLUMNS).
struct WideColumns {
    WideColumns() { set("400"); }
    ~WideColumns() { set(nullptr); }
    static void set(const char* value) {
#ifdef _WIN32
        _putenv_s("COLUMNS", value ? value : "");
#else
        if (value)
            ::setenv("COLUMNS", value, 1);
        else
            ::unsetenv("COLUMNS");
#endif
    }
};

} // namespace

using namespace loopcheck;
using namespace loopcheck::test;

#ifdef __linux__

namespace {

/// A child process named `name` that listens on `bind` until this object
/// goes (or 120 s pass): forked, so the socket is the child's alone.
class NamedListener {
public:
    NamedListener(const std::string& name, Address bind) {
        REQUIRE(name.size() <= 15); // PR_SET_NAME keeps 15 bytes and a NUL
        int ready[2], stop[2];
        REQUIRE(::pipe(ready) == 0);
        REQUIRE(::pipe(stop) == 0);
        pid_ = ::fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            ::close(ready[0]);
            ::close(stop[1]);
            int port = 0;
            if (::prctl(PR_SET_NAME, name.c_str(), 0, 0, 0) == 0)
                if (auto s = platform::open_listener({bind, true, 16})) {
                    if (auto a = platform::local_address(*s))
                        port = a->port;
                    (void)!::write(ready[1], &port, sizeof port);
                    // Until the test closes its end (or ends), bounded.
                    pollfd p{stop[0], POLLIN, 0};
                    ::poll(&p, 1, 120'000);
                    ::_exit(0);
                }
            (void)!::write(ready[1], &port, sizeof port);
            ::_exit(1);
        }
        ::close(ready[1]);
        ::close(stop[0]);
        stop_ = stop[1];
        pollfd p{ready[0], POLLIN, 0};
        if (::poll(&p, 1, 10'000) == 1 && ::read(ready[0], &port_, sizeof port_) != sizeof port_)
            port_ = 0;
        ::close(ready[0]);
    }
    ~NamedListener() {
        ::close(stop_);
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
        }
    }
    NamedListener(const NamedListener&) = delete;
    NamedListener& operator=(const NamedListener&) = delete;

    [[nodiscard]] int port() const noexcept { return port_; }
    [[nodiscard]] std::string pid() const { return std::to_string(pid_); }

private:
    pid_t pid_ = -1;
    int stop_ = -1;
    int port_ = 0;
};

} // namespace

TEST_CASE("real listeners with hostile names: text, audit and Markdown neutralise, JSON is exact",
          "[untrusted][integration]") {
    // 13 bytes: a colour change, BEL, an OSC (set title) left open.
    const std::string osc = "\x1b[31mEV\a\x1b]0;x";
    // 15 bytes: right-to-left override, link and code-span syntax, a raw
    // C1 byte that is no UTF-8 (CSI on 8-bit terminals), NEL as UTF-8.
    const std::string rlo = "\xe2\x80\xae"
                            "a|b](x)`c\x9b\xc2\x85";
    NamedListener first(osc, make_ipv4(127, 0, 0, 1));
    REQUIRE(first.port() > 0);
    const auto port = std::to_string(first.port());
    NamedListener second(rlo, make_ipv4(127, 0, 0, 2, static_cast<std::uint16_t>(first.port())));
    REQUIRE(second.port() == first.port());

    const std::string osc_text = "\\x1b[31mEV\\x07\\x1b]0;x";
    const std::string rlo_text = "\\u202ea|b](x)`c\\x9b\\u0085";
    REQUIRE(escape_text(osc) == osc_text);
    REQUIRE(escape_text(rlo) == rlo_text);

    SECTION("text") {
        // -v: the listener table (one screen leaves it out where an address
        // accepted; the finding above still names the owner).
        const auto r = run_loopcheck({"-v", "127.0.0.1:" + port});
        INFO(escape_text(r.out + r.err));
        CHECK(r.exit_code == 0);
        check_terminal_safe(r.out);
        check_terminal_safe(r.err);
        CHECK(
            contains(r.out, "127.0.0.1:" + port + "  " + osc_text + " (pid " + first.pid() + ")"));
        CHECK(
            contains(r.out, "127.0.0.2:" + port + "  " + rlo_text + " (pid " + second.pid() + ")"));
    }
    SECTION("audit") {
        // Wide enough that the two owners stay on one row of the table
        // (it fits COLUMNS, and cells wrap inside their column).
        WideColumns wide;
        const auto r = run_loopcheck({"audit", port});
        INFO(escape_text(r.out + r.err));
        // 6 where localhost tries ::1 first: some clients never reach it.
        CHECK((r.exit_code < 2 || r.exit_code == exit_code::partial));
        check_terminal_safe(r.out);
        check_terminal_safe(r.err);
        CHECK(contains(r.out, osc_text + " (pid " + first.pid() + "), " + rlo_text + " (pid " +
                                  second.pid() + ")"));
    }
    SECTION("Markdown") {
        const auto r = run_loopcheck({"--markdown", "127.0.0.1:" + port});
        INFO(escape_text(r.out + r.err));
        CHECK(r.exit_code == 0);
        check_markdown(r.out);
        CHECK(contains(r.out, "| `127.0.0.1:" + port + "` | `\\x1b[31mEV\\x07\\x1b]0;x` | " +
                                  first.pid() + " | - |"));
        CHECK(contains(r.out, "| `127.0.0.2:" + port + "` | ``\\u202ea\\|b](x)`c\\x9b\\u0085`` | " +
                                  second.pid() + " | - |"));
        const auto audit = run_loopcheck({"audit", "--markdown", port});
        INFO(escape_text(audit.out + audit.err));
        check_markdown(audit.out);
        CHECK(contains(audit.out, "\\\\x1b\\[31mEV\\\\x07\\\\x1b\\]0;x (pid " + first.pid() + ")"));
        CHECK(contains(audit.out,
                       "\\\\u202ea\\|b\\](x)\\`c\\\\x9b\\\\u0085 (pid " + second.pid() + ")"));
    }
    SECTION("JSON") {
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"--json", "127.0.0.1:" + port},
              std::vector<std::string>{"audit", "--json", port}}) {
            const auto r = run_loopcheck(args);
            INFO(escape_text(r.out + r.err));
            check_terminal_safe(r.out);
            // The names exactly; only the byte that is no UTF-8 cannot be
            // carried by JSON and is U+FFFD.
            CHECK(contains(r.out, "\"process\": \"\\u001b[31mEV\\u0007\\u001b]0;x\""));
            CHECK(contains(r.out, "\"process\": \"\\u202ea|b](x)`c\\ufffd\\u0085\""));
        }
    }
}

namespace {

/// `md` rendered to HTML by cmark-gfm (with GFM's table extension), or
/// nullopt when cmark-gfm is not installed.
std::optional<std::string> cmark_html(const std::string& md) {
    if (run_command("command -v cmark-gfm").exit_code != 0)
        return std::nullopt;
    const auto path = std::filesystem::temp_directory_path() /
                      ("loopcheck_md_" + std::to_string(::getpid()) + ".md");
    std::ofstream(path, std::ios::binary) << md;
    const auto r = run_command("cmark-gfm -e table '" + path.string() + "'");
    std::filesystem::remove(path);
    return r.out;
}

} // namespace

TEST_CASE("wait --markdown: listener names and the command line go through the neutraliser",
          "[untrusted][integration]") {
    // Issue 28: an image, a link and raw HTML as process names (15 bytes
    // each at most), on ::1, while the wait is for a closed 127.0.0.1.
    for (const std::string name :
         {"![](//e.vil/x)", "[login](//e.vl)", "</details>", "<img src=x>"}) {
        INFO(name);
        NamedListener hostile(name, ipv6_loopback());
        if (hostile.port() == 0)
            LC_SKIP("no ::1 here");
        const auto port = std::to_string(hostile.port());
        const auto r = run_loopcheck(
            {"wait", "--markdown", "--for", "200ms", "http://127.0.0.1:" + port + "/a`b``c"});
        INFO(r.out << r.err);
        CHECK(r.exit_code != 0);
        check_markdown(r.out);
        CHECK(contains(r.out, escape_markdown(name)));
        if (const auto html = cmark_html(r.out)) {
            INFO(*html);
            CHECK_FALSE(contains(*html, "<img"));
            CHECK_FALSE(contains(*html, "<a "));
            CHECK_FALSE(contains(*html, "</details>"));
            CHECK(contains(*html, "<code>loopcheck wait --for 200ms http://127.0.0.1:" + port +
                                      "/a`b``c</code>"));
        }
    }
}

#else

TEST_CASE("real listeners with hostile names: text, audit and Markdown neutralise, JSON is exact",
          "[untrusted][integration]") {
    LC_SKIP("prctl(PR_SET_NAME) is Linux's; other listener tables show the executable's name");
}

#endif
