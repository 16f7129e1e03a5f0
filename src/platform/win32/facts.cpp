// Windows system facts and the console: the version from RtlGetVersion,
// Max SYN Retransmissions from WMI, where the hosts file is, and whether
// stdout and stderr are consoles that take ANSI codes.
#include "loopcheck/core/windows/tcp_settings.hpp"
#include "loopcheck/platform/common/log.hpp"
#include "loopcheck/platform/platform.hpp"
#include "platform/win32/socket_helpers.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cwchar>
#include <fmt/format.h>
#include <future>
#include <memory>
#include <thread>
#include <wbemidl.h>

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

namespace loopcheck::platform {

namespace {

using win32::utf8;

/// The real version. GetVersionEx reports 6.2 (Windows 8) to any program
/// whose manifest does not declare Windows 10 support
/// (learn.microsoft.com .../sysinfoapi/nf-sysinfoapi-getversionexw);
/// RtlGetVersion is not subject to that. It lives in ntdll, which every
/// process has loaded, and is looked up at run time because MinGW declares
/// it only in its driver-kit headers.
std::optional<OSVERSIONINFOEXW> rtl_version() {
    // The EX form adds wProductType (workstation or server), which decides
    // the TCP template that loopback connects use (windows_tcp_settings.hpp).
    using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOEXW*);
    const HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
    if (ntdll == nullptr)
        return std::nullopt;
    // Through void(*)(), the one function pointer type any other may be
    // cast to and from without a cast-function-type warning.
    const auto fn = reinterpret_cast<RtlGetVersionFn>(
        reinterpret_cast<void (*)()>(::GetProcAddress(ntdll, "RtlGetVersion")));
    if (fn == nullptr)
        return std::nullopt;
    OSVERSIONINFOEXW v{};
    v.dwOSVersionInfoSize = sizeof v;
    if (fn(&v) != 0) // STATUS_SUCCESS
        return std::nullopt;
    return v;
}

// --- Max SYN Retransmissions from WMI. ------------------------------------

/// Releases a COM interface when it goes out of scope.
template <class T>
class ComRef {
public:
    ComRef() = default;
    ~ComRef() { reset(); }
    ComRef(const ComRef&) = delete;
    ComRef& operator=(const ComRef&) = delete;
    T* operator->() const { return p_; }
    T* get() const { return p_; }
    void** out() {
        reset();
        return reinterpret_cast<void**>(&p_);
    }
    T** typed_out() {
        reset();
        return &p_;
    }
    void reset() {
        if (p_ != nullptr)
            p_->Release();
        p_ = nullptr;
    }

private:
    T* p_ = nullptr;
};

class Bstr {
public:
    explicit Bstr(const wchar_t* s) : b_(::SysAllocString(s)) {}
    ~Bstr() { ::SysFreeString(b_); }
    Bstr(const Bstr&) = delete;
    Bstr& operator=(const Bstr&) = delete;
    operator BSTR() const { return b_; } // NOLINT(google-explicit-constructor)

private:
    BSTR b_;
};

/// One property of a WMI object as an int; nullopt when unset (VT_NULL).
std::optional<int> int_property(IWbemClassObject* obj, const wchar_t* name) {
    VARIANT v;
    ::VariantInit(&v);
    std::optional<int> out;
    if (SUCCEEDED(obj->Get(name, 0, &v, nullptr, nullptr)) && v.vt != VT_NULL && v.vt != VT_EMPTY &&
        SUCCEEDED(::VariantChangeType(&v, &v, 0, VT_I4)))
        out = static_cast<int>(v.lVal);
    ::VariantClear(&v);
    return out;
}

std::string string_property(IWbemClassObject* obj, const wchar_t* name) {
    VARIANT v;
    ::VariantInit(&v);
    std::string out;
    if (SUCCEEDED(obj->Get(name, 0, &v, nullptr, nullptr)) && v.vt == VT_BSTR)
        out = utf8(v.bstrVal, static_cast<int>(::SysStringLen(v.bstrVal)));
    ::VariantClear(&v);
    return out;
}

/// MSFT_NetTCPSetting (root\StandardCimv2, Windows 8+): what
/// Get-NetTCPSetting shows, readable without elevation. WMI rather than
/// `netsh interface tcp show global`, whose labels are translated with the
/// display language. Runs on its own thread with its own COM apartment;
/// returns no rows on any failure (Wine has no such namespace:
/// WBEM_E_INVALID_NAMESPACE).
std::vector<TcpSettingRow> query_tcp_settings() {
    std::vector<TcpSettingRow> rows;
    if (FAILED(::CoInitializeEx(nullptr, COINIT_MULTITHREADED)))
        return rows;
    struct ComScope {
        ~ComScope() { ::CoUninitialize(); }
    } com_scope;
    // Local WMI wants impersonation. This is process-wide; loopcheck uses
    // COM nowhere else, and RPC_E_TOO_LATE (already set) is fine too.
    ::CoInitializeSecurity(nullptr, -1, nullptr, nullptr, RPC_C_AUTHN_LEVEL_DEFAULT,
                           RPC_C_IMP_LEVEL_IMPERSONATE, nullptr, EOAC_NONE, nullptr);
    ComRef<IWbemLocator> locator;
    if (FAILED(::CoCreateInstance(CLSID_WbemLocator, nullptr, CLSCTX_INPROC_SERVER,
                                  IID_IWbemLocator, locator.out())))
        return rows;
    ComRef<IWbemServices> services;
    const Bstr ns(L"ROOT\\StandardCimv2");
    if (FAILED(locator->ConnectServer(ns, nullptr, nullptr, nullptr, 0, nullptr, nullptr,
                                      services.typed_out())))
        return rows;
    ::CoSetProxyBlanket(services.get(), RPC_C_AUTHN_WINNT, RPC_C_AUTHZ_NONE, nullptr,
                        RPC_C_AUTHN_LEVEL_CALL, RPC_C_IMP_LEVEL_IMPERSONATE, nullptr, EOAC_NONE);
    ComRef<IEnumWbemClassObject> found;
    const Bstr wql(L"WQL");
    const Bstr query(L"SELECT SettingName, MaxSynRetransmissions, AutomaticUseCustom FROM "
                     L"MSFT_NetTCPSetting");
    if (FAILED(services->ExecQuery(wql, query,
                                   WBEM_FLAG_FORWARD_ONLY | WBEM_FLAG_RETURN_IMMEDIATELY, nullptr,
                                   found.typed_out())))
        return rows;
    for (;;) {
        ComRef<IWbemClassObject> obj;
        ULONG got = 0;
        // WBEM_INFINITE: a finite timeout can end with WBEM_S_TIMEDOUT, a
        // success code with no row, which would cut the list short. This
        // thread is already bounded: read_tcp_settings() stops waiting for
        // it after wmi_wait.
        const HRESULT hr = found->Next(static_cast<long>(WBEM_INFINITE), 1, obj.typed_out(), &got);
        if (FAILED(hr) || got == 0)
            break;
        rows.push_back({string_property(obj.get(), L"SettingName"),
                        int_property(obj.get(), L"MaxSynRetransmissions"),
                        int_property(obj.get(), L"AutomaticUseCustom")});
    }
    return rows;
}

/// WMI can stall for seconds while its service starts; the report waits
/// this long and then says "unknown". The query thread is left to finish
/// (or to end with the process).
constexpr std::chrono::seconds wmi_wait{3};

std::vector<TcpSettingRow> read_tcp_settings() {
    try {
        auto task =
            std::make_shared<std::packaged_task<std::vector<TcpSettingRow>()>>(query_tcp_settings);
        auto rows = task->get_future();
        std::thread([task] { (*task)(); }).detach();
        if (rows.wait_for(wmi_wait) != std::future_status::ready) {
            log::debug("WMI gave no answer within {} s", wmi_wait.count());
            return {};
        }
        return rows.get();
    } catch (const std::exception& e) {
        log::debug("reading MSFT_NetTCPSetting failed: {}", e.what());
        return {};
    }
}

/// %SystemRoot%\System32\drivers\etc\hosts, the default DataBasePath.
std::string hosts_file() {
    std::array<wchar_t, MAX_PATH> root{};
    // MAX_PATH fits a DWORD/UINT; MSVC warns (C4267) on the implicit size_t narrowing.
    constexpr auto capacity = static_cast<DWORD>(std::tuple_size_v<decltype(root)>);
    DWORD n = ::GetEnvironmentVariableW(L"SystemRoot", root.data(), capacity);
    if (n == 0 || n >= capacity)
        n = ::GetWindowsDirectoryW(root.data(), capacity);
    if (n == 0 || n >= capacity)
        return "C:\\Windows\\System32\\drivers\\etc\\hosts";
    return utf8(root.data(), static_cast<int>(n)) + "\\System32\\drivers\\etc\\hosts";
}

/// A string value of HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion
/// ("ProductName", "DisplayVersion"); "" when absent.
std::string current_version_string(const wchar_t* name) {
    constexpr const wchar_t* key = L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
    std::array<wchar_t, 256> value{};
    DWORD bytes = static_cast<DWORD>(sizeof(value) - sizeof(wchar_t));
    if (::RegGetValueW(HKEY_LOCAL_MACHINE, key, name, RRF_RT_REG_SZ, nullptr, value.data(),
                       &bytes) != ERROR_SUCCESS)
        return {};
    return utf8(value.data(), static_cast<int>(::wcsnlen(value.data(), value.size())));
}

/// The update build revision (the number after the build: 26100.2314).
std::uint32_t current_version_revision() {
    DWORD value = 0;
    DWORD bytes = sizeof value;
    if (::RegGetValueW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion",
                       L"UBR", RRF_RT_REG_DWORD, nullptr, &value, &bytes) != ERROR_SUCCESS)
        return 0;
    return value;
}

/// The machine's own architecture (not the process's: an x64 loopcheck
/// under emulation on ARM64 says ARM64).
std::string native_architecture() {
    SYSTEM_INFO info{};
    ::GetNativeSystemInfo(&info);
    switch (info.wProcessorArchitecture) {
    case PROCESSOR_ARCHITECTURE_AMD64:
        return "AMD64";
    case PROCESSOR_ARCHITECTURE_ARM64:
        return "ARM64";
    case PROCESSOR_ARCHITECTURE_INTEL:
        return "x86";
    default:
        return {};
    }
}

// --- The console. ---------------------------------------------------------

struct SavedMode {
    HANDLE handle = nullptr;
    DWORD mode = 0;
};
std::array<SavedMode, 2> saved_modes{};

void restore_console_modes() {
    for (const auto& s : saved_modes)
        if (s.handle != nullptr)
            ::SetConsoleMode(s.handle, s.mode);
}

/// A console interprets the colour and erase-line codes loopcheck writes
/// only with ENABLE_VIRTUAL_TERMINAL_PROCESSING (Windows 10 1511+;
/// learn.microsoft.com .../console/setconsolemode). Switch it on, and put
/// the old mode back at exit so the shell's console is left as found.
/// False where the console does not take it: then no codes are written.
bool enable_virtual_terminal(HANDLE h, std::size_t slot) {
    DWORD mode = 0;
    if (!::GetConsoleMode(h, &mode))
        return false;
    if ((mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0)
        return true;
    if (!::SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING))
        return false;
    static const bool registered = std::atexit(restore_console_modes) == 0;
    if (registered)
        saved_modes[slot] = {h, mode};
    return true;
}

} // namespace

std::uint32_t win32::windows_build() noexcept {
    static const std::uint32_t build = [] {
        const auto v = rtl_version();
        return v ? static_cast<std::uint32_t>(v->dwBuildNumber) : 0u;
    }();
    return build;
}

Os build_os() noexcept {
    return Os::windows;
}

SystemFacts system_facts() {
    SystemFacts f;
    f.os = Os::windows;
    f.os_name = "Windows";
    const auto version = rtl_version();
    if (const auto& v = version) {
        f.os_version =
            fmt::format("{}.{}.{}", v->dwMajorVersion, v->dwMinorVersion, v->dwBuildNumber);
        f.windows_build = v->dwBuildNumber;
    } else {
        f.os_version = "unknown";
    }
    const auto rows = read_tcp_settings();
    for (const auto& r : rows)
        log::debug("MSFT_NetTCPSetting {}: MaxSynRetransmissions={}, AutomaticUseCustom={}",
                   r.setting_name,
                   r.max_syn_retransmissions ? std::to_string(*r.max_syn_retransmissions) : "unset",
                   r.automatic_use_custom ? std::to_string(*r.automatic_use_custom) : "unset");
    const bool server = version && version->wProductType != VER_NT_WORKSTATION;
    auto [value, source] = max_syn_retransmissions_report(rows, server);
    f.tcp_settings.emplace_back(max_syn_retransmissions_key, std::move(value));
    if (!source.empty())
        f.tcp_settings.emplace_back(max_syn_retransmissions_source_key, std::move(source));
    f.hosts_file = hosts_file();
    f.distribution = windows_name(current_version_string(L"ProductName"),
                                  current_version_string(L"DisplayVersion"), f.windows_build,
                                  current_version_revision());
    f.architecture = native_architecture();
    f.proxies = proxy_variables([](const char* name) { return environment_variable(name); });
    return f;
}

bool is_terminal(Stream s) noexcept {
    // GetConsoleMode succeeds only on a console; _isatty() would also say
    // yes for NUL, which is a character device too.
    const HANDLE h = ::GetStdHandle(s == Stream::out ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
    if (h == nullptr || h == INVALID_HANDLE_VALUE)
        return false;
    return enable_virtual_terminal(h, s == Stream::out ? 0 : 1);
}

namespace {

void (*g_on_interrupt)() = nullptr;
std::atomic<int> g_interrupts{0};
/// The console closed: the stop is a termination (exit 143), not a Ctrl-C.
std::atomic<bool> g_terminated{false};
/// The console output code page Utf8Console found; 0 when it changed none.
std::atomic<UINT> g_saved_output_cp{0};

void restore_output_cp() noexcept {
    if (const UINT cp = g_saved_output_cp.exchange(0); cp != 0)
        ::SetConsoleOutputCP(cp);
}

/// How long the handler holds a closing console open for the report. Once
/// the handler returns, TRUE or FALSE, the process ends
/// (learn.microsoft.com/windows/console/ctrl-close-signal); Windows also
/// ends it if the handler takes too long (5 s, as issue 26 has it; the
/// HandlerRoutine page does not give the figure). 4 s stays under that.
constexpr DWORD close_grace_ms = 4000;

/// CTRL_CLOSE_EVENT (the console window closed, or End Task): stop the
/// probes as Ctrl-C does, then wait here while the main thread prints what
/// was measured. When it is done the process exits normally, this thread
/// with it; if it is not done in close_grace_ms, FALSE lets the default
/// handler end the process.
BOOL on_console_close() {
    g_terminated.store(true);
    if (g_on_interrupt != nullptr)
        g_on_interrupt();
    interrupt_waits();
    ::Sleep(close_grace_ms); // normally cut short by the process's own exit
    restore_output_cp();
    restore_console_modes();
    return FALSE;
}

/// Runs on a thread of its own that Windows starts for the console event.
BOOL WINAPI on_console_event(DWORD event) {
    if (event == CTRL_CLOSE_EVENT)
        return on_console_close();
    if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT)
        return FALSE;
    // As on POSIX: the first two ask the waits to end so the report can be
    // printed; a third ends the process now. ExitProcess runs no
    // destructors, so the console gets its code page and mode back here.
    if (++g_interrupts >= 3) {
        restore_output_cp();
        restore_console_modes();
        ::ExitProcess(130);
    }
    if (g_on_interrupt != nullptr)
        g_on_interrupt();
    // This thread is not the one in select(): wake it, or a Ctrl-C would
    // wait out --timeout.
    interrupt_waits();
    return TRUE; // handled: do not end the process yet
}

} // namespace

/// The console shares its code page with the shell that started us, so the
/// old one goes back at the end. CP_UTF8 (65001) rather than an application
/// manifest with activeCodePage: the manifest also changes the ANSI code
/// page of every narrow API call, which loopcheck does not need.
Utf8Console::Utf8Console() noexcept {
    const UINT cp = ::GetConsoleOutputCP(); // 0 without a console
    if (cp != 0 && cp != CP_UTF8 && ::SetConsoleOutputCP(CP_UTF8))
        g_saved_output_cp.store(cp);
}

Utf8Console::~Utf8Console() {
    restore_output_cp();
}

void install_interrupt_handler(void (*on_interrupt)()) noexcept {
    g_on_interrupt = on_interrupt;
    ::SetConsoleCtrlHandler(on_console_event, TRUE);
}

bool terminate_requested() noexcept {
    return g_terminated.load();
}

int terminal_width() noexcept {
    for (const DWORD which : {STD_OUTPUT_HANDLE, STD_ERROR_HANDLE}) {
        CONSOLE_SCREEN_BUFFER_INFO info{};
        const HANDLE h = ::GetStdHandle(which);
        if (h != nullptr && h != INVALID_HANDLE_VALUE && ::GetConsoleScreenBufferInfo(h, &info))
            return info.srWindow.Right - info.srWindow.Left + 1;
    }
    return 0;
}

} // namespace loopcheck::platform
