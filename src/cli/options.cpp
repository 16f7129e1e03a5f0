// The shared options, the error printer, report writing and set-up.
#include "cli/options.hpp"

#include "cli/logging.hpp"
#include "loopcheck/core/exit_codes.hpp"
#include "loopcheck/core/untrusted.hpp"
#include "loopcheck/run/stop.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <string_view>

namespace loopcheck {

namespace {

/// Set once the lost-output line was printed, so that it is printed once.
bool g_output_failure_said = false;

std::string one_line(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    return s;
}

} // namespace

void add_common_options(CLI::App& app, CommonArgs& args, const CommonSet& which) {
    if (which.timeout)
        app.add_option("-t,--timeout", args.timeout,
                       "give up on one connect after this long: 250ms, 2s, 1.5 (default 5s)")
            ->type_name("DURATION");
    if (which.threshold)
        app.add_option("--threshold", args.threshold,
                       "a connect, refusal or fallback slower than this is slow (default 100ms)")
            ->type_name("DURATION");
    if (which.format) {
        app.add_option("--format", args.format, "text, json or markdown (default text)")
            ->check(CLI::IsMember({"text", "json", "markdown"}))
            ->type_name("FORMAT");
        app.add_flag("--json", args.json, "same as --format json");
        app.add_flag("--markdown", args.markdown, "same as --format markdown");
    } else {
        app.add_flag("--json", args.json, "JSON on stdout instead of text");
    }
    if (which.color)
        app.add_option("--color", args.color,
                       "auto, always or never (default auto; NO_COLOR honoured)")
            ->check(CLI::IsMember({"auto", "always", "never"}))
            ->type_name("WHEN");
    app.add_flag("-v,--verbose", args.verbose,
                 "the full report (every client row and fix); log each step on stderr, -vv every "
                 "socket call");
    if (which.quiet)
        app.add_flag("-q,--quiet", args.quiet, "print nothing on stderr but errors");
}

Result<CommonOptions> validate_common(const CommonArgs& args) {
    CommonOptions out;
    auto timeout = parse_duration(args.timeout);
    if (!timeout)
        return usage_error(fmt::format("--timeout: {}", timeout.error().message));
    if (*timeout <= Micros{0} || *timeout > max_timeout)
        return usage_error("--timeout must be above 0 and at most 1 hour");
    auto threshold = parse_duration(args.threshold);
    if (!threshold)
        return usage_error(fmt::format("--threshold: {}", threshold.error().message));
    if (*threshold <= Micros{0})
        return usage_error("--threshold must be above 0");
    if ((args.json && args.markdown) || ((args.json || args.markdown) && args.format != "text"))
        return usage_error("choose one output format");
    if (args.quiet && args.verbose > 0)
        return usage_error("-q and -v exclude each other");
    out.timeout = *timeout;
    out.threshold = *threshold;
    out.format = args.json || args.format == "json"           ? Format::json
                 : args.markdown || args.format == "markdown" ? Format::markdown
                                                              : Format::text;
    out.color = args.color == "always"  ? ColorMode::always
                : args.color == "never" ? ColorMode::never
                                        : ColorMode::automatic;
    out.verbosity = args.quiet ? -1 : std::min(args.verbose, 2);
    return out;
}

int report_error(int code, const std::string& message) {
    // Messages quote what was typed (CLI11), the OS or the resolver: their
    // controls are escaped.
    std::fputs(fmt::format("loopcheck: error: {}\n", escape_controls(one_line(message))).c_str(),
               stderr);
    return code;
}

int usage_failure(const std::string& message) {
    return report_error(exit_code::usage, message);
}

int run_failure(const Error& error) {
    const int code = error.kind == ErrorKind::usage     ? exit_code::usage
                     : error.kind == ErrorKind::resolve ? exit_code::unresolved
                                                        : exit_code::internal;
    return report_error(code, error.message);
}

int write_report(Format format, const Renderings& renderings, int verdict) {
    const auto& render = format == Format::json       ? renderings.json
                         : format == Format::markdown ? renderings.markdown
                                                      : renderings.text;
    return write_stdout(render ? render() : renderings.text(), verdict);
}

int write_stdout(std::string_view text, int verdict) {
    // A full disk (ENOSPC), a reader gone with SIGPIPE ignored (EPIPE) or a
    // file-size limit (EFBIG) fail here: the output was lost, and a script
    // that kept it must not read the probe's verdict (docs/robustness.md).
    // errno is taken at once: a later flush of an empty buffer keeps quiet.
    errno = 0;
    const bool whole = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
    const int write_errno = errno;
    if (whole && flush_stdout_checked())
        return verdict;
    say_output_failure(write_errno);
    return exit_code::internal;
}

bool flush_stdout_checked() {
    errno = 0;
    const bool ok = std::fflush(stdout) == 0 && !std::ferror(stdout);
    if (!ok)
        say_output_failure(errno);
    return ok;
}

void say_output_failure(int err) {
    if (g_output_failure_said)
        return;
    g_output_failure_said = true;
    std::fputs(fmt::format("loopcheck: error: cannot write to standard output: {}\n",
                           err != 0 ? std::strerror(err) : "write error")
                   .c_str(),
               stderr);
}

int finish_output(int code) {
    if (!flush_stdout_checked())
        return exit_code::internal;
    // A log or progress line that could not be written: nowhere to say it.
    if (std::fflush(stderr) != 0 || std::ferror(stderr))
        return exit_code::internal;
    return code;
}

int output_width() {
    // COLUMNS first (a user's or a test's choice, and the only width a pipe
    // has), then the terminal's own, then 100 for files, pipes and tickets.
    if (const char* env = std::getenv("COLUMNS"); env != nullptr && *env != '\0') {
        char* end = nullptr;
        const long v = std::strtol(env, &end, 10);
        if (*end == '\0' && v >= 20 && v <= 1000)
            return static_cast<int>(v);
    }
    if (platform::is_terminal(platform::Stream::out))
        if (const int width = platform::terminal_width(); width > 0)
            return width;
    return 100;
}

TextStyle text_style(ColorMode color, bool verbose) {
    TextStyle style;
    style.verbose = verbose;
    const char* no_color = std::getenv("NO_COLOR");
    const bool no_color_set = no_color != nullptr && *no_color != '\0';
    style.color = color == ColorMode::always || (color == ColorMode::automatic && !no_color_set &&
                                                 platform::is_terminal(platform::Stream::out));
    style.width = output_width();
    return style;
}

CommandSetup::CommandSetup(int verbosity) {
    setup_logging(verbosity);
    platform::install_interrupt_handler(request_stop);
    if (network_.error()) {
        report_error(exit_code::internal, network_.error()->message);
        return;
    }
    // Under `ulimit -n 6` the hosts file, the resolver's socket and the
    // probes failed with EMFILE one by one, and the report said "localhost
    // does not resolve here" and "hosts file missing" (issue 28). A limit
    // that cannot hold one run is said as what it is, before anything.
    if (const auto limit = platform::descriptor_limit(); limit && *limit < min_descriptors) {
        report_error(exit_code::internal,
                     fmt::format("the descriptor limit (ulimit -n, RLIMIT_NOFILE) is {}; loopcheck "
                                 "needs at least {}: stdio, the resolver, the hosts file, the "
                                 "listener table, its own listeners and one probe socket",
                                 *limit, min_descriptors));
        too_few_descriptors_ = true;
    }
}

std::optional<int> CommandSetup::failed() const {
    if (network_.error() || too_few_descriptors_)
        return exit_code::internal;
    return std::nullopt;
}

} // namespace loopcheck
