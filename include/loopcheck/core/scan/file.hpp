// `loopcheck scan` on one file: its bytes into hits and counts
// (src/core/scan/file.cpp). The platform layer reads; this decides.
#pragma once

#include "loopcheck/core/scan/scan.hpp"

#include <cstdint>
#include <string_view>

namespace loopcheck {

/// Why a listed file was not read (the platform's reasons, as the report counts them).
enum class ScanFileSkip : std::uint8_t {
    too_large,
    unreadable,
    not_regular,
    symlink_loop,
    vanished
};

/// Adds one file's hits and counts to `r`: a NUL in the first 8000 bytes is
/// a binary file (skipped); a file with no loopback needle costs one search;
/// invalid UTF-8 is counted and read anyway. `name_skips` (-v) also records
/// the file's name with each caveat. The first `root_length` bytes of
/// `path` are the scanned root (not looked at for test folders).
void scan_file_content(std::string_view path, Lang lang, std::string_view content, ScanResult& r,
                       bool name_skips, std::size_t root_length = 0);

/// Counts a file that was listed but not read.
void count_skip(ScanResult& r, std::string_view path, ScanFileSkip why, bool name_skips);

} // namespace loopcheck
