// Small text files a run reads (the hosts file, /etc/gai.conf), with a cap.
#include "loopcheck/platform/platform.hpp"

#include <algorithm>
#include <array>
#include <fstream>

namespace loopcheck::platform {

std::optional<std::string> read_text_file(const std::string& path, std::size_t max_bytes) {
    // Read in small steps: a hosts file is a few hundred bytes, and a buffer
    // of the whole cap, zero-filled up front, cost every run about 256 page
    // faults, a third of a start (docs/performance.md).
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::string content;
    std::array<char, 4096> chunk{};
    while (content.size() < max_bytes) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        content.append(chunk.data(), std::min(got, max_bytes - content.size()));
    }
    return content;
}

} // namespace loopcheck::platform
