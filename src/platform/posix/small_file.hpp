// Reading the small text files of /proc without iostreams. Private to
// src/platform/ on POSIX systems.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace loopcheck::platform::posix {

/// The first `cap` bytes of the file at `path`; std::nullopt when it cannot
/// be opened or read. A std::ifstream would allocate a buffer and reach
/// for the C++ locale for a file of a few bytes (docs/performance.md).
std::optional<std::string> read_small_file(const char* path, std::size_t cap);

} // namespace loopcheck::platform::posix
