// Whether the terminal takes UTF-8: the locale's variables, in POSIX's
// order of precedence, for the staircase's Unicode or ASCII bars.
#include "cli/charset.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

namespace loopcheck {

bool locale_is_utf8(const char* lc_all, const char* lc_ctype, const char* lang) {
    for (const char* value : {lc_all, lc_ctype, lang}) {
        if (value == nullptr || *value == '\0')
            continue;
        std::string v(value);
        std::transform(v.begin(), v.end(), v.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        // The first one set decides, UTF-8 or not (LC_ALL=C wins over LANG).
        return v.find("utf-8") != std::string::npos || v.find("utf8") != std::string::npos;
    }
    return false;
}

bool environment_is_utf8() {
    return locale_is_utf8(std::getenv("LC_ALL"), std::getenv("LC_CTYPE"), std::getenv("LANG"));
}

} // namespace loopcheck
