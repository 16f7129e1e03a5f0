// loopcheck's version, set by the build (src/run/CMakeLists.txt).
#include "loopcheck/run/version.hpp"

#ifndef LOOPCHECK_VERSION
#error "LOOPCHECK_VERSION must be defined by the build"
#endif

namespace loopcheck {

std::string_view version() noexcept {
    return LOOPCHECK_VERSION;
}

} // namespace loopcheck
