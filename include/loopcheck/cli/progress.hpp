// The live "waiting for [::1]:11434 ... 1.2 s" line on stderr.
#pragma once

#include "loopcheck/platform/common/probe.hpp"

namespace loopcheck {

/// Shows one self-erasing line on stderr once a probe has waited longer
/// than `show_after`; does nothing when disabled (not a terminal, -q).
class ProgressLine {
public:
    explicit ProgressLine(bool enabled, Micros show_after = Micros{300'000})
        : enabled_(enabled), show_after_(show_after) {}
    ~ProgressLine() { clear(); }
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    /// The callback to hand to probe(); empty when disabled.
    ProgressFn callback();
    /// Erases the line if one is shown.
    void clear();

private:
    void show(const ProbeProgress& p);

    bool enabled_;
    Micros show_after_;
    bool shown_ = false;
};

} // namespace loopcheck
