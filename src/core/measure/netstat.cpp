// Parsing ListenOverflows from /proc/net/netstat's text (the accept-queue-full finding).
#include "loopcheck/core/measure/netstat.hpp"

#include <charconv>
#include <cstdint>
#include <vector>

namespace loopcheck {

namespace {

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

} // namespace

std::optional<std::uint64_t> parse_listen_overflows(std::string_view netstat) {
    // The file pairs a header line with a value line per group; the header
    // lists the names, so the column is looked up, not assumed.
    std::vector<std::string_view> lines;
    while (!netstat.empty()) {
        const auto nl = netstat.find('\n');
        lines.push_back(netstat.substr(0, nl));
        netstat = nl == std::string_view::npos ? std::string_view{} : netstat.substr(nl + 1);
    }
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        const auto names = fields(lines[i]);
        const auto values = fields(lines[i + 1]);
        if (names.empty() || names.front() != "TcpExt:" || values.empty() ||
            values.front() != "TcpExt:" || names.size() != values.size())
            continue;
        for (std::size_t k = 1; k < names.size(); ++k) {
            if (names[k] != "ListenOverflows")
                continue;
            std::uint64_t v = 0;
            const auto* first = values[k].data();
            const auto* last = first + values[k].size();
            const auto [ptr, ec] = std::from_chars(first, last, v);
            if (ec != std::errc{} || ptr != last)
                return std::nullopt;
            return v;
        }
    }
    return std::nullopt;
}

} // namespace loopcheck
