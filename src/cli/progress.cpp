// The live lines on stderr: written in place with "\r\033[K", erased at
// the end, never on a pipe.
#include "cli/progress.hpp"

#include "loopcheck/core/measure/staircase.hpp"
#include "loopcheck/platform/platform.hpp"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>

namespace loopcheck {

void LiveLine::show(const std::string& text) {
    if (!enabled_ || (text.empty() && !shown_))
        return;
    std::fputs(("\r\033[K" + text).c_str(), stderr);
    std::fflush(stderr);
    shown_ = !text.empty();
}

LiveLineFn LiveLine::function() {
    if (!enabled_)
        return {};
    return [this](const std::string& text) { show(text); };
}

ProgressLine::ProgressLine(bool enabled, Micros show_after)
    : line_(enabled), enabled_(enabled), show_after_(show_after) {
    if (enabled) {
        const int width = platform::terminal_width();
        width_ = width > 0 ? static_cast<std::size_t>(width) : 0;
    }
}

ProgressFn ProgressLine::callback() {
    if (!enabled_)
        return {};
    return [this](const ProbeProgress& p) { show(p); };
}

void ProgressLine::show(const ProbeProgress& p) {
    if (p.oldest == nullptr) { // the probing is over: conclusions and emulations follow
        line_.clear();
        return;
    }
    // Once shown, the line stays through later rounds: it no longer waits
    // for each new probe to pass show_after again.
    if (std::max(p.elapsed, p.run_elapsed) < show_after_)
        return;
    line_.show(progress_text(p, width_));
}

std::string progress_text(const ProbeProgress& p, std::size_t width) {
    if (p.oldest == nullptr)
        return {};
    const auto seconds = [](Micros us) { return static_cast<double>(us.count()) / 1e6; };
    std::string where;
    if (p.limit >= 0)
        where = fmt::format("limit {} of 0..{}", p.limit, staircase_max_limit);
    if (p.rounds > 0)
        where += fmt::format("{}round {}/{}", where.empty() ? "" : ", ", p.round, p.rounds);
    std::string text = where.empty() ? std::string() : where + ": ";
    text += fmt::format("waiting for {} ... {:.1f} s", endpoint_string(p.oldest->address),
                        seconds(p.elapsed));
    if (p.pending > 1)
        text += fmt::format(" ({} pending)", p.pending);
    if (!where.empty())
        text += fmt::format(", {:.1f} s in all", seconds(p.run_elapsed));
    // A line wider than the terminal wraps, and "\r" then rewrites only its
    // last row: the rest would stay on screen, one more each update.
    if (width > 1 && text.size() > width - 1)
        text.resize(width - 1);
    return text;
}

bool live_lines_wanted(int verbosity) {
    return verbosity >= 0 && platform::is_terminal(platform::Stream::err);
}

} // namespace loopcheck
