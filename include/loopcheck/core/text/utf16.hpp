// UTF-16 to UTF-8, for text that Windows hands out as UTF-16 (FormatMessageW,
// process and file names, WMI strings). Pure, so it is tested on every OS.
#pragma once

#include <string>
#include <string_view>

namespace loopcheck {

/// The UTF-8 form of `text`. A surrogate without its partner (Windows
/// names may hold one; they are not valid Unicode) becomes U+FFFD, so the
/// result is always valid UTF-8 and a JSON writer or console can take it.
/// An embedded U+0000 is kept as a 0 byte.
std::string utf16_to_utf8(std::u16string_view text);

} // namespace loopcheck
