// `loopcheck scan` on one file's bytes: binary files skipped, invalid UTF-8
// counted (read anyway, shown escaped), notebooks by cell, the rest by line.
#include "loopcheck/core/scan/file.hpp"

#include "core/scan/classify.hpp"
#include "core/scan/context.hpp"
#include "loopcheck/core/scan/pins.hpp"

#include <cstring>

namespace loopcheck {

namespace {

constexpr std::size_t binary_probe = 8000; // as git: a NUL in the first 8000 bytes

bool valid_utf8(std::string_view s) noexcept {
    for (std::size_t i = 0; i < s.size();) {
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = utf8_sequence_length(s, i);
        if (n == 0)
            return false;
        i += n;
    }
    return true;
}

void name_skip(ScanSkips& skips, std::string_view path, std::string_view why, bool named) {
    if (named)
        skips.named.emplace_back(std::string(path) + " (" + std::string(why) + ")");
}

} // namespace

void scan_file_content(std::string_view path, Lang lang, std::string_view content, ScanResult& r,
                       bool name_skips, std::size_t root_length) {
    if (std::memchr(content.data(), 0, std::min(content.size(), binary_probe)) != nullptr) {
        ++r.skips.binary;
        name_skip(r.skips, path, "binary", name_skips);
        return;
    }
    ++r.files_read;
    r.bytes_read += content.size();
    if (is_pin_file(path))
        read_pins(path, content, r.pins);
    if (lang == Lang::other)
        return; // a lock or requirements file: its pins are all scan needs
    const bool loopback = may_mention_loopback(content);
    const bool binds = may_bind_server(content, lang);
    if (!loopback && !binds &&
        !(lang != Lang::markdown && !is_config_lang(lang) && may_read_env(content)))
        return;
    if (loopback && !valid_utf8(content)) {
        ++r.skips.invalid_utf8;
        name_skip(r.skips, path, "invalid UTF-8, read anyway", name_skips);
    }
    if (lang == Lang::notebook &&
        (!loopback || scan_notebook(path, content, r.hits, r.skips.long_lines, root_length)))
        return;
    FileScanner scanner(path, lang == Lang::notebook ? Lang::json : lang, root_length);
    scanner.record_env_reads(&r.env_reads);
    scanner.watch_binds(binds);
    while (!content.empty()) {
        const std::size_t nl = content.find('\n');
        scanner.line(content.substr(0, nl), r.hits);
        content = nl == std::string_view::npos ? std::string_view() : content.substr(nl + 1);
    }
    if (scanner.long_lines() > 0) {
        r.skips.long_lines += scanner.long_lines();
        name_skip(r.skips, path, "long lines, read around each hit", name_skips);
    }
}

void count_skip(ScanResult& r, std::string_view path, ScanFileSkip why, bool name_skips) {
    ScanSkips& s = r.skips;
    switch (why) {
    case ScanFileSkip::too_large:
        ++s.too_large;
        name_skip(s, path, "over the size cap", name_skips);
        break;
    case ScanFileSkip::unreadable:
        ++s.unreadable;
        name_skip(s, path, "unreadable", name_skips);
        break;
    case ScanFileSkip::not_regular:
        ++s.not_regular;
        name_skip(s, path, "not a regular file", name_skips);
        break;
    case ScanFileSkip::symlink_loop:
        ++s.symlink_loop;
        name_skip(s, path, "symlink loop", name_skips);
        break;
    case ScanFileSkip::vanished:
        break; // git lists tracked files deleted in the work tree
    }
}

} // namespace loopcheck
