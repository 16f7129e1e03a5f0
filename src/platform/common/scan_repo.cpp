// `loopcheck scan`'s place in a repository: the root that holds .git, the
// config file found by walking up to it, paths from it, and the one
// argument list every git run starts with (written once for every OS).
#include "loopcheck/platform/common/scan_files.hpp"
#include "platform/common/utf8_path.hpp"

#include <filesystem>
#include <system_error>

namespace loopcheck::platform {

namespace fs = std::filesystem;

namespace {

/// The folder to start from: `start` itself, or the folder of a file.
fs::path start_folder(const std::string& start) {
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path_from_utf8(start), ec), ec);
    if (!fs::is_directory(p, ec))
        p = p.parent_path();
    return p;
}

/// With '/' between names on every OS, as UTF-8 (see utf8_path.hpp).
std::string generic_utf8(const fs::path& p) {
    const std::u8string u8 = p.generic_u8string();
    return std::string(u8.begin(), u8.end());
}

} // namespace

std::string repository_root(const std::string& start) {
    std::error_code ec;
    for (fs::path d = start_folder(start); !d.empty(); d = d.parent_path()) {
        if (fs::exists(d / ".git", ec))
            return utf8_from_path(d);
        if (d == d.root_path())
            break;
    }
    return {};
}

std::string find_upward(const std::string& start, std::string_view name) {
    std::error_code ec;
    const std::string root = repository_root(start);
    for (fs::path d = start_folder(start); !d.empty(); d = d.parent_path()) {
        const fs::path candidate = d / path_from_utf8(name);
        if (fs::is_regular_file(candidate, ec))
            return utf8_from_path(candidate);
        if ((!root.empty() && d == path_from_utf8(root)) || d == d.root_path())
            break;
    }
    return {};
}

std::string relative_path(const std::string& base, const std::string& path) {
    std::error_code ec;
    const fs::path b = fs::weakly_canonical(fs::absolute(path_from_utf8(base), ec), ec);
    // The folder resolved, the name itself not: a symlinked file keeps its
    // own name in the tree.
    fs::path q = fs::absolute(path_from_utf8(path), ec).lexically_normal();
    if (!q.has_filename())
        q = q.parent_path();
    const fs::path p = fs::weakly_canonical(q.parent_path(), ec) / q.filename();
    const fs::path rel = p.lexically_relative(b);
    if (rel == ".")
        return {};
    if (rel.empty()) // another drive on Windows
        return generic_utf8(path_from_utf8(path).lexically_normal());
    return generic_utf8(rel);
}

std::string join_generic(std::string_view rel_root, std::string_view within) {
    // lexically_normal: Windows' walk lists ".\\app.py" where git and POSIX
    // say "app.py", and a fingerprint must not depend on which listed it.
    std::string inner = generic_utf8(path_from_utf8(within).lexically_normal());
    if (inner == ".")
        inner.clear();
    if (rel_root.empty())
        return inner;
    return inner.empty() ? std::string(rel_root) : std::string(rel_root) + "/" + inner;
}

std::vector<std::string> safe_git_argv(const std::string& dir,
                                       const std::vector<std::string>& args) {
    // `-c` outranks the repository's own .git/config: core.fsmonitor names a
    // command git would run as the user (a hostile tree's hook), and the
    // untracked cache writes to the index. --no-pager: never a pager. The
    // diff's own flags (--no-ext-diff, --no-textconv) come with its args.
    std::vector<std::string> argv{"git", "--no-pager",
                                  "-c",  "core.fsmonitor=false",
                                  "-c",  "core.untrackedCache=false",
                                  "-c",  "core.quotePath=false",
                                  "-C",  dir};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

} // namespace loopcheck::platform
