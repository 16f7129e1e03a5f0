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

} // namespace

RunResult run_loopcheck(const std::vector<std::string>& args) {
    std::string cmd = quote(loopcheck_exe());
    for (const auto& a : args)
        cmd.append(" ").append(quote(a));
    return run_command(cmd);
}

RunResult run_command(const std::string& command_line) {
    // Unique across the test processes CTest runs in parallel, not just
    // within this one.
    static const auto process_tag = std::to_string(std::random_device{}());
    static std::atomic<int> counter{0};
    const auto dir = std::filesystem::temp_directory_path();
    const auto tag = process_tag + "_" + std::to_string(counter++);
    const auto out_path = dir / ("loopcheck_test_out_" + tag);
    const auto err_path = dir / ("loopcheck_test_err_" + tag);
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
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    std::filesystem::remove(out_path);
    std::filesystem::remove(err_path);
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
