// Small text helpers shared by the parsers.
#pragma once

#include <string>
#include <string_view>

namespace loopcheck {

/// `s` with every byte outside printable ASCII written as \xHH, so that
/// user input or file content quoted in a message can never reach the
/// terminal as a control sequence or invalid UTF-8.
std::string escape_nonprintable(std::string_view s);

} // namespace loopcheck
