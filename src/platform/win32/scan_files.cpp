// Windows: `loopcheck scan`'s file list from git (git ls-files through a
// pipe, as on POSIX) where git.exe is on PATH, else the walk; a file is read
// only when std::filesystem says it is a regular file.
// Every file of this folder takes the Windows headers through the one shared
// header first (tests/windows/check_headers.py), even one that needs none.
#include "loopcheck/platform/common/scan_files.hpp"

#include "platform/common/utf8_path.hpp"
#include "platform/win32/socket_helpers.hpp"
#include "platform/win32/winsock.hpp"

#include <cstdint>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <optional>
#include <system_error>

namespace loopcheck::platform {

namespace fs = std::filesystem;
using win32::quote_arg;
using win32::widen;

namespace {

/// git.exe from PATH's folders only. CreateProcess's own search would try
/// the current folder first, and a scanned tree may hold a git.exe.
std::wstring git_on_path() {
    const DWORD n = ::GetEnvironmentVariableW(L"PATH", nullptr, 0);
    if (n == 0)
        return {};
    std::wstring path(n, L'\0');
    path.resize(::GetEnvironmentVariableW(L"PATH", path.data(), n));
    for (std::size_t start = 0; start <= path.size();) {
        std::size_t end = path.find(L';', start);
        if (end == std::wstring::npos)
            end = path.size();
        std::wstring dir = path.substr(start, end - start);
        start = end + 1;
        if (dir.empty() || !fs::path(dir).is_absolute())
            continue;
        const std::wstring candidate = (fs::path(dir) / L"git.exe").wstring();
        const DWORD attributes = ::GetFileAttributesW(candidate.c_str());
        if (attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY))
            return candidate;
    }
    return {};
}

struct GitChild {
    HANDLE process = nullptr;
    HANDLE out = nullptr;
};

/// git (safe_git_argv) started in `dir`: standard output on a pipe,
/// standard input and error on NUL, no console window.
std::optional<GitChild> spawn_git(const std::string& dir, const std::vector<std::string>& args) {
    const std::wstring git = git_on_path();
    if (git.empty())
        return std::nullopt;
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    HANDLE read = nullptr, write = nullptr;
    if (!::CreatePipe(&read, &write, &inherit, 0))
        return std::nullopt;
    ::SetHandleInformation(read, HANDLE_FLAG_INHERIT, 0);
    HANDLE nul =
        ::CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                      &inherit, OPEN_EXISTING, 0, nullptr);
    STARTUPINFOW si{};
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = nul;
    si.hStdOutput = write;
    si.hStdError = nul;
    std::wstring command = quote_arg(git);
    const auto argv = safe_git_argv(dir, args);
    for (std::size_t i = 1; i < argv.size(); ++i) // argv[0] is "git": the path above instead
        command += L" " + quote_arg(widen(argv[i]));
    PROCESS_INFORMATION pi{};
    const BOOL started = ::CreateProcessW(git.c_str(), command.data(), nullptr, nullptr, TRUE,
                                          CREATE_NO_WINDOW, nullptr, nullptr, &si, &pi);
    ::CloseHandle(write);
    if (nul != INVALID_HANDLE_VALUE)
        ::CloseHandle(nul);
    if (!started) {
        ::CloseHandle(read);
        return std::nullopt;
    }
    ::CloseHandle(pi.hThread);
    return GitChild{pi.hProcess, read};
}

DWORD finish(const GitChild& git, bool stop) {
    if (stop)
        ::TerminateProcess(git.process, 1);
    ::CloseHandle(git.out);
    ::WaitForSingleObject(git.process, INFINITE);
    DWORD code = 1;
    ::GetExitCodeProcess(git.process, &code);
    ::CloseHandle(git.process);
    return code;
}

/// git ls-files in `root`, each path visited as it arrives; nullopt when
/// git could not run or failed before listing anything.
std::optional<Listing> git_list(const std::string& root, const VisitFile& visit) {
    const auto git = spawn_git(root, {"ls-files", "-z", "-c", "-o", "--exclude-standard"});
    if (!git)
        return std::nullopt;
    const std::string prefix = root == "." ? std::string() : root + "/";
    std::string pending;
    char chunk[65536];
    std::size_t listed = 0;
    bool stopped = false;
    DWORD got = 0;
    while (!stopped && ::ReadFile(git->out, chunk, sizeof chunk, &got, nullptr) && got > 0) {
        pending.append(chunk, got);
        std::size_t start = 0;
        for (std::size_t nul; !stopped && (nul = pending.find('\0', start)) != std::string::npos;
             start = nul + 1) {
            ++listed;
            stopped = !visit(prefix + pending.substr(start, nul - start));
        }
        pending.erase(0, start);
    }
    const DWORD code = finish(*git, stopped);
    if (!stopped && listed == 0 && code != 0)
        return std::nullopt;
    return Listing::git;
}

} // namespace

Result<Listing> list_scan_files(const std::string& root, const VisitFile& visit) {
    std::error_code ec;
    if (fs::is_directory(path_from_utf8(root), ec) && !repository_root(root).empty())
        if (auto listing = git_list(root, visit))
            return *listing;
    return walk_scan_files(root, visit);
}

Result<std::string> git_capture(const std::string& dir, const std::vector<std::string>& args,
                                std::size_t max_bytes) {
    const auto git = spawn_git(dir, args);
    if (!git)
        return system_error("git.exe was not found on PATH or could not be started");
    std::string out;
    char chunk[65536];
    DWORD got = 0;
    bool too_much = false;
    while (::ReadFile(git->out, chunk, sizeof chunk, &got, nullptr) && got > 0) {
        if (out.size() + got > max_bytes) {
            too_much = true;
            break;
        }
        out.append(chunk, got);
    }
    const DWORD code = finish(*git, too_much);
    if (too_much)
        return system_error(fmt::format("git said more than {} bytes", max_bytes));
    if (code != 0)
        return system_error(fmt::format("git exited with status {}", code));
    return out;
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
