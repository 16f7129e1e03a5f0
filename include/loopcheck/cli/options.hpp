// The command line's shared options, declared and validated once for every
// command (src/cli/options.cpp), and what `loopcheck TARGET...` asked for.
#pragma once

#include "loopcheck/core/duration.hpp"
#include "loopcheck/core/emulation_model.hpp"
#include "loopcheck/core/address.hpp"
#include "loopcheck/core/result.hpp"
#include "loopcheck/platform/platform.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace loopcheck {

enum class Format : std::uint8_t { text, json, markdown };
enum class ColorMode : std::uint8_t { automatic, always, never };

struct Options {
    std::vector<std::string> targets; ///< empty: the self-check
    Micros timeout{5'000'000};
    Micros threshold{100'000};
    int count = 1;
    FamilyFilter family = FamilyFilter::any;
    Format format = Format::text;
    ColorMode color = ColorMode::automatic;
    int verbosity = 0; ///< -1 quiet, 0 normal, 1 -v, 2 -vv
    bool expect_refused = false;
    bool no_pair = false;
    bool quick = false;             ///< --quick: infer default-stack refusals on Windows loopback
    std::optional<int> syn_retries; ///< --syn-retries N on every probe
    std::vector<EmulationSpec> emulate; ///< --emulate, in the order given
    std::string command_line;           ///< as typed, for the Markdown report

    friend bool operator==(const Options&, const Options&) = default;
};

/// Bounds the command line enforces (documented in docs/usage.md).
inline constexpr int max_count = 10'000;
inline constexpr Micros max_timeout{3'600'000'000LL};

/// The options several commands share, as typed on the command line.
struct CommonArgs {
    std::string timeout = "5s";
    std::string threshold = "100ms";
    std::string format = "text";
    std::string color = "auto";
    bool json = false, markdown = false, quiet = false;
    int verbose = 0;
};

/// Which of the shared options a command offers.
struct CommonSet {
    bool timeout = true;
    bool threshold = true;
    bool format = true; ///< --format, --json, --markdown (false: --json only)
    bool color = true;
    bool quiet = true;
};

/// The shared options, validated.
struct CommonOptions {
    Micros timeout{5'000'000};
    Micros threshold{100'000};
    Format format = Format::text;
    ColorMode color = ColorMode::automatic;
    int verbosity = 0; ///< -1 quiet, 0 normal, 1 -v, 2 -vv
};

/// Declares the shared options on `app` (the main command or a
/// subcommand), writing into `args`, which must outlive the parse.
void add_common_options(CLI::App& app, CommonArgs& args, const CommonSet& which = {});

/// Pure: the shared options, or the one-line usage error (without the
/// "loopcheck: error: " prefix). Durations as parse_duration reads them;
/// --timeout in (0, 1 h], --threshold above 0, one output format, -q and
/// -v exclusive.
Result<CommonOptions> validate_common(const CommonArgs& args);

/// Copies the shared options into a check's options.
void apply_common(Options& opt, const CommonOptions& common);

/// The one error printer: "loopcheck: error: <message>" on one line of
/// stderr (newlines folded); returns `code`.
int report_error(int code, const std::string& message);

/// report_error(exit_code::usage, message).
int usage_failure(const std::string& message);

/// How a report looks in each format; a command without Markdown leaves
/// `markdown` empty and never selects it.
struct Renderings {
    std::function<std::string()> text;
    std::function<std::string()> json;
    std::function<std::string()> markdown;
};

/// Renders the report in `format` and writes it to stdout, flushed.
void write_report(Format format, const Renderings& renderings);

/// What every measuring command sets up first: logging at `verbosity` on
/// stderr, the Ctrl-C/SIGTERM handler (request_stop), and the OS's socket
/// library, which stays up while this lives.
class CommandSetup {
public:
    explicit CommandSetup(int verbosity);
    CommandSetup(const CommandSetup&) = delete;
    CommandSetup& operator=(const CommandSetup&) = delete;

    /// The exit code to return when the socket library failed (the error
    /// is printed already); nullopt when all is well.
    [[nodiscard]] std::optional<int> failed() const;

private:
    platform::NetworkScope network_;
};

} // namespace loopcheck
