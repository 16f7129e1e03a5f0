// `loopcheck wait http://...`: the GET a readiness poll sends, what came
// back, and whether that status counts as ready. The bytes move in
// src/platform/*/http_exchange.cpp; every decision about them is here.
#pragma once

#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// Statuses `--expect-status` accepts, inclusive: "200-399" is {200, 399}.
struct StatusRange {
    int low = 200;
    int high = 399;
    friend bool operator==(const StatusRange&, const StatusRange&) = default;
};

/// The default: any 2xx or 3xx (a redirect means an application answers),
/// as Kubernetes' httpGet probe counts 200 to 399.
std::vector<StatusRange> default_expected_statuses();

/// Parses `--expect-status`: "200", "200-299", "200,204,301-308". Each
/// status is 100 to 599. The error is one line naming the bad part.
Result<std::vector<StatusRange>> parse_status_ranges(std::string_view text);

/// "200-399", "200,204": the ranges as the option takes them.
std::string status_ranges_text(const std::vector<StatusRange>& ranges);

bool status_expected(const std::vector<StatusRange>& ranges, int status) noexcept;

/// The GET a poll sends: HTTP/1.1 with a Host header (`host` as the URL
/// named it, brackets added for an IPv6 literal), `Connection: close` and
/// nothing to keep alive. `path` as a request names it ("/health?x=1").
std::string http_get_request(std::string_view host, std::uint16_t port, std::string_view path,
                             std::string_view loopcheck_version);

/// How one exchange ended, as the socket saw it.
enum class ExchangeEnd : std::uint8_t {
    head,      ///< the head arrived (a blank line), or the read cap did
    closed,    ///< the server closed first (the bytes may hold a status line)
    reset,     ///< the server reset the connection
    timed_out, ///< no whole head within the limit
    refused,   ///< the connect was refused (the listener went away)
    failed,    ///< anything else; `error` says what
};

/// What the platform's exchange returns: the bytes read (at most
/// max_answer_head) and how it ended.
struct HttpExchange {
    ExchangeEnd end = ExchangeEnd::failed;
    std::string bytes;
    Micros took{0};
    std::string error{}; ///< for ExchangeEnd::failed: the OS's words
};

/// The most of an answer an exchange reads: a status line and headers.
inline constexpr std::size_t max_answer_head = 16 * 1024;

/// What one GET got.
struct HttpAnswer {
    std::optional<int> status; ///< the status line's code, when there was one
    std::string reason;        ///< its reason phrase: printable ASCII, at most 60 bytes
    ExchangeEnd end = ExchangeEnd::failed;
    std::string error; ///< the OS's words, for ExchangeEnd::failed
    Micros took{0};
    friend bool operator==(const HttpAnswer&, const HttpAnswer&) = default;
};

/// The answer in an exchange: the status line if the bytes start with
/// one ("HTTP/1.1 503 Service Unavailable"), whatever came after it.
HttpAnswer read_answer(const HttpExchange& exchange);

/// "503 Service Unavailable", "reset before a status line", "no status
/// line within 1.00 s", "closed without a status line", "not HTTP".
std::string answer_text(const HttpAnswer& answer);

} // namespace loopcheck
