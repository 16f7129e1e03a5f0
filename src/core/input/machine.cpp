// Enum class Os and its label.
#include "loopcheck/core/input/machine.hpp"

namespace loopcheck {

std::string_view os_label(Os os) noexcept {
    switch (os) {
    case Os::linux_:
        return "Linux";
    case Os::macos:
        return "macOS";
    case Os::windows:
        return "Windows";
    case Os::other:
        break;
    }
    return "other";
}

} // namespace loopcheck
