// The live lines on stderr: written in place with "\r\033[K", erased at
// the end, never on a pipe.
#include "cli/progress.hpp"

#include "loopcheck/platform/platform.hpp"

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
    if (p.elapsed < show_after_)
        return;
    const auto seconds = static_cast<double>(p.elapsed.count()) / 1e6;
    std::string text = fmt::format("waiting for {} ... {:.1f} s",
                                   endpoint_string(p.oldest->address), seconds);
    if (p.pending > 1)
        text += fmt::format(" ({} pending)", p.pending);
    line_.show(text);
}

bool live_lines_wanted(int verbosity) {
    return verbosity >= 0 && platform::is_terminal(platform::Stream::err);
}

} // namespace loopcheck
