#include "loopcheck/cli/progress.hpp"

#include <cstdio>
#include <fmt/format.h>

namespace loopcheck {

ProgressFn ProgressLine::callback() {
    if (!enabled_)
        return {};
    return [this](const ProbeProgress& p) { show(p); };
}

void ProgressLine::show(const ProbeProgress& p) {
    if (p.elapsed < show_after_ || p.oldest == nullptr)
        return;
    const auto seconds = static_cast<double>(p.elapsed.count()) / 1e6;
    std::string text = fmt::format("\r\033[Kwaiting for {} ... {:.1f} s",
                                   endpoint_string(p.oldest->address), seconds);
    if (p.pending > 1)
        text += fmt::format(" ({} pending)", p.pending);
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    shown_ = true;
}

void ProgressLine::clear() {
    if (!shown_)
        return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_ = false;
}

} // namespace loopcheck
