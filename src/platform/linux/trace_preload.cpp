// The preload mode's log: one line per loopback TCP connect the program
// made through the C library's connect() (C), and one per getsockopt
// (SO_ERROR) it read (E), which gives a non-blocking connect its outcome
// as the program itself learnt it. The format is trace_name_shim.cpp's.
#include "platform/linux/trace_preload.hpp"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sstream>
#include <unistd.h>

namespace loopcheck::platform::trace {

PreloadLog::PreloadLog() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/loopcheck-trace-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
        return;
    dir_ = pattern;
    const std::string file = dir_ + "/connects";
    const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    close(fd);
    path_ = file;
}

PreloadLog::~PreloadLog() {
    if (!path_.empty())
        unlink(path_.c_str());
    if (!dir_.empty())
        rmdir(dir_.c_str());
}

namespace {

void set_outcome(TraceConnect& c, int err) {
    c.error = err;
    c.outcome = err == 0              ? TraceOutcome::accepted
                : err == ECONNREFUSED ? TraceOutcome::refused
                : err == ETIMEDOUT    ? TraceOutcome::timed_out
                                      : TraceOutcome::error;
}

// One C line: pid tid start end family hex port errno nonblocking fd name.
bool parse_connect(std::istringstream& in, double t0_ns, TraceConnect& c, int& fd) {
    long long start = 0, end = 0;
    int family = 0, port = 0, err = 0, nonblocking = 0;
    std::string hex, name;
    if (!(in >> c.pid >> c.tid >> start >> end >> family >> hex >> port >> err >> nonblocking >>
          fd >> name) ||
        hex.size() != 32)
        return false;
    c.destination.family = family == 6 ? Family::ipv6 : Family::ipv4;
    for (std::size_t i = 0; i < 16; ++i)
        c.destination.bytes[i] =
            static_cast<std::uint8_t>(std::strtoul(hex.substr(2 * i, 2).c_str(), nullptr, 16));
    c.destination.port = static_cast<std::uint16_t>(port);
    c.start_ms = (static_cast<double>(start) - t0_ns) / 1e6;
    if (name != "-") {
        c.name = name;
        c.name_source = NameSource::shim;
    }
    c.nonblocking = nonblocking != 0;
    if (!c.nonblocking) {
        set_outcome(c, err);
        c.duration_ms = static_cast<double>(end - start) / 1e6;
        if (err != 0)
            c.program_errno = err;
    } else if (err != EINPROGRESS) {
        set_outcome(c, err);
    }
    return true;
}

} // namespace

std::vector<TraceConnect> read_preload_log(const std::string& path,
                                           std::chrono::steady_clock::time_point t0) {
    std::vector<TraceConnect> connects;
    FILE* f = std::fopen(path.c_str(), "re");
    if (f == nullptr)
        return connects;
    const double t0_ns = static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t0.time_since_epoch()).count());
    std::map<std::pair<int, int>, std::size_t> in_flight; // (pid, fd) -> connect
    char line[1024];
    while (std::fgets(line, sizeof line, f) != nullptr) {
        std::istringstream in(line + 1);
        if (line[0] == 'C') {
            TraceConnect c;
            int fd = -1;
            if (!parse_connect(in, t0_ns, c, fd))
                continue;
            if (c.nonblocking && c.outcome == TraceOutcome::unknown)
                in_flight[{c.pid, fd}] = connects.size();
            connects.push_back(std::move(c));
        } else if (line[0] == 'E') {
            int pid = 0, fd = 0, err = 0;
            long long at = 0;
            if (!(in >> pid >> fd >> err >> at))
                continue;
            const auto it = in_flight.find({pid, fd});
            if (it == in_flight.end())
                continue;
            TraceConnect& c = connects[it->second];
            c.program_errno = err;
            set_outcome(c, err);
            c.duration_ms = (static_cast<double>(at) - t0_ns) / 1e6 - c.start_ms;
            in_flight.erase(it);
        }
    }
    std::fclose(f);
    return connects;
}

} // namespace loopcheck::platform::trace
