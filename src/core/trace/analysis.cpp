// `loopcheck trace`'s conclusions (trace/report.hpp): names inferred, the
// connects grouped per (runtime, host:port) and cut into connections, what
// each group lost here, and the exit code. What the groups cost on Windows
// and their fix are trace_cost.cpp's.
#include "core/trace/cost.hpp"
#include "loopcheck/core/trace/report.hpp"
#include "loopcheck/core/trace/runtime.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

namespace loopcheck {

namespace {

bool is_v4_loopback(const Address& a) {
    return a.family == Family::ipv4 && a.bytes[0] == 127;
}

bool is_v6_loopback(const Address& a) {
    return a.family == Family::ipv6 && a == ipv6_loopback(a.port);
}

Micros ms(double v) {
    return Micros{static_cast<std::int64_t>(v * 1000.0 + 0.5)};
}

/// The runtime of each pid: its last exec (a wrapper such as a shell or
/// pyenv's shim execs the real program in the same pid, which then
/// connects). Where the tracer left the runtime empty, from the names.
std::map<int, RuntimeId> runtimes_by_pid(const TraceRun& run) {
    std::map<int, RuntimeId> out;
    for (const auto& p : run.processes) {
        RuntimeId id{p.runtime, p.runtime_version, {}};
        if (id.runtime.empty())
            id = identify_runtime(p.executable, p.argv);
        out[p.pid] = id;
    }
    return out;
}

std::string file_name(std::string_view path) {
    const auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

struct GroupKey {
    std::string runtime, version, host;
    std::uint16_t port;
    auto operator<=>(const GroupKey&) const = default;
};

/// One connection: the connects (indexes into run.connects) of one thread
/// to one group until one is accepted or an address comes round again.
using Connection = std::vector<std::size_t>;

bool failed(TraceOutcome o) {
    return o != TraceOutcome::accepted && o != TraceOutcome::unknown;
}

/// What one connection lost here: from its first attempt to its accepted
/// one, or to the end of its last failure; 0 for a first-time accept.
Micros connection_lost(const TraceRun& run, const Connection& c) {
    const auto& first = run.connects[c.front()];
    for (std::size_t i : c)
        if (run.connects[i].outcome == TraceOutcome::accepted)
            return ms(run.connects[i].start_ms - first.start_ms);
    const auto& last = run.connects[c.back()];
    return ms(last.start_ms + last.duration_ms.value_or(0) - first.start_ms);
}

} // namespace

void infer_localhost(std::vector<TraceConnect>& connects) {
    // "In a row" per thread, so two threads' interleaved connects do not
    // hide a pair; and per process, because Go's runtime dials the
    // fallback from another goroutine, often on another thread.
    std::map<int, std::size_t> by_thread, by_process;
    auto pair_up = [&](TraceConnect& p, TraceConnect& c) {
        const bool pair = p.destination.port == c.destination.port &&
                          ((is_v6_loopback(p.destination) && is_v4_loopback(c.destination)) ||
                           (is_v4_loopback(p.destination) && is_v6_loopback(c.destination)));
        if (!pair || !c.name.empty())
            return;
        if (p.name.empty()) {
            p.name = "localhost";
            p.name_source = NameSource::inferred;
        }
        if (p.name_source == NameSource::inferred) {
            c.name = p.name;
            c.name_source = NameSource::inferred;
        }
    };
    for (std::size_t i = 0; i < connects.size(); ++i) {
        auto& c = connects[i];
        if (const auto t = by_thread.find(c.tid); t != by_thread.end())
            pair_up(connects[t->second], c);
        if (const auto p = by_process.find(c.pid); p != by_process.end())
            pair_up(connects[p->second], c);
        by_thread[c.tid] = i;
        by_process[c.pid] = i;
    }
}

std::pair<int, TraceExit> trace_exit_code(const TraceRun& run, Micros lost_here,
                                          Micros windows_total_max, Micros threshold) {
    if (run.exit_signal > 0)
        return {128 + run.exit_signal, TraceExit::command_signal};
    if (run.exit_status != 0)
        return {run.exit_status, TraceExit::command_status};
    if (lost_here > threshold)
        return {1, TraceExit::pays_here};
    if (windows_total_max > threshold)
        return {1, TraceExit::pays_on_windows};
    return {0, TraceExit::clean};
}

TraceReport analyze_trace(TraceRun run, Micros threshold) {
    TraceReport report;
    report.threshold = threshold;
    infer_localhost(run.connects);
    const auto runtimes = runtimes_by_pid(run);

    std::map<GroupKey, std::size_t> index;
    std::vector<std::vector<Connection>> connections;
    // The open connection of each (thread, group), and each process's last
    // connect (its group and connection).
    std::map<std::pair<int, std::size_t>, std::size_t> open;
    std::map<int, std::pair<std::size_t, std::size_t>> last_of_process;
    for (std::size_t i = 0; i < run.connects.size(); ++i) {
        const auto& c = run.connects[i];
        const auto rt = runtimes.find(c.pid);
        const RuntimeId id = rt == runtimes.end() ? RuntimeId{} : rt->second;
        report.connect_runtimes.push_back(id.runtime);
        if (c.outcome == TraceOutcome::refused)
            ++report.refused_connects;
        const GroupKey key{id.runtime, id.version,
                           c.name.empty() ? ip_string(c.destination) : c.name, c.destination.port};
        auto [at, added] = index.try_emplace(key, report.groups.size());
        if (added) {
            TraceGroup g;
            g.runtime = key.runtime;
            g.runtime_version = key.version;
            g.host = key.host;
            g.port = key.port;
            g.name_source = c.name_source;
            report.groups.push_back(std::move(g));
            connections.emplace_back();
        }
        TraceGroup& g = report.groups[at->second];
        // The pid's last exec made the connect (a wrapper's exec comes first).
        const auto exe = std::find_if(run.processes.rbegin(), run.processes.rend(),
                                      [&](const TraceProcess& p) { return p.pid == c.pid; });
        if (exe != run.processes.rend()) {
            const auto name = file_name(exe->executable);
            if (std::find(g.executables.begin(), g.executables.end(), name) == g.executables.end())
                g.executables.push_back(name);
        }
        ++g.connects;
        g.accepted += c.outcome == TraceOutcome::accepted;
        g.refused += c.outcome == TraceOutcome::refused;
        g.failed_otherwise += failed(c.outcome) && c.outcome != TraceOutcome::refused;
        if (c.outcome == TraceOutcome::refused &&
            std::find(g.refused_addresses.begin(), g.refused_addresses.end(), c.destination) ==
                g.refused_addresses.end())
            g.refused_addresses.push_back(c.destination);

        auto& list = connections[at->second];
        const auto slot = std::make_pair(c.tid, at->second);
        auto current = open.find(slot);
        bool fresh = current == open.end();
        if (!fresh) {
            const Connection& conn = list[current->second];
            fresh = std::any_of(conn.begin(), conn.end(), [&](std::size_t j) {
                return run.connects[j].outcome == TraceOutcome::accepted ||
                       run.connects[j].destination == c.destination;
            });
        }
        if (fresh) {
            // Go's fallback runs in another goroutine, often on another
            // thread: the process's previous connect to this group, when
            // its connection has not connected nor tried this address, is
            // the same connection.
            const auto last = last_of_process.find(c.pid);
            if (last != last_of_process.end() && last->second.first == at->second) {
                const Connection& conn = list[last->second.second];
                fresh = std::any_of(conn.begin(), conn.end(), [&](std::size_t j) {
                    return run.connects[j].outcome == TraceOutcome::accepted ||
                           run.connects[j].destination == c.destination;
                });
                if (!fresh) {
                    list[last->second.second].push_back(i);
                    open[slot] = last->second.second;
                }
            }
        } else {
            list[current->second].push_back(i);
        }
        if (fresh) {
            list.push_back({i});
            open[slot] = list.size() - 1;
        }
        last_of_process[c.pid] = {at->second, open[slot]};
    }

    for (std::size_t gi = 0; gi < report.groups.size(); ++gi) {
        TraceGroup& g = report.groups[gi];
        for (const Connection& conn : connections[gi]) {
            ++g.connections;
            const bool connected = std::any_of(conn.begin(), conn.end(), [&](std::size_t j) {
                return run.connects[j].outcome == TraceOutcome::accepted;
            });
            const bool refused_first = run.connects[conn.front()].outcome != TraceOutcome::accepted;
            g.fallbacks += connected && refused_first;
            g.failures += !connected;
            if (conn.size() > 1 || !connected) {
                const Micros lost = connection_lost(run, conn);
                g.lost_here += lost;
                g.lost_here_max = std::max(g.lost_here_max, lost);
            }
        }
        cost_on_windows(g, connections[gi], run);
        report.lost_here += g.lost_here;
        report.windows_total_min += g.windows_total_min;
        report.windows_total_max += g.windows_total_max;
    }
    // The slowest on Windows first, then the most time lost here.
    std::stable_sort(report.groups.begin(), report.groups.end(),
                     [](const TraceGroup& a, const TraceGroup& b) {
                         return std::tie(a.windows_total_max, a.lost_here, a.connects) >
                                std::tie(b.windows_total_max, b.lost_here, b.connects);
                     });
    std::tie(report.exit_code, report.exit_reason) =
        trace_exit_code(run, report.lost_here, report.windows_total_max, threshold);
    report.run = std::move(run);
    return report;
}

} // namespace loopcheck
