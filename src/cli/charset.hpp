// Whether the terminal takes UTF-8, from the locale's environment
// (src/cli/charset.cpp): Unicode pictures or ASCII ones.
#pragma once

namespace loopcheck {

/// True when the locale's character set is UTF-8: the first set (non-empty)
/// of LC_ALL, LC_CTYPE and LANG, as POSIX orders them, names "UTF-8" or
/// "utf8" in any case ("en_US.UTF-8", "C.utf8"). Unset, "C" or "POSIX" is
/// ASCII. Null pointers mean unset.
bool locale_is_utf8(const char* lc_all, const char* lc_ctype, const char* lang);

/// locale_is_utf8() on this process's environment.
bool environment_is_utf8();

} // namespace loopcheck
