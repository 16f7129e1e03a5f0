// loopcheck trace's pure half: the runtime from an executable, names
// inferred, the groups, their cost on Windows, the fix and the exit code,
// over TraceRun values built here.
#include "loopcheck/core/clients/impact.hpp"
#include "loopcheck/core/trace/report.hpp"
#include "loopcheck/core/trace/runtime.hpp"
#include "support/catch.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>

using namespace loopcheck;
using namespace std::chrono_literals;

namespace {

Address v6(std::uint16_t port) {
    return ipv6_loopback(port);
}
Address v4(std::uint16_t port) {
    return make_ipv4(127, 0, 0, 1, port);
}

TraceConnect connect(double at, int tid, Address to, TraceOutcome outcome, double took = 0.1) {
    TraceConnect c;
    c.start_ms = at;
    c.duration_ms = took;
    c.pid = 100;
    c.tid = tid;
    c.destination = to;
    c.outcome = outcome;
    c.error = outcome == TraceOutcome::refused ? 111 : 0;
    return c;
}

TraceRun python_run(int connections, std::uint16_t port = 8000) {
    TraceRun run;
    run.mode = TraceMode::seccomp_ptrace;
    run.windows_order = true;
    run.command = {"python3", "app.py"};
    // pyenv's shim: env, then bash, then the interpreter, in one pid.
    run.processes.push_back({100, 1, "/usr/bin/env", {"env", "bash"}, "", ""});
    run.processes.push_back({100, 1, "/usr/bin/python3.11", {"python3", "app.py"}, "", ""});
    for (int i = 0; i < connections; ++i) {
        run.connects.push_back(connect(10.0 * i, 100, v6(port), TraceOutcome::refused));
        run.connects.push_back(connect(10.0 * i + 0.2, 100, v4(port), TraceOutcome::accepted));
    }
    return run;
}

/// An in-memory file system for identify_runtime's reader.
struct Files {
    std::map<std::string, std::string, std::less<>> files;
    FileReader reader() const {
        return [this](std::string_view path, std::uint64_t offset, std::size_t length) {
            const auto it = files.find(path);
            if (it == files.end() || offset >= it->second.size())
                return std::string{};
            return it->second.substr(offset, length);
        };
    }
};

void put(std::string& s, std::size_t at, std::uint64_t v, std::size_t width) {
    for (std::size_t i = 0; i < width; ++i)
        s[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

/// A minimal 64-bit ELF with two sections: `name` holding `content`, and
/// the section names.
std::string elf_with(std::string_view name, std::string_view content) {
    std::string names = std::string("\0", 1) + std::string(name) + '\0' + ".shstrtab" + '\0';
    std::string f(64, '\0');
    f.replace(0, 4,
              "\x7f"
              "ELF");
    f[4] = 2; // 64-bit
    f[5] = 1; // little-endian
    const std::size_t content_at = f.size();
    f += content;
    const std::size_t names_at = f.size();
    f += names;
    const std::size_t table_at = f.size();
    f += std::string(3 * 64, '\0'); // null, the section, .shstrtab
    put(f, 0x28, table_at, 8);
    put(f, 0x3A, 64, 2);
    put(f, 0x3C, 3, 2);
    put(f, 0x3E, 2, 2);
    put(f, table_at + 64 + 0x00, 1, 4);
    put(f, table_at + 64 + 0x18, content_at, 8);
    put(f, table_at + 64 + 0x20, content.size(), 8);
    put(f, table_at + 128 + 0x00, 2 + name.size(), 4);
    put(f, table_at + 128 + 0x18, names_at, 8);
    put(f, table_at + 128 + 0x20, names.size(), 8);
    return f;
}

std::string go_buildinfo(std::string_view version) {
    std::string s("\xff Go buildinf:", 14);
    s += '\x08'; // pointer size
    s += '\x02'; // inline strings
    s.resize(32, '\0');
    s += static_cast<char>(version.size());
    s += version;
    s += '\0';
    return s;
}

} // namespace

TEST_CASE("trace runtime: from the executable's name and path", "[trace]") {
    const std::vector<std::string> argv{"python3", "app.py"};
    CHECK(identify_runtime("/usr/bin/python3.11", argv) ==
          RuntimeId{"python", "3.11", "file name"});
    CHECK(identify_runtime("/root/.pyenv/versions/3.11.7/bin/python3.11", argv) ==
          RuntimeId{"python", "3.11.7", "path"});
    CHECK(identify_runtime("/usr/bin/python3.11d", argv).runtime == "python");
    CHECK(identify_runtime("/usr/bin/pythonista", argv).runtime.empty());
    CHECK(identify_runtime("/home/u/.nvm/versions/node/v20.20.2/bin/node", {}) ==
          RuntimeId{"node", "20.20.2", "path"});
    CHECK(identify_runtime("/usr/bin/nodejs", {}).runtime == "node");
    CHECK(identify_runtime("/usr/bin/ruby3.1", {}) == RuntimeId{"ruby", "3.1", "file name"});
    CHECK(identify_runtime("/usr/lib/jvm/java-17-openjdk-amd64/bin/java", {}) ==
          RuntimeId{"java", "17", "path"});
    CHECK(identify_runtime("/usr/bin/curl", {}) == RuntimeId{"curl", "", ""});
    CHECK(identify_runtime("/usr/bin/php-fpm8.2", {}) == RuntimeId{"php", "8.2", "file name"});
    CHECK(identify_runtime("/usr/bin/php-fpm", {}).runtime == "php");
    CHECK(identify_runtime("/tmp/x/dial (deleted)", {}).runtime.empty());
    const std::vector<std::string> wget{"/usr/bin/wget"};
    CHECK(identify_runtime("", wget).runtime == "wget");
}

TEST_CASE("trace runtime: bounded reads of the files", "[trace]") {
    Files fs;
    fs.files["/usr/lib/jvm/java-17-openjdk-amd64/release"] =
        "IMPLEMENTOR=\"Debian\"\nJAVA_VERSION=\"17.0.15\"\nLIBC=\"gnu\"\n";
    fs.files["/usr/bin/curl"] = elf_with(".rodata", std::string("x\0curl/7.88.1\0", 14));
    fs.files["/usr/bin/node"] = elf_with(".rodata", std::string("\0node.js/v20.20.2\0", 18));
    fs.files["/tmp/dial"] = elf_with(".go.buildinfo", go_buildinfo("go1.19.8"));
    fs.files["/tmp/cprog"] = elf_with(".rodata", "hello");
    const auto read = fs.reader();

    CHECK(identify_runtime("/usr/lib/jvm/java-17-openjdk-amd64/bin/java", {}, read) ==
          RuntimeId{"java", "17.0.15", "JDK release file"});
    CHECK(identify_runtime("/usr/bin/curl", {}, read) ==
          RuntimeId{"curl", "7.88.1", "executable's version string"});
    CHECK(identify_runtime("/usr/bin/node", {}, read) ==
          RuntimeId{"node", "20.20.2", "executable's version string"});
    CHECK(identify_runtime("/tmp/dial", {}, read) == RuntimeId{"go", "1.19.8", "Go build info"});
    CHECK(identify_runtime("/tmp/cprog", {}, read) == RuntimeId{});
    CHECK(identify_runtime("/nonexistent", {}, read) == RuntimeId{});
}

TEST_CASE("trace runtime: Go build info and ELF sections that do not parse give nothing",
          "[trace]") {
    CHECK(go_buildinfo_version(go_buildinfo("go1.21.5")) == "1.21.5");
    CHECK(go_buildinfo_version(go_buildinfo("devel")).empty());
    auto old = go_buildinfo("go1.17");
    old[15] = 0; // before 1.18: pointers, not inline strings
    CHECK(go_buildinfo_version(old).empty());
    CHECK(go_buildinfo_version("\xff Go buildinf:").empty());
    auto cut = go_buildinfo("go1.21.5");
    cut.resize(36);
    CHECK(go_buildinfo_version(cut).empty());

    Files fs;
    fs.files["/a"] = "#!/bin/sh\n";
    auto elf = elf_with(".go.buildinfo", go_buildinfo("go1.22.0"));
    fs.files["/b"] = elf.substr(0, 80); // section table cut off
    put(elf, 0x3C, 60000, 2);           // absurd section count
    fs.files["/c"] = elf;
    for (const char* p : {"/a", "/b", "/c"})
        CHECK(elf_section(fs.reader(), p, ".go.buildinfo") ==
              std::pair<std::uint64_t, std::uint64_t>{});
}

TEST_CASE("trace names: ::1 then 127.0.0.1 on one port in a row is consistent with localhost",
          "[trace]") {
    std::vector<TraceConnect> cs{connect(0, 1, v6(8000), TraceOutcome::refused),
                                 connect(1, 2, v4(9000), TraceOutcome::accepted),
                                 connect(2, 1, v4(8000), TraceOutcome::accepted),
                                 connect(3, 1, v4(8000), TraceOutcome::accepted),
                                 connect(4, 3, v6(7000), TraceOutcome::refused),
                                 connect(5, 3, v4(7001), TraceOutcome::refused)};
    cs[3].name = "db.local";
    cs[3].name_source = NameSource::shim;
    infer_localhost(cs);
    CHECK(cs[0].name == "localhost");
    CHECK(cs[0].name_source == NameSource::inferred);
    CHECK(cs[2].name_source == NameSource::inferred);
    CHECK(cs[1].name.empty()); // another port
    CHECK(cs[3].name == "db.local");
    CHECK(cs[4].name.empty()); // two ports
    CHECK(cs[5].name.empty());
}

TEST_CASE("trace: Go's fallback from another thread is one connection", "[trace]") {
    TraceRun run = python_run(0);
    run.processes.back() = {100, 1, "/tmp/dial", {"dial"}, "go", "1.19.8"};
    for (int i = 0; i < 2; ++i) {
        run.connects.push_back(connect(10.0 * i, 101, v6(8000), TraceOutcome::refused));
        run.connects.push_back(connect(10.0 * i + 0.2, 102 + i, v4(8000), TraceOutcome::accepted));
    }
    const auto r = analyze_trace(run, 100ms);
    REQUIRE(r.groups.size() == 1);
    CHECK(r.groups[0].host == "localhost");
    CHECK(r.groups[0].connections == 2);
    CHECK(r.groups[0].fallbacks == 2);
    CHECK(r.groups[0].failures == 0);
}

TEST_CASE("trace: threads connecting at once keep their own connections", "[trace]") {
    TraceRun run = python_run(0);
    run.connects.push_back(connect(0, 1, v6(8000), TraceOutcome::refused));
    run.connects.push_back(connect(0.1, 2, v6(8000), TraceOutcome::refused));
    run.connects.push_back(connect(0.2, 1, v4(8000), TraceOutcome::accepted));
    run.connects.push_back(connect(0.3, 2, v4(8000), TraceOutcome::accepted));
    const auto r = analyze_trace(run, 100ms);
    REQUIRE(r.groups.size() == 1);
    CHECK(r.groups[0].connections == 2);
    CHECK(r.groups[0].fallbacks == 2);
}

TEST_CASE("trace: python falls back from [::1] on every connection", "[trace]") {
    const auto r = analyze_trace(python_run(10), 100ms);
    REQUIRE(r.groups.size() == 1);
    const auto& g = r.groups[0];
    CHECK(g.runtime == "python");
    CHECK(g.runtime_version == "3.11");
    CHECK(g.executables == std::vector<std::string>{"python3.11"});
    CHECK(g.host == "localhost");
    CHECK(g.name_source == NameSource::inferred);
    CHECK(g.port == 8000);
    CHECK(g.connects == 20);
    CHECK(g.refused == 10);
    CHECK(g.connections == 10);
    CHECK(g.fallbacks == 10);
    CHECK(g.failures == 0);
    REQUIRE(g.refused_addresses.size() == 1);
    CHECK(g.refused_addresses[0] == v6(8000));
    CHECK(g.lost_here == 2000us);
    CHECK(g.lost_here_max == 200us);
    // The table cannot tell requests from asyncio with a delay: the range,
    // Happy Eyeballs 250 ms to sequential 2 s.
    CHECK(g.windows_per_connection_min == 250ms);
    CHECK(g.windows_per_connection_max == windows_refusal_retries);
    CHECK(g.windows_total_max == 20s);
    CHECK(g.windows_total_min == 2500ms);
    CHECK_FALSE(g.ipv6_assumed_refused);
    REQUIRE(g.fix);
    REQUIRE(g.fix->connect_to);
    CHECK(*g.fix->connect_to == v4(8000));
    CHECK(r.exit_code == 1);
    CHECK(r.exit_reason == TraceExit::pays_on_windows);
    CHECK(r.refused_connects == 10);
}

TEST_CASE("trace: the server's own fix from the listener table, else the port's usual server",
          "[trace]") {
    auto run = python_run(1);
    Listener l;
    l.bound = v4(8000);
    l.pid = 7;
    l.process = "uvicorn";
    l.server = ServerMatch{"uvicorn", false};
    run.listeners.push_back(l);
    auto r = analyze_trace(run, 100ms);
    REQUIRE(r.groups[0].fix);
    CHECK(r.groups[0].fix->server == "uvicorn");
    CHECK_FALSE(r.groups[0].fix->server_inferred);
    CHECK(r.groups[0].fix->server_fix.find("uvicorn") != std::string::npos);

    r = analyze_trace(python_run(1, 11434), 100ms);
    REQUIRE(r.groups[0].fix);
    CHECK(r.groups[0].fix->server == "ollama");
    CHECK(r.groups[0].fix->server_inferred);
}

TEST_CASE("trace: a closed port fails here and costs each address's retries on Windows",
          "[trace]") {
    TraceRun run = python_run(0);
    run.connects.push_back(connect(0, 100, v6(9), TraceOutcome::refused));
    run.connects.push_back(connect(0.1, 100, v4(9), TraceOutcome::refused));
    run.exit_status = 1; // the program saw ConnectionRefusedError
    const auto r = analyze_trace(run, 100ms);
    REQUIRE(r.groups.size() == 1);
    const auto& g = r.groups[0];
    CHECK(g.failures == 1);
    CHECK(g.fallbacks == 0);
    CHECK(g.refused_addresses.size() == 2);
    CHECK(g.windows_per_connection_max == 2 * windows_refusal_retries);
    CHECK(g.windows_may_fail);
    REQUIRE(g.fix);
    CHECK_FALSE(g.fix->connect_to);
    // The command's own status comes first.
    CHECK(r.exit_code == 1);
    CHECK(r.exit_reason == TraceExit::command_status);
}

TEST_CASE("trace: a literal address that accepts costs nothing anywhere", "[trace]") {
    TraceRun run = python_run(0);
    run.connects.push_back(connect(0, 100, v4(8000), TraceOutcome::accepted));
    const auto r = analyze_trace(run, 100ms);
    REQUIRE(r.groups.size() == 1);
    CHECK(r.groups[0].host == "127.0.0.1");
    CHECK(r.groups[0].windows_total_max == 0us);
    CHECK_FALSE(r.groups[0].fix);
    CHECK(r.exit_code == 0);
    CHECK(r.exit_reason == TraceExit::clean);
}

TEST_CASE("trace: a name seen by the shim without Windows' order is projected", "[trace]") {
    // Linux's hosts file gave 127.0.0.1 only: the program connected at
    // once, but Windows would try ::1 first. No listener table: ::1 taken
    // as refused, and said.
    TraceRun run = python_run(0);
    auto c = connect(0, 100, v4(8000), TraceOutcome::accepted);
    c.name = "localhost";
    c.name_source = NameSource::shim;
    run.connects.push_back(c);
    const auto r = analyze_trace(run, 100ms);
    REQUIRE(r.groups.size() == 1);
    CHECK(r.groups[0].ipv6_assumed_refused);
    CHECK(r.groups[0].windows_per_connection_max == windows_refusal_retries);
    CHECK(r.groups[0].lost_here == 0us);
    CHECK(r.exit_code == 1);
}

TEST_CASE("trace: Node.js and Go turn retries off on Windows loopback", "[trace]") {
    TraceRun run = python_run(3);
    run.processes.back() = {100, 1, "/usr/bin/node", {"node", "app.js"}, "node", "20.20.2"};
    auto r = analyze_trace(run, 100ms);
    REQUIRE(r.groups.size() == 1);
    CHECK(r.groups[0].runtime == "node");
    CHECK(r.groups[0].windows_per_connection_max < 10ms);
    CHECK(r.groups[0].windows_may_fail); // net.connect without autoSelectFamily

    run.processes.back() = {100, 1, "/tmp/dial", {"dial"}, "go", "1.19.8"};
    r = analyze_trace(run, 100ms);
    CHECK(r.groups[0].windows_per_connection_max == 300ms); // its fallback delay
    run.processes.back().runtime_version = "1.22.0";
    r = analyze_trace(run, 100ms);
    CHECK(r.groups[0].windows_per_connection_max < 10ms);
    CHECK(r.exit_code == 0);
}

TEST_CASE("trace: --windows-timing's tarpit stands for a refusal, and time lost is measured",
          "[trace]") {
    TraceRun run = python_run(0);
    run.windows_timing = true;
    for (int i = 0; i < 3; ++i) {
        run.connects.push_back(connect(3000.0 * i, 100, v6(8000), TraceOutcome::abandoned, 2037));
        run.connects.push_back(connect(3000.0 * i + 2037, 100, v4(8000), TraceOutcome::accepted));
    }
    const auto r = analyze_trace(run, 100ms);
    REQUIRE(r.groups.size() == 1);
    CHECK(r.groups[0].fallbacks == 3);
    CHECK(r.groups[0].lost_here == 3 * 2037ms);
    CHECK(r.groups[0].lost_here_max == 2037ms);
    CHECK(r.exit_reason == TraceExit::pays_here);
    // 2.04 s per connection: the sequential rows, not asyncio's 250 ms.
    REQUIRE(r.groups[0].measured_per_connection);
    CHECK(*r.groups[0].measured_per_connection == 2037ms);
    const auto& rows = r.groups[0].matching_rows;
    CHECK(std::find(rows.begin(), rows.end(), "Python requests / urllib / httpx (sync)") !=
          rows.end());
    CHECK(std::find(rows.begin(), rows.end(), "Python asyncio (happy_eyeballs_delay=0.25)") ==
          rows.end());
}

TEST_CASE("trace exit code: the command's status, then its signal, then the threshold", "[trace]") {
    TraceRun run;
    run.exit_signal = 2;
    CHECK(trace_exit_code(run, 0us, 0us, 100ms) == std::pair{130, TraceExit::command_signal});
    run.exit_signal = 0;
    run.exit_status = 3;
    CHECK(trace_exit_code(run, 5s, 5s, 100ms) == std::pair{3, TraceExit::command_status});
    run.exit_status = 0;
    CHECK(trace_exit_code(run, 101ms, 0us, 100ms) == std::pair{1, TraceExit::pays_here});
    CHECK(trace_exit_code(run, 0us, 2s, 100ms) == std::pair{1, TraceExit::pays_on_windows});
    CHECK(trace_exit_code(run, 100ms, 100ms, 100ms) == std::pair{0, TraceExit::clean});
}

TEST_CASE("trace rows: a runtime's rows by version, and Python's library rows always", "[trace]") {
    auto names = [](std::string_view rt, std::string_view v) {
        std::vector<std::string> out;
        for (const auto* m : runtime_rows(rt, v))
            out.emplace_back(m->id);
        return out;
    };
    const auto py = names("python", "3.11.7");
    CHECK(py.size() == 6);
    CHECK(names("go", "1.19.8") == std::vector<std::string>{"go"});
    CHECK(runtime_rows("go", "1.19.8").front()->versions.below == "1.21.0");
    CHECK(names("java", "17.0.15") == std::vector<std::string>{"java-socket", "java-httpclient"});
    CHECK(runtime_rows("", "").size() == client_models().size());
}
