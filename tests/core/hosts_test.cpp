#include "loopcheck/core/hosts.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

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
    CHECK(resolution_note(Os::windows, "localhost", {}).find("Windows answers") != std::string::npos);
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
