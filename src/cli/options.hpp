// The options every command shares, declared and validated once
// (src/cli/options.cpp), and what every command does around its run:
// set-up, the one error printer, writing the report.
#pragma once

#include "cli/option_table.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/redact.hpp"
#include "loopcheck/core/result.hpp"
#include "loopcheck/platform/platform.hpp"
#include "loopcheck/report/text.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace loopcheck {

enum class Format : std::uint8_t { text, json, markdown };
enum class ColorMode : std::uint8_t { automatic, always, never };

/// What a report hides (docs/usage.md, "Redaction"): secrets always,
/// unless --no-redact; home paths in Markdown (the format pasted into
/// tickets), and with --redact in every format.
struct Redaction {
    Secrets secrets = Secrets::redact;
    bool home_everywhere = false; ///< --redact

    friend bool operator==(const Redaction&, const Redaction&) = default;
};

/// --output FILE's format, from the file's name.
enum class FileFormat : std::uint8_t { text, json, markdown, sarif };

/// How a command's report is written: format, colour, how much goes to
/// stderr, what it hides, and the file it also goes to.
struct Output {
    Format format = Format::text;
    ColorMode color = ColorMode::automatic;
    int verbosity = 0; ///< -1 quiet, 0 normal, 1 -v, 2 -vv
    Redaction redaction{};
    std::string file{};                        ///< --output: "" for none
    FileFormat file_format = FileFormat::json; ///< the file's, from its name
    /// The report goes to stderr, not stdout (none with -q): `wait --
    /// COMMAND` leaves stdout to the command it runs.
    bool on_stderr = false;

    friend bool operator==(const Output&, const Output&) = default;
};

/// Bounds the command line enforces (documented in docs/usage.md).
inline constexpr int max_count = 10'000;
inline constexpr long long max_probes_limit = 100'000'000;
inline constexpr Micros max_timeout{3'600'000'000LL};

/// An integer option's bounds, both included.
struct IntegerBounds {
    long long low = 0;
    long long high = 0;
};

/// The bounds of the integer option `option` ("--count") of `command` (""
/// for the check, "staircase"), or none when it takes no integer: its row
/// in the option table (cli/option_table.cpp). One place for the range
/// check and for a number too large to convert at all.
std::optional<IntegerBounds> integer_bounds(std::string_view command, std::string_view option);

/// "--count must be from 1 to 10000, not 99999999999" when `value` is out
/// of `option`'s bounds; none when it is within them.
std::optional<std::string> bounds_error(std::string_view command, std::string_view option,
                                        std::string_view value);

/// The options several commands share, as typed on the command line.
struct CommonArgs {
    std::string timeout = "5s";
    std::string threshold = "100ms";
    std::string format = "text";
    std::string color = "auto";
    bool json = false, markdown = false, quiet = false;
    bool redact = false, no_redact = false;
    int verbose = 0;
    std::string output{}; ///< --output FILE
    /// The command these are declared for (add_common_options): --output
    /// takes .sarif for scan only.
    Command command = Command::check;
    /// Set during the parse when a shared option that does not apply to
    /// this command was typed: its one-line reason (validate_common fails).
    std::string rejected{};
};

/// The shared options, validated.
struct CommonOptions {
    Micros timeout{5'000'000};
    Micros threshold{100'000};
    Format format = Format::text;
    ColorMode color = ColorMode::automatic;
    int verbosity = 0; ///< -1 quiet, 0 normal, 1 -v, 2 -vv
    Redaction redaction{};
    std::string file{};
    FileFormat file_format = FileFormat::json;

    [[nodiscard]] Output output() const {
        return {format, color, verbosity, redaction, file, file_format};
    }
};

/// Declares the option `name` ("--timeout", or a positional's name) as
/// `command`'s row in the option table says (names, value, help, required),
/// writing into `target`, which must outlive the parse. The row must exist
/// (tests/cli/option_table_test.cpp declares every command).
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name,
                              std::string& target);
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name,
                              std::vector<std::string>& target);
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name, int& target);
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name,
                              std::optional<int>& target);
CLI::Option* add_table_option(CLI::App& app, Command command, std::string_view name, bool& target);

/// Declares the shared options `command` takes (every command accepts them
/// before or after its name: cli/usage.cpp moves them after it), writing
/// into `args`; and, hidden, every option the table gives `command` a
/// reason not to take: typing one is a usage error with that reason, never
/// silently ignored.
void add_common_options(CLI::App& app, CommonArgs& args, Command command);

/// Pure: the shared options, or the one-line usage error (without the
/// "loopcheck: error: " prefix). Durations as parse_duration reads them;
/// --timeout in (0, 1 h], --threshold above 0, one output format, -q and
/// -v exclusive.
Result<CommonOptions> validate_common(const CommonArgs& args);

/// Usage errors name the command whose --help to read ("see loopcheck
/// audit --help"); the parse sets it once it knows the subcommand.
void set_usage_command(std::string_view command);

/// The pointer every usage error ends with: "see loopcheck --help" or
/// "see loopcheck COMMAND --help".
std::string usage_pointer();

/// The one error printer: "loopcheck: error: <message>" on one line of
/// stderr (newlines folded); returns `code`.
int report_error(int code, const std::string& message);

/// report_error(exit_code::usage, message + "; " + usage_pointer()).
int usage_failure(const std::string& message);

/// The exit code for an Error from a run (usage 2, resolve 4, else 5),
/// printed with report_error.
int run_failure(const Error& error);

/// How a report looks in each format; a command without Markdown leaves
/// `markdown` empty and never selects it. Only scan has `sarif` (for a
/// .sarif --output) and `ci`: what stdout gets instead with its --format
/// sarif, github or short.
struct Renderings {
    std::function<std::string()> text;
    std::function<std::string()> json;
    std::function<std::string()> markdown;
    std::function<std::string()> sarif{};
    std::function<std::string()> ci{};
};

/// --output's format from the file's name: .json, .md or .markdown, .txt
/// or .log, and for scan .sarif (or .sarif.json); the usage error for any
/// other name.
Result<FileFormat> output_file_format(std::string_view path, Command command);

/// Writes `text` to `path` whole, as UTF-8 bytes (PowerShell 5.1's `>`
/// would write UTF-16); the error's words when it could not.
std::optional<std::string> write_text_file(const std::string& path, const std::string& text);

/// Renders the report in `output`'s format and writes it to stdout
/// (write_stdout), redacted as `output` says (redacted_report); with
/// --output, first the file's format to that file. A file that cannot be
/// written is exit 5 ("cannot write --output FILE: ..."), the report still
/// on stdout.
[[nodiscard]] int write_report(const Output& output, const Renderings& renderings, int verdict);

/// A rendered report as `output` says it is shown: home directories
/// written "~" in Markdown, and in every format with --redact; as it is
/// with --no-redact. Every report leaves through here (a file too).
std::string redacted_report(const Output& output, std::string text);

/// Writes `text` to stdout, flushed: `verdict` when every byte was
/// written, else exit_code::internal after one line on stderr naming the
/// error (ENOSPC, EPIPE with SIGPIPE ignored, EFBIG). Reports, help and
/// version text all go through it.
[[nodiscard]] int write_stdout(std::string_view text, int verdict);

/// Flushes stdout; false after a failed or short write, said once.
bool flush_stdout_checked();

/// The one line on stderr for lost output (once per run); `err` is the
/// errno of the failed write, 0 when unknown.
void say_output_failure(int err);

/// The exit code once everything was written: `code`, or
/// exit_code::internal when stdout or stderr lost a write. main() ends
/// with it, so that every line written along the way is checked too.
int finish_output(int code);

/// The width every text line fits in: COLUMNS when set (20 to 1000), the
/// terminal's when stdout is one, else 100.
int output_width();
/// The text style: colour as --color, NO_COLOR, TERM and the terminal say; the
/// width above; everything (every row, every fix) with `verbose` (-v).
TextStyle text_style(ColorMode color, bool verbose = false);

/// The environment variables that decide colour with --color=auto; null
/// for one that is not set.
struct ColorEnv {
    const char* no_color = nullptr;       ///< NO_COLOR (no-color.org)
    const char* term = nullptr;           ///< TERM
    const char* force_color = nullptr;    ///< FORCE_COLOR (force-color.org)
    const char* clicolor_force = nullptr; ///< CLICOLOR_FORCE (bixense.com/clicolors)
};

/// Whether the text report is coloured: always with --color=always, never
/// with --color=never. With auto: never when NO_COLOR is set (non-empty;
/// the user's own choice wins, as bixense.com/clicolors orders it); always
/// when FORCE_COLOR is set non-empty and is not "0" or "false" (Node's
/// convention for "off") or CLICOLOR_FORCE is set and not "0", which is
/// how CI services that are no terminal (GitHub Actions) ask for it; else
/// on a terminal whose TERM is not "dumb" (one that cannot show escape
/// sequences, such as Emacs' shell buffer).
bool color_wanted(ColorMode color, bool terminal, const ColorEnv& env);

/// What every measuring command sets up first: logging at `verbosity` on
/// stderr, the Ctrl-C/SIGTERM handler (request_stop), and the OS's socket
/// library, which stays up while this lives.
class CommandSetup {
public:
    explicit CommandSetup(int verbosity);
    CommandSetup(const CommandSetup&) = delete;
    CommandSetup& operator=(const CommandSetup&) = delete;

    /// The exit code to return when the socket library failed or the
    /// descriptor limit is below min_descriptors (the error is printed
    /// already); nullopt when all is well.
    [[nodiscard]] std::optional<int> failed() const;

    /// Descriptors one run needs at the least (docs/robustness.md).
    static constexpr std::size_t min_descriptors = 16;

private:
    platform::NetworkScope network_;
    bool too_few_descriptors_ = false;
};

} // namespace loopcheck
