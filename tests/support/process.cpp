#include "support/process.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <sys/wait.h>
#endif

namespace loopcheck::test {

namespace {

std::string quote(const std::string& arg) {
#ifdef _WIN32
    std::string out = "\"";
    for (char c : arg)
        out += c == '"' ? std::string("\\\"") : std::string(1, c);
    return out + "\"";
#else
    std::string out = "'";
    for (char c : arg)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
#endif
}

/// The binary under test. On Windows it is found from this test binary's
/// own path: a cross build's LOOPCHECK_EXE is a Linux path, which Wine
/// cannot hand to cmd.exe.
std::string loopcheck_exe() {
#ifdef _WIN32
    std::wstring self(32768, L'\0');
    const DWORD n = ::GetModuleFileNameW(nullptr, self.data(), static_cast<DWORD>(self.size()));
    if (n > 0 && n < self.size()) {
        self.resize(n);
        const auto exe = std::filesystem::path(self).parent_path() / LOOPCHECK_EXE_FROM_TESTS;
        return exe.lexically_normal().make_preferred().string();
    }
#endif
    return LOOPCHECK_EXE;
}

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

#ifdef _WIN32
/// A handle to `path`, created empty, that a child process inherits.
HANDLE inheritable_file(const std::filesystem::path& path) {
    SECURITY_ATTRIBUTES sa{sizeof(sa), nullptr, TRUE};
    // FILE_SHARE_DELETE: Wine may signal the child's exit before it has
    // closed the child's copy of this handle; without it the removal after
    // the run failed now and then with a sharing violation.
    return ::CreateFileW(path.wstring().c_str(), GENERIC_WRITE,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &sa, CREATE_ALWAYS,
                         FILE_ATTRIBUTE_NORMAL, nullptr);
}

/// Starts loopcheck itself with CreateProcessW, its output in two files.
/// Going through cmd.exe (std::system) made Wine's cmd now and then answer
/// "Can't recognize ... as an internal or external command" (exit 9009)
/// for a binary it had just run a hundred times: a failed test that said
/// nothing about loopcheck.
RunResult run_direct(const std::string& command_line, const std::filesystem::path& out_path,
                     const std::filesystem::path& err_path) {
    RunResult r;
    HANDLE out = inheritable_file(out_path);
    HANDLE err = inheritable_file(err_path);
    SECURITY_ATTRIBUTES sa{sizeof(sa), nullptr, TRUE};
    HANDLE in = ::CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
                              OPEN_EXISTING, 0, nullptr);
    STARTUPINFOW si{};
    si.cb = sizeof(si);
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = in;
    si.hStdOutput = out;
    si.hStdError = err;
    PROCESS_INFORMATION pi{};
    // The narrow line is in the ANSI code page, as path::string() gives it.
    std::wstring line(command_line.size() + 1, L'\0');
    const int n = ::MultiByteToWideChar(CP_ACP, 0, command_line.c_str(), -1, line.data(),
                                        static_cast<int>(line.size()));
    line.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    if (out != INVALID_HANDLE_VALUE && err != INVALID_HANDLE_VALUE &&
        ::CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si,
                         &pi)) {
        // Bounded: a test that hangs here says so instead of stalling CI.
        if (::WaitForSingleObject(pi.hProcess, 120'000) == WAIT_TIMEOUT)
            ::TerminateProcess(pi.hProcess, 124);
        ::WaitForSingleObject(pi.hProcess, INFINITE);
        DWORD code = 0;
        ::GetExitCodeProcess(pi.hProcess, &code);
        r.exit_code = static_cast<int>(code);
        ::CloseHandle(pi.hThread);
        ::CloseHandle(pi.hProcess);
    }
    for (HANDLE h : {in, out, err})
        if (h != INVALID_HANDLE_VALUE)
            ::CloseHandle(h);
    return r;
}
#endif

/// Two fresh output paths, unique across the test processes CTest runs in
/// parallel, not just within this one.
std::pair<std::filesystem::path, std::filesystem::path> output_paths() {
    static const auto process_tag = std::to_string(std::random_device{}());
    static std::atomic<int> counter{0};
    const auto dir = std::filesystem::temp_directory_path();
    const auto tag = process_tag + "_" + std::to_string(counter++);
    return {dir / ("loopcheck_test_out_" + tag), dir / ("loopcheck_test_err_" + tag)};
}

/// Reads and removes the two files.
void collect(RunResult& r, const std::filesystem::path& out_path,
             const std::filesystem::path& err_path) {
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    // A temporary file left behind is not the test's failure.
    std::error_code ignored;
    std::filesystem::remove(out_path, ignored);
    std::filesystem::remove(err_path, ignored);
}

} // namespace

RunResult run_loopcheck(const std::vector<std::string>& args) {
    std::string cmd = quote(loopcheck_exe());
    for (const auto& a : args)
        cmd.append(" ").append(quote(a));
#ifdef _WIN32
    const auto [out_path, err_path] = output_paths();
    RunResult r = run_direct(cmd, out_path, err_path);
    collect(r, out_path, err_path);
    return r;
#else
    return run_command(cmd);
#endif
}

RunResult run_command(const std::string& command_line) {
    const auto [out_path, err_path] = output_paths();
    std::string cmd = command_line;
    cmd.append(" >").append(quote(out_path.string()));
    cmd.append(" 2>").append(quote(err_path.string()));
#ifdef _WIN32
    // cmd.exe strips the outer quotes of the whole line.
    cmd = "\"" + cmd + "\"";
#endif
    const int status = std::system(cmd.c_str());
    RunResult r;
#ifdef _WIN32
    r.exit_code = status;
#else
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
#endif
    collect(r, out_path, err_path);
    return r;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    // Windows' text-mode streams end lines with CRLF (stderr, listen's
    // JSON lines): a line is the same line either way.
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        out.push_back(line);
    }
    return out;
}

} // namespace loopcheck::test
