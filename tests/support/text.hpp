// String helpers every test binary may use (the core tests included: no
// platform header here).
#pragma once

#include <string>

namespace loopcheck::test {

inline bool contains(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

} // namespace loopcheck::test
