// wait's HTTP readiness: the GET it sends, what it reads back from the
// bytes a server sent, and --expect-status.
#include "loopcheck/core/measure/http_answer.hpp"
#include "support/catch.hpp"

#include <string>

using namespace loopcheck;

TEST_CASE("http: the GET names the path, the host as the URL does, and closes", "[http]") {
    CHECK(http_get_request("localhost", 8000, "/health?x=1", "1.2.3") ==
          "GET /health?x=1 HTTP/1.1\r\nHost: localhost:8000\r\nUser-Agent: loopcheck/1.2.3\r\n"
          "Accept: */*\r\nConnection: close\r\n\r\n");
    CHECK(http_get_request("::1", 80, "", "0").starts_with("GET / HTTP/1.1\r\nHost: [::1]:80\r\n"));
}

TEST_CASE("http: the status line is read from what the server sent", "[http]") {
    auto a = read_answer({ExchangeEnd::head, "HTTP/1.1 503 Service Unavailable\r\nA: b\r\n\r\n"});
    REQUIRE(a.status);
    CHECK(*a.status == 503);
    CHECK(a.reason == "Service Unavailable");
    CHECK(answer_text(a) == "503 Service Unavailable");
    // HTTP/1.0, no reason phrase, a close right after the line.
    a = read_answer({ExchangeEnd::closed, "HTTP/1.0 204"});
    CHECK(a.status == 204);
    CHECK(answer_text(a) == "204");
    // A hostile reason phrase: printable ASCII only, and short.
    a = read_answer(
        {ExchangeEnd::head, "HTTP/1.1 200 \x1b[31mOK" + std::string(200, 'x') + "\r\n"});
    CHECK(a.status == 200);
    CHECK(a.reason.find('\x1b') == std::string::npos);
    CHECK(a.reason.size() == 60);
}

TEST_CASE("http: what is not an answer says what happened", "[http]") {
    CHECK_FALSE(read_answer({ExchangeEnd::head, "SSH-2.0-OpenSSH_9.2\r\n\r\n"}).status);
    CHECK(answer_text(read_answer({ExchangeEnd::head, "SSH-2.0-OpenSSH\r\n\r\n"})) == "not HTTP");
    CHECK_FALSE(read_answer({ExchangeEnd::head, "HTTP/1.1 99 Low\r\n"}).status);
    CHECK_FALSE(read_answer({ExchangeEnd::head, "HTTP/1.1 2000 Long\r\n"}).status);
    CHECK(answer_text(read_answer({ExchangeEnd::reset, ""})) == "reset before a status line");
    CHECK(answer_text(read_answer({ExchangeEnd::closed, ""})) == "closed without a status line");
    HttpExchange slow{ExchangeEnd::timed_out, "HTTP/1.1 20", Micros{1'000'000}, {}};
    CHECK(answer_text(read_answer(slow)) == "no status line within 1.00 s");
    HttpExchange failed{ExchangeEnd::failed, "", Micros{0}, "Network is unreachable"};
    CHECK(answer_text(read_answer(failed)) == "GET failed: Network is unreachable");
}

TEST_CASE("http: --expect-status takes codes, ranges and lists", "[http]") {
    CHECK(default_expected_statuses() == std::vector<StatusRange>{{200, 399}});
    auto r = parse_status_ranges("200,204,301-308");
    REQUIRE(r);
    CHECK(status_ranges_text(*r) == "200,204,301-308");
    CHECK(status_expected(*r, 204));
    CHECK(status_expected(*r, 308));
    CHECK_FALSE(status_expected(*r, 203));
    CHECK_FALSE(status_expected(*r, 503));
    for (const char* bad :
         {"", "2OO", "99", "600", "300-200", "200,", ",200", "200-", "1e2", "200 - 299"}) {
        INFO(bad);
        auto e = parse_status_ranges(bad);
        REQUIRE_FALSE(e);
        CHECK(e.error().kind == ErrorKind::usage);
        CHECK(e.error().message.starts_with("--expect-status"));
    }
}
