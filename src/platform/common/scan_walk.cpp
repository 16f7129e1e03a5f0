// `loopcheck scan`'s walk of a tree that is not a git work tree: every file,
// skipping VCS, dependency, virtualenv, build and cache folders, never
// following a directory symlink (so a symlink loop cannot trap it).
#include "loopcheck/platform/common/scan_files.hpp"
#include "platform/common/utf8_path.hpp"

#include <array>
#include <filesystem>
#include <system_error>

namespace loopcheck::platform {

namespace fs = std::filesystem;

bool skipped_directory(std::string_view name) noexcept {
    static constexpr std::array<std::string_view, 22> names{
        ".git",        ".hg",   ".svn",   "node_modules", ".venv",         "venv",
        "__pycache__", ".tox",  ".nox",   ".mypy_cache",  ".pytest_cache", ".ruff_cache",
        "build",       "dist",  "target", ".next",        ".nuxt",         ".cache",
        ".gradle",     ".idea", "obj",    "site-packages"};
    for (std::string_view n : names)
        if (name == n)
            return true;
    return false;
}

Result<Listing> walk_scan_files(const std::string& root, const VisitFile& visit) {
    const fs::path top = path_from_utf8(root);
    std::error_code ec;
    const auto status = fs::status(top, ec);
    if (ec)
        return system_error(ec.message());
    if (!fs::is_directory(status))
        return visit(root), Listing::single_file;
    fs::recursive_directory_iterator it(top, fs::directory_options::skip_permission_denied, ec);
    if (ec)
        return system_error(ec.message());
    for (const fs::recursive_directory_iterator end; it != end; it.increment(ec)) {
        if (ec) { // an unreadable folder: skip it, keep walking
            ec.clear();
            continue;
        }
        const fs::directory_entry& entry = *it;
        const bool dir = entry.is_directory(ec) && !entry.is_symlink(ec);
        if (dir) {
            const std::string name = utf8_from_path(entry.path().filename());
            // A virtualenv of any name carries pyvenv.cfg.
            if (skipped_directory(name) || fs::exists(entry.path() / "pyvenv.cfg", ec))
                it.disable_recursion_pending();
            continue;
        }
        if (!visit(utf8_from_path(entry.path())))
            break;
    }
    return Listing::walk;
}

} // namespace loopcheck::platform
