// `loopcheck listen` as one document: the listening sockets, as "listening
// on ADDRESS" lines on the terminal (one line each, never wrapped: a script
// reads the port that port 0 picked) and as a table in Markdown.
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "report/document.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

using namespace doc;

/// "on" or "off" for a socket on [::], where IPV6_V6ONLY decides whether
/// it takes IPv4 too; "" for the others.
std::string_view v6only_state(const ListeningSocket& s) {
    if (s.bound.family != Family::ipv6 || !is_unspecified(s.bound))
        return {};
    return s.v6only ? "on" : "off";
}

Document listening_document(const std::vector<ListeningSocket>& sockets) {
    Document d;
    d.add(Paragraph{.body = {literal("loopcheck listen")}, .level = 2, .media = Media::markdown});
    Table table{.columns = {{{literal("Listening on")}}, {{literal("IPV6_V6ONLY")}}},
                .media = Media::markdown};
    for (const auto& s : sockets) {
        const auto v6only = v6only_state(s);
        table.rows.push_back({Cell{{code(endpoint_string(s.bound))}},
                              Cell{{literal(v6only.empty() ? "-" : std::string(v6only))}}});
        d.add(Paragraph{
            .body = {literal("listening on "), toned(Tone::bold, code(endpoint_string(s.bound))),
                     literal(v6only.empty() ? "" : fmt::format(" (IPV6_V6ONLY {})", v6only))},
            .wrap = false,
            .media = Media::text});
    }
    d.add(std::move(table));
    d.add(Gap{Media::markdown}); // the closing line follows later
    return d;
}

} // namespace

std::string render_text_listening(const std::vector<ListeningSocket>& sockets,
                                  const TextStyle& style) {
    return to_terminal(listening_document(sockets), style);
}

std::string render_markdown_listening(const std::vector<ListeningSocket>& sockets) {
    return to_markdown(listening_document(sockets));
}

std::string render_markdown_stopped(std::size_t accepted) {
    Document d;
    d.add(Paragraph{.body = {literal(fmt::format("Stopped after {} connection(s).", accepted))}});
    return to_markdown(d);
}

} // namespace loopcheck
