// Combining several targets' exit codes by precedence.
#include "loopcheck/core/diagnose/exit_codes.hpp"

#include <array>

namespace loopcheck::exit_code {

int combine(int a, int b) noexcept {
    constexpr std::array order{interrupted, internal, usage,       unresolved, not_refused,
                               partial,     slow,     server_down, healthy};
    for (int code : order)
        if (a == code || b == code)
            return code;
    return a > b ? a : b;
}

} // namespace loopcheck::exit_code
