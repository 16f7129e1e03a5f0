// `loopcheck listen` as JSON Lines: one compact object per event, each on
// its own line, written as it happens (docs/usage.md lists the fields).
#include "loopcheck/report/json.hpp"
#include "report/json/writer.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

/// A JSON string with its quotes, escaped as the writer escapes. (Not
/// "quoted": with a std::string argument, ADL would pick std::quoted where
/// <iomanip> is included, as with g++ 14 and fmt 10.)
std::string json_string(std::string_view text) {
    return JsonWriter::escape(text);
}

} // namespace

std::string render_json_listening(const std::vector<ListeningSocket>& sockets) {
    std::string out;
    for (const auto& s : sockets) {
        // v6only only means something on an IPv6 wildcard socket ([::]).
        const bool wildcard6 = s.bound.family == Family::ipv6 && is_unspecified(s.bound);
        out += fmt::format(
            "{{\"event\":\"listening\",\"address\":{},\"ip\":{},\"port\":{},\"family\":{},"
            "\"v6only\":{}}}\n",
            json_string(endpoint_string(s.bound)), json_string(ip_string(s.bound)), s.bound.port,
            json_string(family_name(s.bound.family)),
            wildcard6 ? (s.v6only ? "true" : "false") : "null");
    }
    return out;
}

std::string render_json_accepted(const Address& peer, const Address& on) {
    return fmt::format("{{\"event\":\"accepted\",\"peer\":{},\"on\":{}}}\n",
                       json_string(endpoint_string(peer)), json_string(endpoint_string(on)));
}

std::string render_json_stopped(std::size_t accepted) {
    return fmt::format("{{\"event\":\"stopped\",\"accepted\":{}}}\n", accepted);
}

} // namespace loopcheck
