#include "loopcheck/core/input/hosts.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"

using namespace loopcheck;
using loopcheck::test::contains;

TEST_CASE("hosts file lines that list a name", "[hosts]") {
    const char* file = "# comment\n"
                       "127.0.0.1\tlocalhost\n"
                       "127.0.1.1 box.example box\n"
                       "::1     localhost ip6-localhost ip6-loopback # the v6 one\n"
                       "\n"
                       "   \n"
                       "# ::1 localhost commented out\n"
                       "10.0.0.1 LOCALHOST.\r\n"
                       "notanentry\n"
                       "10.0.0.2 mylocalhost\n";
    auto lines = hosts_lines_for(file, "localhost");
    REQUIRE(lines.size() == 3);
    CHECK(lines[0].number == 2);
    CHECK(lines[0].text == "127.0.0.1 localhost");
    CHECK(lines[1].number == 4);
    CHECK(lines[1].text == "::1 localhost ip6-localhost ip6-loopback");
    CHECK(lines[2].number == 8);
    CHECK(lines[2].text == "10.0.0.1 LOCALHOST.");
    CHECK(hosts_lines_for(file, "box").size() == 1);
    CHECK(hosts_lines_for(file, "nothere").empty());
    CHECK(hosts_lines_for("", "localhost").empty());
}

TEST_CASE("odd bytes in a hosts file are kept exactly, and escaped for a terminal", "[hosts]") {
    auto lines =
        hosts_lines_for(std::string("127.0.0.1 localhost caf\xc3\xa9 \x1b[2J\xff\n"), "localhost");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].text == "127.0.0.1 localhost caf\xc3\xa9 \x1b[2J\xff");
    CHECK(lines[0].text.escaped() == "127.0.0.1 localhost caf\xc3\xa9 \\x1b[2J\\xff");
    CHECK(lines[0].family == Family::ipv4);
    // NUL bytes are not separators: "localhost\0x" is another name.
    CHECK(hosts_lines_for(std::string("::1 localhost\0x", 15), "localhost").empty());
    auto after_nul = hosts_lines_for(std::string("\0\0junk\n::1 localhost", 20), "localhost");
    REQUIRE(after_nul.size() == 1);
    CHECK(after_nul[0].number == 2);
}

TEST_CASE("the resolution note names the OS's own rule", "[hosts]") {
    const HostsLine v4{1, "127.0.0.1 localhost", Family::ipv4};
    const HostsLine v6{2, "::1 localhost", Family::ipv6};
    CHECK(resolution_note(Os::windows, "localhost", {}).find("Windows answers") !=
          std::string::npos);
    CHECK(resolution_note(Os::linux_, "localhost", {v4, v6}).find("RFC 6724") != std::string::npos);
    CHECK(resolution_note(Os::linux_, "localhost", {v4}).find("only IPv4") != std::string::npos);
    CHECK(resolution_note(Os::linux_, "localhost", {v6}).find("only IPv6") != std::string::npos);
    // The family comes from the parsed line, as the note reads it.
    const auto parsed = hosts_lines_for("::1 localhost\n", "localhost");
    REQUIRE(parsed.size() == 1);
    CHECK(resolution_note(Os::linux_, "localhost", parsed).find("only IPv6") != std::string::npos);
    CHECK(resolution_note(Os::linux_, "db.internal", {}).find("No hosts file entry") !=
          std::string::npos);
}

TEST_CASE("the resolution note follows the order measured and names gai.conf's rules", "[hosts]") {
    const std::vector<HostsLine> both{{1, "127.0.0.1 localhost", Family::ipv4},
                                      {2, "::1 localhost", Family::ipv6}};
    const std::vector<Address> v6_first{ipv6_loopback(80), make_ipv4(127, 0, 0, 1, 80)};
    const std::vector<Address> v4_first{make_ipv4(127, 0, 0, 1, 80), ipv6_loopback(80)};
    CHECK(contains(resolution_note(Os::linux_, "localhost", both, v6_first),
                   "puts ::1 before 127.0.0.1"));
    // The mirror set-up of issue 13: a gai.conf rule ranks IPv4 above ::1.
    const auto rules = gai_conf_rules("# comment\nreload yes\nprecedence ::ffff:0:0/96 100\n"
                                      "label ::1/128 0 # trailing\n");
    REQUIRE(rules.size() == 2);
    CHECK(rules[0].number == 3);
    CHECK(rules[0].text.escaped() == "precedence ::ffff:0:0/96 100");
    CHECK(rules[1].text.escaped() == "label ::1/128 0");
    const auto note = resolution_note(Os::linux_, "localhost", both, v4_first, rules);
    CHECK(contains(note, "puts 127.0.0.1 before ::1"));
    CHECK(contains(note, "line 3: precedence ::ffff:0:0/96 100"));
    CHECK_FALSE(contains(note, "puts ::1 before"));
    // Windows: the fixed sentence only where it is what was measured.
    CHECK(contains(resolution_note(Os::windows, "localhost", {}, v6_first), "precedence 50"));
    CHECK(contains(resolution_note(Os::windows, "localhost", {}, v4_first),
                   "puts 127.0.0.1 before ::1"));
}
