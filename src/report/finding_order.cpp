// The findings, most severe first: an `ok healthy` line was listed after
// the `info` ones (issue 24).
#include "report/finding_order.hpp"

#include <algorithm>

namespace loopcheck {

namespace {

int rank(Severity s) {
    switch (s) {
    case Severity::error:
        return 3;
    case Severity::warning:
        return 2;
    case Severity::ok:
        return 1;
    case Severity::info:
        return 0;
    }
    return 0;
}

} // namespace

std::vector<const Finding*> by_severity(const std::vector<Finding>& findings) {
    std::vector<const Finding*> out;
    out.reserve(findings.size());
    for (const auto& f : findings)
        out.push_back(&f);
    std::stable_sort(out.begin(), out.end(), [](const Finding* a, const Finding* b) {
        return rank(a->severity) > rank(b->severity);
    });
    return out;
}

} // namespace loopcheck
