// Whether the terminal takes UTF-8: the locale's variables, in POSIX's
// order of precedence, for the staircase's Unicode or ASCII bars.
#include "cli/charset.hpp"

#include "loopcheck/platform/platform.hpp"

#include <algorithm>
#include <cctype>
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
    const auto lc_all = platform::environment_variable("LC_ALL");
    const auto lc_ctype = platform::environment_variable("LC_CTYPE");
    const auto lang = platform::environment_variable("LANG");
    return locale_is_utf8(lc_all ? lc_all->c_str() : nullptr,
                          lc_ctype ? lc_ctype->c_str() : nullptr, lang ? lang->c_str() : nullptr);
}

} // namespace loopcheck
