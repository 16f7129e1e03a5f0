// Targets as typed: host:port, [v6]:port, URLs, bare ports; the usage errors; the echo.
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/text/text.hpp"
#include "support/catch.hpp"
#include "support/text.hpp"

#include <string>

using namespace loopcheck;
using namespace loopcheck::test;

namespace {

Target ok(const std::string& text) {
    auto r = parse_target(text);
    INFO(text << " -> " << (r ? "" : r.error().message));
    REQUIRE(r.ok());
    return *r;
}

std::string bad(const std::string& text) {
    auto r = parse_target(text);
    INFO(text);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ErrorKind::usage);
    CHECK(r.error().message.find('\n') == std::string::npos);
    return r.error().message;
}

} // namespace

TEST_CASE("host:port, literals and bare ports", "[target]") {
    auto t = ok("localhost:11434");
    CHECK(t.host == "localhost");
    CHECK(t.port == 11434);
    CHECK_FALSE(t.literal);
    CHECK(t.scheme.empty());

    t = ok("127.0.0.1:9");
    CHECK(t.host == "127.0.0.1");
    REQUIRE(t.literal);
    CHECK(t.literal->family == Family::ipv4);
    CHECK(t.literal->port == 9);

    t = ok("[::1]:8080");
    CHECK(t.host == "::1");
    REQUIRE(t.literal);
    CHECK(t.literal->family == Family::ipv6);
    CHECK(t.port == 8080);

    t = ok("11434");
    CHECK(t.host == "localhost");
    CHECK(t.port == 11434);
    t = ok(":8000");
    CHECK(t.host == "localhost");
    CHECK(t.port == 8000);

    t = ok("my-host.example_1.test.:65535");
    CHECK(t.port == 65535);
}

TEST_CASE("URLs: scheme default ports with path, query and userinfo ignored", "[target]") {
    auto t = ok("http://localhost:11434/v1");
    CHECK(t.scheme == "http");
    CHECK(t.host == "localhost");
    CHECK(t.port == 11434);
    CHECK_FALSE(t.port_from_scheme);

    CHECK(ok("http://localhost/").port == 80);
    CHECK(ok("http://localhost").port_from_scheme);
    CHECK(ok("https://localhost/x?y=1#z").port == 443);
    CHECK(ok("ws://localhost").port == 80);
    CHECK(ok("wss://localhost").port == 443);
    CHECK(ok("HTTP://LOCALHOST").scheme == "http");

    t = ok("https://user:secret@[::1]:8443/path?q");
    CHECK(t.host == "::1");
    CHECK(t.port == 8443);
    REQUIRE(t.literal);

    t = ok("ftp://localhost:2121");
    CHECK(t.port == 2121);
    CHECK(t.scheme == "ftp");
}

TEST_CASE("bad targets name the bad part", "[target]") {
    CHECK(contains(bad("localhost:0"), "port 0"));
    CHECK(contains(bad("localhost:65536"), "65536"));
    CHECK(contains(bad("localhost:999999"), "out of range"));
    CHECK(contains(bad("0"), "port 0"));
    CHECK(contains(bad("70000"), "out of range"));
    CHECK(contains(bad(":"), "missing port"));
    CHECK(contains(bad(":80x"), "port '80x' is not a number"));
    CHECK(contains(bad("[::1:80"), "unbalanced"));
    CHECK(contains(bad("::1]:80"), "unbalanced"));
    CHECK(contains(bad("[::1]x:80"), "stray characters"));
    CHECK(contains(bad("[]:80"), "empty host"));
    CHECK(contains(bad("[127.0.0.1]:80"), "not an IPv6"));
    CHECK(contains(bad("::1"), "brackets"));
    CHECK(contains(bad("fe80::1:80"), "brackets"));
    CHECK(contains(bad("ftp://localhost"), "no default port"));
    CHECK(contains(bad("localhost"), "no port"));
    CHECK(contains(bad("local host:80"), "stray character ' '"));
    CHECK(contains(bad("bad$name:80"), "stray character '$'"));
    CHECK(contains(bad("a..b:80"), "empty label"));
    CHECK(contains(bad("localhost:"), "missing port"));
    CHECK(contains(bad("localhost:8o"), "not a number"));
    CHECK(contains(bad("1.2.3:80"), "not a valid IPv4"));
    CHECK(contains(bad("256.0.0.1:80"), "not a valid IPv4"));
    CHECK(contains(bad("http://"), "empty host"));
    CHECK(contains(bad("http://user@"), "empty host"));
    CHECK(contains(bad("1http://x:80"), "not a URL scheme"));
    CHECK(contains(bad(""), "empty target"));
    CHECK(contains(bad(std::string(254, 'a') + ":80"), "254 bytes"));
    CHECK(contains(bad(std::string(64, 'a') + ".com:80"), "63 bytes"));
    CHECK(contains(bad("host\x01:80"), "\\x01"));
    CHECK(contains(bad("h\xc3\xa9:80"), "\\xc3"));
}

TEST_CASE("a name of exactly 253 bytes is accepted", "[target]") {
    std::string name;
    while (name.size() < 253)
        name += name.empty() ? "a" : ".a";
    name.resize(253);
    if (name.back() == '.')
        name.back() = 'b';
    CHECK(ok(name + ":80").host.size() == 253);
}

TEST_CASE("HOST:PORT/path is a URL without its scheme: port and path kept", "[target]") {
    auto t = ok("localhost:18434/v1");
    CHECK(t.scheme.empty());
    CHECK(t.host == "localhost");
    CHECK(t.port == 18434);
    CHECK(t.input == "localhost:18434/v1");
    CHECK(ok("127.0.0.1:8000?x=1").port == 8000);
    CHECK(ok("[::1]:3000#top").host == "::1");
    CHECK(ok("[::1]:3000/a/b").literal.has_value());
    // The port is still required, and still a number.
    CHECK(contains(bad("localhost/v1"), "no port"));
    CHECK(contains(bad("localhost:80x/v1"), "not a number"));
    const auto v4 = make_ipv4(127, 0, 0, 1, 18434);
    CHECK(rewrite_host(ok("localhost:18434/v1"), v4) == "127.0.0.1:18434/v1");
}

TEST_CASE("rewrite_host keeps the rest of the input", "[target]") {
    const auto v4 = make_ipv4(127, 0, 0, 1, 11434);
    const auto v6 = ipv6_loopback(11434);
    CHECK(rewrite_host(ok("http://localhost:11434/v1"), v4) == "http://127.0.0.1:11434/v1");
    CHECK(rewrite_host(ok("http://localhost:11434/v1"), v6) == "http://[::1]:11434/v1");
    // The userinfo stays redacted in the fix a report prints (issue 28).
    CHECK(rewrite_host(ok("https://u:p@localhost/x"), v4) == "https://***@127.0.0.1/x");
    CHECK(rewrite_host(ok("localhost:11434"), v4) == "127.0.0.1:11434");
    CHECK(rewrite_host(ok("11434"), v4) == "127.0.0.1:11434");
    CHECK(rewrite_host(ok(":11434"), v6) == "[::1]:11434");
    CHECK(rewrite_host(ok("[::1]:11434"), v4) == "127.0.0.1:11434");
}

TEST_CASE("targets built without text equal the parsed text", "[target]") {
    auto same = [](const Target& built, std::string_view text) {
        const auto parsed = parse_target(text);
        REQUIRE(parsed.ok());
        CHECK(built.input == parsed->input);
        CHECK(built.scheme == parsed->scheme);
        CHECK(built.host == parsed->host);
        CHECK(built.port == parsed->port);
        CHECK(built.port_from_scheme == parsed->port_from_scheme);
        CHECK(built.literal == parsed->literal);
        CHECK(built.host_pos == parsed->host_pos);
        CHECK(built.host_len == parsed->host_len);
    };
    same(name_target("localhost", 11434), "localhost:11434");
    same(address_target(make_ipv4(127, 0, 0, 1, 9)), "127.0.0.1:9");
    same(address_target(ipv6_loopback(65535)), "[::1]:65535");
}

TEST_CASE("a URL's query and fragment values are redacted in the echo", "[target]") {
    // Issue 36: the token Jupyter prints reached the Markdown five times.
    auto t = parse_target("http://localhost:8888/lab?token=abc123#k=v");
    REQUIRE(t);
    CHECK(t->input == "http://localhost:8888/lab?token=***#k=***");
    CHECK(t->redacted.query);
    CHECK(t->redacted.fragment);
    CHECK_FALSE(t->redacted.userinfo);
    CHECK(t->port == 8888);
    auto bare = parse_target("localhost:8888/tree?token=abc123");
    REQUIRE(bare);
    CHECK(bare->input == "localhost:8888/tree?token=***");
    // --no-redact: as typed.
    auto kept = parse_target("http://u:p@localhost:8888/lab?token=abc123", Secrets::keep);
    REQUIRE(kept);
    CHECK(kept->input == "http://u:p@localhost:8888/lab?token=abc123");
    CHECK_FALSE(kept->redacted.any());
    CHECK(kept->input.substr(kept->host_pos, kept->host_len) == "localhost");
}

TEST_CASE("a URL's userinfo is redacted in the echo, not in what is probed", "[target]") {
    // Issue 28: the Markdown report for a public ticket showed the password
    // five times.
    auto t = parse_target("http://user:pass@localhost:8000/path?q=1");
    REQUIRE(t);
    CHECK(t->input == "http://***@localhost:8000/path?q=***");
    CHECK(t->userinfo_redacted);
    CHECK(t->host == "localhost");
    CHECK(t->port == 8000);
    CHECK(t->input.substr(t->host_pos, t->host_len) == "localhost");
    CHECK(rewrite_host(*t, make_ipv4(127, 0, 0, 1)) == "http://***@127.0.0.1:8000/path?q=***");

    auto plain = parse_target("http://localhost:8000/a@b");
    REQUIRE(plain);
    CHECK(plain->input == "http://localhost:8000/a@b"); // '@' in the path is no userinfo
    CHECK_FALSE(plain->userinfo_redacted);

    bool redacted = false;
    CHECK(redact_userinfo("loopcheck --markdown http://u:p@h:1/ ws://a@b@[::1]:2", &redacted) ==
          "loopcheck --markdown http://***@h:1/ ws://***@[::1]:2");
    CHECK(redacted);

    // Found by fuzz_target: a URL with userinfo in the path, after the host,
    // moved host_pos by its redaction and put it before the start of input.
    auto inner = parse_target("http://localhost:8000/x?next=http://user:pw@h/");
    REQUIRE(inner);
    CHECK(inner->input == "http://localhost:8000/x?next=***"); // the query's value goes whole
    CHECK(inner->input.substr(inner->host_pos, inner->host_len) == "localhost");
    CHECK(rewrite_host(*inner, make_ipv4(127, 0, 0, 1)) ==
          "http://127.0.0.1:8000/x?next=***");
    auto both = parse_target("wss://a:b@lo//x:http://user:pw@[::0@]:80/");
    REQUIRE(both);
    CHECK(both->input == "wss://***@lo//x:http://***@]:80/");
    CHECK(both->input.substr(both->host_pos, both->host_len) == "lo");
}

TEST_CASE("an invalid target's error line never quotes its userinfo", "[target]") {
    // A new user's typo in the port printed the password it came with.
    for (const char* input :
         {"http://user:pw@localhost:abc/", "https://user:pw@[::1", "ws://user:pw@lo:99999",
          "user:pw@localhost:99999", "pw@localhost:1", "http://user:pw@/"}) {
        INFO(input);
        const auto t = parse_target(input);
        REQUIRE_FALSE(t);
        CHECK_FALSE(contains(t.error().message, "pw"));
        CHECK(contains(t.error().message, "***@"));
    }
    CHECK(contains(parse_target("pw@localhost:1").error().message, "stray character '@'"));
    CHECK(redact_credentials("--count takes a whole number, not 'u:pw@x'") ==
          "--count takes a whole number, not '***@x'");
    CHECK(redact_credentials("invalid port 'http://u:pw@h:1/a@b': expected PORT") ==
          "invalid port 'http://***@h:1/a@b': expected PORT");
    CHECK(redact_credentials("cannot scan ./a@b: no such file") ==
          "cannot scan ./a@b: no such file");
}

TEST_CASE("a host a typo away from localhost was meant to be localhost", "[target]") {
    for (const char* typo : {"locahost", "localhots", "lcoalhost", "localhost1", "LOCALHST",
                             "locolhost.", "lokalhost"})
        CHECK(meant_local_name(typo) == "localhost");
    for (const char* other : {"localhost", "localhost.", "db", "example.com", "lclhst", "host"})
        CHECK_FALSE(meant_local_name(other));
    CHECK(edit_distance("wiat", "wait") == 1);
    CHECK(edit_distance("", "abc") == 3);
}
