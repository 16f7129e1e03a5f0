// The shared options, the error printer, report writing and set-up.
#include "cli/options.hpp"

#include "cli/logging.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/text/untrusted.hpp"
#include "loopcheck/run/staircase.hpp"
#include "loopcheck/run/stop.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace loopcheck {

namespace {

/// The subcommand whose --help a usage error points to; empty: the check.
std::string g_usage_command;

/// Set once the lost-output line was printed, so that it is printed once.
bool g_output_failure_said = false;

std::string one_line(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    return s;
}

} // namespace

namespace {

/// Declares `shown` (a value option when `value` names its type, else a
/// flag) as an option this command accepts only to say why it does not
/// apply: typing it records the reason, and validate_common fails on it.
void add_rejected_one(CLI::App& app, const std::string& shown, std::string_view value,
                      CommonArgs& args, std::string_view command, std::string_view reason) {
    auto record = [&args, shown, command = std::string(command), reason = std::string(reason)] {
        if (args.rejected.empty())
            args.rejected =
                fmt::format("{} does not apply to loopcheck {}: {}", shown, command, reason);
    };
    const std::string help = fmt::format("(does not apply here: {})", reason);
    if (!value.empty())
        app.add_option_function<std::string>(
               shown, [record](const std::string&) { record(); },
               help)
            ->type_name(std::string(value))
            ->group(""); // hidden from --help: it only explains itself
    else
        app.add_flag_function(
               shown, [record](std::int64_t) { record(); }, help)
            ->group("");
}

const OptionRow& row_of(Command command, std::string_view name) {
    const OptionRow* row = find_option(command, name);
    if (row == nullptr) // a declaration without its row: a programming error
        throw std::logic_error(
            fmt::format("no option table row for {} of '{}'", name, command_word(command)));
    return *row;
}

/// The first two arguments of CLI11's add_option/add_flag for `row`.
std::string cli11_names(const OptionRow& row) {
    return std::string(row.names);
}

template <class T>
CLI::Option* add_row(CLI::App& app, const OptionRow& row, T& target) {
    CLI::Option* o = nullptr;
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, int>) {
        if (row.kind == Kind::flag || row.kind == Kind::counted)
            return app.add_flag(cli11_names(row), target, std::string(row.help));
    }
    o = app.add_option(cli11_names(row), target, std::string(row.help));
    if (!row.value.empty())
        o->type_name(std::string(row.value));
    if (row.kind == Kind::repeated)
        o->allow_extra_args(false); // one value each time; later words are targets
    if (row.required)
        o->required();
    return o;
}

} // namespace

CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name,
                              std::string& target) {
    return add_row(app, row_of(command, name), target);
}
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name,
                              std::vector<std::string>& target) {
    return add_row(app, row_of(command, name), target);
}
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name, int& target) {
    return add_row(app, row_of(command, name), target);
}
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name,
                              std::optional<int>& target) {
    return add_row(app, row_of(command, name), target);
}
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name, bool& target) {
    return add_row(app, row_of(command, name), target);
}

void add_common_options(CLI::App& app, CommonArgs& args, Command command) {
    // wait's -t is its own row, the whole wait's limit (cmd_wait.cpp), not
    // one connect's.
    if (command != Command::wait && find_option(command, "--timeout") != nullptr)
        add_table_option(app, command, "--timeout", args.timeout);
    if (find_option(command, "--threshold") != nullptr)
        add_table_option(app, command, "--threshold", args.threshold);
    // Each name declared apart, so that the error names the one typed:
    // "-n does not apply to ...". --expect typed before a subcommand is
    // moved after it (cli/usage.cpp), where it must be blamed, not its
    // value or the target after it.
    for (const OptionRow& row : option_table())
        if (const auto why = why_not(row, command); !why.empty())
            for (const auto name : option_names(row))
                if (!name.empty())
                    add_rejected_one(app, std::string(name), row.value, args, command_word(command),
                                     why);
    // --format and --color are checked by validate_common, in loopcheck's
    // words (a CLI11 check would print its own).
    add_table_option(app, command, "--format", args.format);
    add_table_option(app, command, "--json", args.json);
    add_table_option(app, command, "--markdown", args.markdown);
    add_table_option(app, command, "--color", args.color);
    add_table_option(app, command, "--verbose", args.verbose);
    add_table_option(app, command, "--quiet", args.quiet);
    args.command = command;
    if (find_option(command, "--output") != nullptr)
        add_table_option(app, command, "--output", args.output);
    add_table_option(app, command, "--redact", args.redact);
    add_table_option(app, command, "--no-redact", args.no_redact);
}

std::optional<IntegerBounds> integer_bounds(std::string_view command, std::string_view option) {
    for (std::size_t i = 0; i < command_count; ++i) {
        const auto c = static_cast<Command>(i);
        if (command_word(c) != command)
            continue;
        if (const OptionRow* row = find_option(c, option); row != nullptr && row->bounds)
            return IntegerBounds{(*row->bounds)[0], (*row->bounds)[1]};
    }
    return std::nullopt;
}

std::optional<std::string> bounds_error(std::string_view command, std::string_view option,
                                        std::string_view value) {
    const auto bounds = integer_bounds(command, option);
    if (!bounds)
        return std::nullopt;
    // Digits past what a long long holds are out of bounds all the same.
    const std::string_view digits = value.starts_with('+') ? value.substr(1) : value;
    long long v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    const bool inside = ec == std::errc{} && end == digits.data() + digits.size() &&
                        v >= bounds->low && v <= bounds->high;
    if (inside)
        return std::nullopt;
    return fmt::format("{} must be from {} to {}, not {}", option, bounds->low, bounds->high,
                       value);
}

Result<CommonOptions> validate_common(const CommonArgs& args) {
    CommonOptions out;
    if (!args.rejected.empty())
        return usage_error(args.rejected);
    if (args.format != "text" && args.format != "json" && args.format != "markdown")
        return usage_error(
            fmt::format("--format must be text, json or markdown, not '{}'", args.format));
    if (args.color != "auto" && args.color != "always" && args.color != "never")
        return usage_error(
            fmt::format("--color must be auto, always or never, not '{}'", args.color));
    auto timeout = parse_duration(args.timeout);
    if (!timeout)
        return usage_error(fmt::format("--timeout: {}", timeout.error().message));
    if (*timeout <= Micros{0} || *timeout > max_timeout)
        return usage_error(
            fmt::format("--timeout must be above 0 and at most 1 hour, not {}", args.timeout));
    auto threshold = parse_duration(args.threshold);
    if (!threshold)
        return usage_error(fmt::format("--threshold: {}", threshold.error().message));
    if (*threshold <= Micros{0})
        return usage_error("--threshold must be above 0");
    if ((args.json && args.markdown) || ((args.json || args.markdown) && args.format != "text"))
        return usage_error("choose one output format");
    if (args.quiet && args.verbose > 0)
        return usage_error("-q and -v exclude each other");
    if (args.redact && args.no_redact)
        return usage_error("--redact and --no-redact exclude each other");
    out.timeout = *timeout;
    out.threshold = *threshold;
    out.format = args.json || args.format == "json"           ? Format::json
                 : args.markdown || args.format == "markdown" ? Format::markdown
                                                              : Format::text;
    out.color = args.color == "always"  ? ColorMode::always
                : args.color == "never" ? ColorMode::never
                                        : ColorMode::automatic;
    out.verbosity = args.quiet ? -1 : std::min(args.verbose, 2);
    out.redaction = {args.no_redact ? Secrets::keep : Secrets::redact, args.redact};
    if (!args.output.empty()) {
        auto file_format = output_file_format(args.output, args.command);
        if (!file_format)
            return file_format.error();
        out.file = args.output;
        out.file_format = *file_format;
    }
    return out;
}

int report_error(int code, const std::string& message) {
    // Messages quote what was typed (CLI11), the OS or the resolver: their
    // controls are escaped, and a URL's "user:pass@" is written "***@"
    // whichever option, argument or layer quoted it (docs/usage.md, Targets).
    std::fputs(fmt::format("loopcheck: error: {}\n",
                           escape_controls(one_line(redact_credentials(message))))
                   .c_str(),
               stderr);
    return code;
}

void set_usage_command(std::string_view command) {
    g_usage_command = command;
}

std::string usage_pointer() {
    return g_usage_command.empty() ? "see loopcheck --help"
                                   : fmt::format("see loopcheck {} --help", g_usage_command);
}

int usage_failure(const std::string& message) {
    // Messages that already point somewhere (the did-you-mean lines) keep
    // their own pointer.
    if (message.find("--help") != std::string::npos)
        return report_error(exit_code::usage, message);
    return report_error(exit_code::usage, fmt::format("{}; {}", message, usage_pointer()));
}

int run_failure(const Error& error) {
    if (error.kind == ErrorKind::usage)
        return usage_failure(error.message);
    const int code = error.kind == ErrorKind::usage     ? exit_code::usage
                     : error.kind == ErrorKind::resolve ? exit_code::unresolved
                                                        : exit_code::internal;
    return report_error(code, error.message);
}

Result<FileFormat> output_file_format(std::string_view path, Command command) {
    const auto ends = [&](std::string_view suffix) {
        if (path.size() <= suffix.size())
            return false;
        for (std::size_t i = 0; i < suffix.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(path[path.size() - suffix.size() + i])) !=
                suffix[i])
                return false;
        return true;
    };
    if (ends(".sarif") || ends(".sarif.json")) {
        if (command == Command::scan)
            return FileFormat::sarif;
        return usage_error(fmt::format("--output {}: SARIF is scan's; name a .json, .md or "
                                       ".txt file",
                                       Untrusted(std::string(path)).escaped()));
    }
    if (ends(".json"))
        return FileFormat::json;
    if (ends(".md") || ends(".markdown"))
        return FileFormat::markdown;
    if (ends(".txt") || ends(".log"))
        return FileFormat::text;
    return usage_error(fmt::format("--output {}: the name says the format: .json, .md or .txt{}",
                                   Untrusted(std::string(path)).escaped(),
                                   command == Command::scan ? " (or .sarif)" : ""));
}

std::optional<std::string> write_text_file(const std::string& path, const std::string& text) {
    // A stream, not fopen: the UCRT deprecates fopen and strerror, and a
    // char path would be read in the ANSI code page there.
    errno = 0;
    std::ofstream out(std::filesystem::path(std::u8string(path.begin(), path.end())),
                      std::ios::binary | std::ios::trunc);
    if (out)
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (out)
        out.close();
    if (out)
        return std::nullopt;
    const int err = errno;
    return err != 0 ? std::generic_category().message(err) : std::string("write failed");
}

namespace {

/// `text` without its colour (ESC [ ... m): a file is no terminal. Every
/// untrusted byte is escaped before it reaches a report, so an ESC here is
/// one loopcheck wrote.
std::string without_colour(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
            std::size_t end = i + 2;
            while (end < text.size() && text[end] != 'm')
                ++end;
            i = end;
            continue;
        }
        out += text[i];
    }
    return out;
}

/// The --output file's text, redacted as that file's format is.
std::string file_report(const Output& output, const Renderings& renderings) {
    Output as_file = output;
    switch (output.file_format) {
    case FileFormat::json:
        as_file.format = Format::json;
        return redacted_report(as_file, renderings.json());
    case FileFormat::markdown:
        as_file.format = Format::markdown;
        return redacted_report(as_file,
                               renderings.markdown ? renderings.markdown() : renderings.json());
    case FileFormat::sarif:
        as_file.format = Format::json;
        return redacted_report(as_file, renderings.sarif ? renderings.sarif() : renderings.json());
    case FileFormat::text:
        break;
    }
    as_file.format = Format::text;
    return redacted_report(as_file, without_colour(renderings.text()));
}

} // namespace

int write_report(const Output& output, const Renderings& renderings, int verdict) {
    // The file first, then stdout whatever became of the file: the
    // measurement is never lost for want of a writable path.
    std::optional<std::string> file_error;
    if (!output.file.empty())
        file_error = write_text_file(output.file, file_report(output, renderings));
    const auto& render = renderings.ci                       ? renderings.ci
                         : output.format == Format::json     ? renderings.json
                         : output.format == Format::markdown ? renderings.markdown
                                                             : renderings.text;
    if (output.on_stderr) {
        if (output.verbosity >= 0)
            std::fputs(redacted_report(output, render ? render() : renderings.text()).c_str(),
                       stderr);
        std::fflush(stderr);
    }
    const int code =
        output.on_stderr
            ? verdict
            : write_stdout(redacted_report(output, render ? render() : renderings.text()), verdict);
    if (file_error)
        return report_error(exit_code::internal,
                            fmt::format("cannot write --output {}: {}",
                                        Untrusted(output.file).escaped(), *file_error));
    return code;
}

std::string redacted_report(const Output& output, std::string text) {
    const Redaction& r = output.redaction;
    if (r.secrets == Secrets::keep || (output.format != Format::markdown && !r.home_everywhere))
        return text;
    // HOME on POSIX (and in Git Bash or MSYS on Windows), USERPROFILE in
    // cmd and PowerShell; redact_home knows every user's /home/NAME and
    // C:\Users\NAME besides.
    const auto home = platform::environment_variable("HOME");
    text = redact_home(text, home.value_or(""));
    if (const auto profile = platform::environment_variable("USERPROFILE"))
        text = redact_home(text, *profile);
    return text;
}

int write_stdout(std::string_view text, int verdict) {
    // A full disk (ENOSPC), a reader gone with SIGPIPE ignored (EPIPE) or a
    // file-size limit (EFBIG) fail here: the output was lost, and a script
    // that kept it must not read the probe's verdict (docs/robustness.md).
    // errno is taken at once: a later flush of an empty buffer keeps quiet.
    // A Ctrl-C while a large report waits on a full pipe interrupts the
    // write (EINTR): the rest is written, the report is never cut short.
    std::size_t written = 0;
    int write_errno = 0;
    while (written < text.size()) {
        errno = 0;
        written += std::fwrite(text.data() + written, 1, text.size() - written, stdout);
        write_errno = errno;
        if (written == text.size() || write_errno != EINTR)
            break;
        std::clearerr(stdout);
    }
    const bool whole = written == text.size();
    if (whole && flush_stdout_checked())
        return verdict;
    say_output_failure(write_errno);
    return exit_code::internal;
}

bool flush_stdout_checked() {
    errno = 0;
    bool ok = std::fflush(stdout) == 0 && !std::ferror(stdout);
    // Interrupted by a signal (Ctrl-C during the write): flush the rest.
    for (int tries = 0; !ok && errno == EINTR && tries < 100; ++tries) {
        std::clearerr(stdout);
        errno = 0;
        ok = std::fflush(stdout) == 0 && !std::ferror(stdout);
    }
    if (!ok)
        say_output_failure(errno);
    return ok;
}

void say_output_failure(int err) {
    if (g_output_failure_said)
        return;
    g_output_failure_said = true;
    std::fputs(fmt::format("loopcheck: error: cannot write to standard output: {}\n",
                           err != 0 ? std::generic_category().message(err) : "write error")
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
    if (const auto columns = platform::environment_variable("COLUMNS");
        columns && !columns->empty()) {
        char* end = nullptr;
        const long v = std::strtol(columns->c_str(), &end, 10);
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
    const auto no_color = platform::environment_variable("NO_COLOR");
    const auto term = platform::environment_variable("TERM");
    const auto force_color = platform::environment_variable("FORCE_COLOR");
    const auto clicolor_force = platform::environment_variable("CLICOLOR_FORCE");
    const auto c_str = [](const std::optional<std::string>& v) { return v ? v->c_str() : nullptr; };
    style.color = color_wanted(color, platform::is_terminal(platform::Stream::out),
                               {.no_color = c_str(no_color),
                                .term = c_str(term),
                                .force_color = c_str(force_color),
                                .clicolor_force = c_str(clicolor_force)});
    style.width = output_width();
    return style;
}

bool color_wanted(ColorMode color, bool terminal, const ColorEnv& env) {
    if (color != ColorMode::automatic)
        return color == ColorMode::always;
    const auto set = [](const char* v) { return v != nullptr && *v != '\0'; };
    if (set(env.no_color))
        return false;
    const std::string_view force = set(env.force_color) ? env.force_color : "";
    if (!force.empty() && force != "0" && force != "false")
        return true;
    if (set(env.clicolor_force) && std::string_view(env.clicolor_force) != "0")
        return true;
    const bool dumb = env.term != nullptr && std::string_view(env.term) == "dumb";
    return terminal && !dumb;
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
