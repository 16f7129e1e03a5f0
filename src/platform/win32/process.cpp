// Windows: this process's arguments and environment as UTF-8, read through
// the wide API (the narrow one gives the ANSI code page's bytes), and
// whether it is alone on its console.
#include "loopcheck/platform/platform.hpp"
#include "platform/win32/socket_helpers.hpp"
#include "platform/win32/winsock.hpp" // every win32 file, for one FD_SETSIZE (check_headers.py)

#include <array>
#include <shellapi.h>

namespace loopcheck::platform {

std::vector<std::string> utf8_arguments(int argc, char** argv) {
    // CommandLineToArgvW splits the way the CRT splits main()'s argv
    // (quotes, backslashes before a quote), so the count agrees; where it
    // fails, argv as the CRT gave it is better than nothing.
    int count = 0;
    LPWSTR* wide = ::CommandLineToArgvW(::GetCommandLineW(), &count);
    std::vector<std::string> out;
    if (wide != nullptr && count == argc) {
        out.reserve(static_cast<std::size_t>(count));
        for (int i = 0; i < count; ++i)
            out.push_back(win32::utf8(wide[i]));
    } else {
        for (int i = 0; i < argc && argv[i] != nullptr; ++i)
            out.emplace_back(argv[i]);
    }
    if (wide != nullptr)
        ::LocalFree(wide);
    return out;
}

std::optional<std::string> environment_variable(const char* name) {
    // Variable names are ASCII: each byte is its own UTF-16 unit.
    std::wstring wide_name;
    for (const char* c = name; *c != '\0'; ++c)
        wide_name.push_back(static_cast<wchar_t>(static_cast<unsigned char>(*c)));
    // The size with its terminating zero first, then the value: it may
    // change in between (another thread), so ask again until it fits.
    std::wstring value;
    DWORD size = ::GetEnvironmentVariableW(wide_name.c_str(), nullptr, 0);
    for (int tries = 0; size != 0 && tries < 4; ++tries) {
        value.resize(size);
        const DWORD got = ::GetEnvironmentVariableW(wide_name.c_str(), value.data(), size);
        if (got < size) {
            value.resize(got);
            return win32::utf8(value.c_str(), static_cast<int>(got));
        }
        size = got;
    }
    // Unset (ERROR_ENVVAR_NOT_FOUND), or set to "" (size 1, got 0 above).
    return ::GetLastError() == ERROR_ENVVAR_NOT_FOUND ? std::nullopt
                                                      : std::optional<std::string>{""};
}

std::optional<unsigned> processes_on_console() noexcept {
    DWORD mode = 0;
    if (::GetConsoleMode(::GetStdHandle(STD_INPUT_HANDLE), &mode) == 0)
        return std::nullopt; // stdin is a file or pipe: nobody could press Enter
    // Two slots are enough to tell "alone" from "shared": the return value is
    // the whole count even when the list does not fit.
    std::array<DWORD, 2> ids{};
    const DWORD n = ::GetConsoleProcessList(ids.data(), static_cast<DWORD>(ids.size()));
    if (n == 0)
        return std::nullopt;
    return static_cast<unsigned>(n);
}

CommandEnd run_in_place(const std::vector<std::string>& argv) {
    if (argv.empty())
        return {127, "no command"};
    // No exec on Windows: a child on this console with our standard
    // handles, its exit status ours. CreateProcess searches as cmd.exe
    // does for an .exe; a .cmd or .bat (npm, npx) needs `cmd /c NAME`.
    std::wstring command;
    for (const auto& a : argv)
        command += (command.empty() ? L"" : L" ") + win32::quote_arg(win32::widen(a));
    STARTUPINFOW si{};
    si.cb = sizeof si;
    PROCESS_INFORMATION pi{};
    if (!::CreateProcessW(nullptr, command.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si,
                          &pi)) {
        const DWORD err = ::GetLastError();
        const bool missing = err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND;
        return {missing ? 127 : 126, win32::wsa_message(static_cast<int>(err))};
    }
    ::CloseHandle(pi.hThread);
    ::WaitForSingleObject(pi.hProcess, INFINITE);
    DWORD code = 1;
    ::GetExitCodeProcess(pi.hProcess, &code);
    ::CloseHandle(pi.hProcess);
    return {static_cast<int>(code), {}};
}

} // namespace loopcheck::platform
