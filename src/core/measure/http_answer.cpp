// The GET of wait's HTTP readiness and what its answer means
// (include/loopcheck/core/measure/http_answer.hpp).
#include "loopcheck/core/measure/http_answer.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace loopcheck {

namespace {

constexpr int lowest_status = 100, highest_status = 599;
constexpr std::size_t max_reason = 60;

/// A status code "NNN" (100-599), or nothing.
std::optional<int> status_code(std::string_view text) {
    int value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end || text.size() != 3 || value < lowest_status ||
        value > highest_status)
        return std::nullopt;
    return value;
}

} // namespace

std::vector<StatusRange> default_expected_statuses() {
    return {StatusRange{200, 399}};
}

Result<std::vector<StatusRange>> parse_status_ranges(std::string_view text) {
    std::vector<StatusRange> out;
    if (text.empty())
        return usage_error("--expect-status: empty (try 200, 200-299 or 200,204)");
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view part = text.substr(start, comma - start);
        const std::size_t dash = part.find('-');
        const auto low = status_code(part.substr(0, dash));
        const auto high = dash == std::string_view::npos ? low : status_code(part.substr(dash + 1));
        if (!low || !high)
            return usage_error(fmt::format(
                "--expect-status: '{}' is not a status from 100 to 599 or a range of them "
                "(try 200, 200-299 or 200,204)",
                std::string(part)));
        if (*high < *low)
            return usage_error(
                fmt::format("--expect-status: range '{}' runs backwards", std::string(part)));
        out.push_back({*low, *high});
        start = comma + 1;
    }
    return out;
}

std::string status_ranges_text(const std::vector<StatusRange>& ranges) {
    std::vector<std::string> parts;
    for (const auto& r : ranges)
        parts.push_back(r.low == r.high ? fmt::format("{}", r.low)
                                        : fmt::format("{}-{}", r.low, r.high));
    return fmt::format("{}", fmt::join(parts, ","));
}

bool status_expected(const std::vector<StatusRange>& ranges, int status) noexcept {
    return std::any_of(ranges.begin(), ranges.end(),
                       [&](const StatusRange& r) { return status >= r.low && status <= r.high; });
}

std::string http_get_request(std::string_view host, std::uint16_t port, std::string_view path,
                             std::string_view loopcheck_version) {
    const bool v6 = host.find(':') != std::string_view::npos;
    // An HTTP/1.1 request without a Host header is a 400 in every server;
    // "localhost:8000" passes the Host checks of dev servers (Vite's
    // allowedHosts, Django's ALLOWED_HOSTS in debug) as a browser's would.
    return fmt::format("GET {} HTTP/1.1\r\nHost: {}{}{}:{}\r\nUser-Agent: loopcheck/{}\r\n"
                       "Accept: */*\r\nConnection: close\r\n\r\n",
                       path.empty() ? std::string_view("/") : path, v6 ? "[" : "", host,
                       v6 ? "]" : "", port, loopcheck_version);
}

HttpAnswer read_answer(const HttpExchange& exchange) {
    HttpAnswer a{.status = std::nullopt,
                 .reason = {},
                 .end = exchange.end,
                 .error = exchange.error,
                 .took = exchange.took};
    std::string_view bytes = exchange.bytes;
    const std::size_t eol = bytes.find('\n');
    if (eol == std::string_view::npos && exchange.end != ExchangeEnd::closed)
        return a; // no whole status line
    std::string_view line = bytes.substr(0, eol);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    // "HTTP/1.1 503 Service Unavailable" (RFC 9112 section 4); HTTP/1.0
    // servers answer too.
    if (!line.starts_with("HTTP/1.") || line.size() < 12 || line[8] != ' ')
        return a;
    const auto code = status_code(line.substr(9, 3));
    if (!code || (line.size() > 12 && line[12] != ' '))
        return a;
    a.status = code;
    // The reason phrase is the server's: only printable ASCII reaches a
    // report, and not much of it.
    for (const char c : line.substr(std::min<std::size_t>(line.size(), 13))) {
        if (a.reason.size() >= max_reason)
            break;
        a.reason += (c >= 0x20 && c < 0x7f) ? c : '?';
    }
    return a;
}

std::string answer_text(const HttpAnswer& answer) {
    if (answer.status)
        return answer.reason.empty() ? fmt::format("{}", *answer.status)
                                     : fmt::format("{} {}", *answer.status, answer.reason);
    switch (answer.end) {
    case ExchangeEnd::head:
        return "not HTTP";
    case ExchangeEnd::closed:
        return "closed without a status line";
    case ExchangeEnd::reset:
        return "reset before a status line";
    case ExchangeEnd::timed_out:
        return fmt::format("no status line within {}", format_duration(answer.took));
    case ExchangeEnd::refused:
        return "refused the GET's connect";
    case ExchangeEnd::failed:
        return answer.error.empty() ? std::string("GET failed") : "GET failed: " + answer.error;
    }
    return "GET failed";
}

} // namespace loopcheck
