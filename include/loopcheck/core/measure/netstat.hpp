// Linux's TCP counters in /proc/net/netstat, as far as loopcheck reads
// them: ListenOverflows counts SYNs a listener dropped because its accept
// queue (the listen backlog) was full. Pure: the platform reads the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace loopcheck {

/// The TcpExt ListenOverflows counter from the text of /proc/net/netstat
/// (a "TcpExt:" line of names followed by a "TcpExt:" line of values);
/// nullopt when the text has no such pair or the value is not a number.
std::optional<std::uint64_t> parse_listen_overflows(std::string_view netstat);

/// The counter before and after the probes ran.
struct ListenOverflows {
    std::uint64_t before = 0;
    std::uint64_t after = 0;
    friend bool operator==(const ListenOverflows&, const ListenOverflows&) = default;
};

} // namespace loopcheck
