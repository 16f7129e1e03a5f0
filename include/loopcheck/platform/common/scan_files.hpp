// `loopcheck scan`'s access to the file system: which files a tree holds
// (git's list inside a work tree, else a walk) and reading one of them
// without ever blocking on a FIFO or a device. No OS header here.
#pragma once

#include "loopcheck/core/result.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck::platform {

/// Why a listed file was not read.
enum class FileSkip : std::uint8_t {
    none,         ///< read
    too_large,    ///< over the size cap
    unreadable,   ///< permission or I/O error
    not_regular,  ///< a FIFO, socket, device or directory (never opened blocking)
    symlink_loop, ///< too many levels of symbolic links
    vanished,     ///< listed but gone (git lists deleted tracked files)
};

/// Called with each file's path (UTF-8, as every path above the platform
/// layer is); returns false to stop the listing.
using VisitFile = std::function<bool(const std::string& path)>;

/// How the files were listed.
enum class Listing : std::uint8_t { single_file, git, walk };

/// Lists the files under `root` (or `root` itself when it is a file): inside
/// a git work tree, what `git ls-files -co --exclude-standard` lists (git's
/// own output streamed, never held whole); elsewhere, or when git cannot
/// run, a walk that skips .git, node_modules, virtualenvs and build and
/// cache folders and does not follow directory symlinks. An error only when
/// `root` itself cannot be read ("no such file or directory").
Result<Listing> list_scan_files(const std::string& root, const VisitFile& visit);

/// The walk alone (list_scan_files without git), for tests and bench.
Result<Listing> walk_scan_files(const std::string& root, const VisitFile& visit);

/// True for a directory name the walk skips.
bool skipped_directory(std::string_view name) noexcept;

/// Reads a regular file of at most `max_bytes` into `buffer` (reused from
/// call to call, so memory stays flat). Anything but a regular file is
/// refused before it is opened for reading, and opened non-blocking.
FileSkip read_scan_file(const std::string& path, std::uint64_t max_bytes, std::string& buffer);

} // namespace loopcheck::platform

namespace loopcheck::platform {

/// The folder holding `.git` (a work tree, or a worktree's `.git` file) at
/// or above `start` (a file or a folder), as an absolute path; empty when
/// there is none.
std::string repository_root(const std::string& start);

/// The config file `name` in the folder of `start` or a folder above it,
/// stopping at the repository root (else at the file system's root); its
/// absolute path, or empty.
std::string find_upward(const std::string& start, std::string_view name);

/// `path` from `base` (both as given; made absolute, folders resolved),
/// '/'-separated, with `..` where `path` is not below `base`; empty when
/// they are the same.
std::string relative_path(const std::string& base, const std::string& path);

/// `rel_root` and `within` joined, '/'-separated on every OS (a walk on
/// Windows gives backslashes); either may be empty.
std::string join_generic(std::string_view rel_root, std::string_view within);

/// git's argument list for `args` run in `dir`: `git -C DIR` with the
/// settings that keep git from running anything the scanned tree
/// configures (no fsmonitor hook, no untracked cache, no pager, no
/// external diff or textconv: a tree is hostile input, issue 40 row 1),
/// then `args`. One list for POSIX and Windows.
std::vector<std::string> safe_git_argv(const std::string& dir,
                                       const std::vector<std::string>& args);

/// Runs git (safe_git_argv) in `dir` and returns its standard output, at
/// most `max_bytes` of it; an Error when git cannot run, exits non-zero or
/// says more.
Result<std::string> git_capture(const std::string& dir, const std::vector<std::string>& args,
                                std::size_t max_bytes);

} // namespace loopcheck::platform
