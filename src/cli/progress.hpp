// The live lines on stderr: "waiting for [::1]:11434 ... 1.2 s" while
// probes wait, and wait's status line (src/cli/progress.cpp).
#pragma once

#include "loopcheck/run/progress.hpp"

#include <cstddef>
#include <string>

namespace loopcheck {

/// One self-erasing line on stderr; does nothing when disabled (not a
/// terminal, -q). Erased when destroyed.
class LiveLine {
public:
    explicit LiveLine(bool enabled) : enabled_(enabled) {}
    ~LiveLine() { clear(); }
    LiveLine(const LiveLine&) = delete;
    LiveLine& operator=(const LiveLine&) = delete;

    /// Shows `text` in place of the last line; "" erases it.
    void show(const std::string& text);
    void clear() { show(""); }
    /// A LiveLineFn that shows its lines here; empty when disabled.
    LiveLineFn function();

private:
    bool enabled_;
    bool shown_ = false;
};

/// The probes' live line: shown once a probe has waited longer than
/// `show_after`.
class ProgressLine {
public:
    explicit ProgressLine(bool enabled, Micros show_after = Micros{300'000});

    /// The callback to hand to a run; empty when disabled.
    ProgressFn callback();
    /// Erases the line if one is shown.
    void clear() { line_.clear(); }

private:
    void show(const ProbeProgress& p);

    LiveLine line_;
    bool enabled_;
    Micros show_after_;
    std::size_t width_ = 0; ///< the terminal's, 0 when unknown
};

/// The probes' live line for one progress report, at most `width` - 1
/// columns (0: no limit): "waiting for [::1]:11434 ... 1.2 s (2 pending)";
/// with rounds "round 3/10: waiting for 127.0.0.1:5432 ... 0.9 s, 2.4 s in
/// all"; the staircase's starts "limit 2 of 0..5, round 1/3: ". Empty when
/// the probing is over.
std::string progress_text(const ProbeProgress& p, std::size_t width);

/// Whether stderr may carry a live line at `verbosity` (not -q, a terminal).
bool live_lines_wanted(int verbosity);

} // namespace loopcheck
