// `loopcheck listen` as Markdown: the listening sockets as a table, then
// how many connections were accepted.
#include "loopcheck/report/markdown.hpp"

#include <fmt/format.h>

namespace loopcheck {

std::string render_markdown_listening(const std::vector<ListeningSocket>& sockets) {
    std::string out = "## loopcheck listen\n\n| Listening on | IPV6_V6ONLY |\n|---|---|\n";
    for (const auto& s : sockets) {
        const bool wildcard6 = s.bound.family == Family::ipv6 && is_unspecified(s.bound);
        out += fmt::format("| `{}` | {} |\n", endpoint_string(s.bound),
                           wildcard6 ? (s.v6only ? "on" : "off") : "-");
    }
    return out + "\n";
}

std::string render_markdown_stopped(std::size_t accepted) {
    return fmt::format("Stopped after {} connection(s).\n", accepted);
}

} // namespace loopcheck
