#include "loopcheck/text.hpp"

#include <fmt/format.h>

namespace loopcheck {

std::string escape_nonprintable(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (unsigned char c : s) {
        if (c < 0x20 || c >= 0x7f)
            out += fmt::format("\\x{:02x}", c);
        else
            out += static_cast<char>(c);
    }
    return out;
}

} // namespace loopcheck
