// Small text files a run reads (the hosts file, /etc/gai.conf), with a cap.
#include "loopcheck/platform/platform.hpp"
#include "platform/common/utf8_path.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <system_error>

namespace loopcheck::platform {

namespace {

/// What a file that is not regular is, in a phrase; empty for a regular one.
std::string special_kind(std::filesystem::file_type type) {
    using std::filesystem::file_type;
    switch (type) {
    case file_type::regular:
        return {};
    case file_type::directory:
        return "a directory";
    case file_type::fifo:
        return "a FIFO";
    case file_type::character:
    case file_type::block:
        return "a device";
    case file_type::socket:
        return "a socket";
    default:
        return "not a file";
    }
}

} // namespace

TextFile read_text_file(const std::string& utf8_path, std::size_t max_bytes) {
    const auto path = path_from_utf8(utf8_path);
    // The type first, following symlinks: opening a FIFO blocks until a
    // writer comes (a hosts file as a FIFO hung every run), and a device
    // may never end. Only a regular file is opened.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec)
        return {std::nullopt, fmt::format("could not be read: {}", ec.message()), false};
    if (const auto kind = special_kind(status.type()); !kind.empty())
        return {std::nullopt, fmt::format("is {}, not a regular file: not read", kind),
                status.type() != std::filesystem::file_type::directory};
    // Read in small steps: a hosts file is a few hundred bytes, and a buffer
    // of the whole cap, zero-filled up front, cost every run memory it never
    // used (docs/performance.md).
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {std::nullopt, "could not be opened", false};
    TextFile out{std::string{}, {}, false};
    std::string& content = *out.text;
    std::array<char, 4096> chunk{};
    bool more = false; // bytes after the cap
    while (!more) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        const std::size_t room = max_bytes - content.size();
        content.append(chunk.data(), std::min(got, room));
        more = got > room ||
               (content.size() == max_bytes && in.peek() != std::ifstream::traits_type::eof());
    }
    if (in.bad())
        return {std::nullopt, "could not be read: a read error", false};
    if (more)
        out.problem = fmt::format("is larger than {} bytes: only the first {} were read, and "
                                  "entries after them are not listed",
                                  max_bytes, max_bytes);
    return out;
}

std::string read_file_range(const std::string& utf8_path, std::uint64_t offset,
                            std::size_t length) {
    const auto path = path_from_utf8(utf8_path);
    std::error_code ec;
    // Regular files only: a FIFO or a device would block or never end.
    if (!std::filesystem::is_regular_file(path, ec))
        return {};
    std::ifstream in(path, std::ios::binary);
    if (!in || !in.seekg(static_cast<std::streamoff>(offset)))
        return {};
    std::string out(length, '\0');
    in.read(out.data(), static_cast<std::streamsize>(length));
    out.resize(static_cast<std::size_t>(in.gcount()));
    return out;
}

} // namespace loopcheck::platform
