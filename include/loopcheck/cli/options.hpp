// What the command line asked for, after parsing and validation.
#pragma once

#include "loopcheck/core/duration.hpp"
#include "loopcheck/core/emulation_model.hpp"
#include "loopcheck/platform/platform.hpp"

#include <optional>
#include <string>
#include <vector>

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
};

/// Bounds the command line enforces (documented in docs/usage.md).
inline constexpr int max_count = 10'000;
inline constexpr Micros max_timeout{3'600'000'000LL};

} // namespace loopcheck
