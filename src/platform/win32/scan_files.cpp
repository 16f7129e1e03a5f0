// Windows: `loopcheck scan`'s file list is the walk (no git process yet) and
// a file is read only when std::filesystem says it is a regular file.
// Every file of this folder takes the Windows headers through the one shared
// header first (tests/windows/check_headers.py), even one that needs none.
#include "loopcheck/platform/common/scan_files.hpp"

#include "platform/common/utf8_path.hpp"
#include "platform/win32/winsock.hpp"

#include <filesystem>
#include <fstream>
#include <system_error>

namespace loopcheck::platform {

namespace fs = std::filesystem;

Result<Listing> list_scan_files(const std::string& root, const VisitFile& visit) {
    return walk_scan_files(root, visit);
}

FileSkip read_scan_file(const std::string& utf8_path, std::uint64_t max_bytes,
                        std::string& buffer) {
    buffer.clear();
    const fs::path path = path_from_utf8(utf8_path);
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec)
        return ec == std::errc::too_many_symbolic_link_levels ? FileSkip::symlink_loop
               : ec == std::errc::no_such_file_or_directory   ? FileSkip::vanished
                                                              : FileSkip::unreadable;
    if (!fs::is_regular_file(status))
        return FileSkip::not_regular;
    const auto size = fs::file_size(path, ec);
    if (ec)
        return FileSkip::unreadable;
    if (size > max_bytes)
        return FileSkip::too_large;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return FileSkip::unreadable;
    buffer.resize(static_cast<std::size_t>(size));
    in.read(buffer.data(), static_cast<std::streamsize>(size));
    buffer.resize(static_cast<std::size_t>(in.gcount()));
    return FileSkip::none;
}

} // namespace loopcheck::platform
