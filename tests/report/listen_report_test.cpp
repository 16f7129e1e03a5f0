// `loopcheck listen`'s lines on the terminal and its Markdown table, from
// one document (src/report/listen.cpp).
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

namespace {

std::vector<ListeningSocket> sockets() {
    ListeningSocket any6;
    any6.bound.family = Family::ipv6;
    any6.bound.port = 8001;
    any6.v6only = false;
    return {{make_ipv4(127, 0, 0, 1, 8000), true}, {ipv6_loopback(8000), true}, any6};
}

} // namespace

TEST_CASE("listen: one line per socket, V6ONLY said for [::] only", "[listen][report]") {
    // Never wrapped, however narrow: a script reads the port from the line.
    CHECK(render_text_listening(sockets(), TextStyle{.width = 40}) ==
          "listening on 127.0.0.1:8000\n"
          "listening on [::1]:8000\n"
          "listening on [::]:8001 (IPV6_V6ONLY off)\n");
    CHECK(render_text_listening(sockets(), TextStyle{.color = true})
              .starts_with("listening on \x1b[1m127.0.0.1:8000\x1b[0m\n"));
}

TEST_CASE("listen --markdown: the sockets as a table, then the closing line", "[listen][report]") {
    CHECK(render_markdown_listening(sockets()) == "## loopcheck listen\n\n"
                                                  "| Listening on | IPV6_V6ONLY |\n|---|---|\n"
                                                  "| `127.0.0.1:8000` | - |\n"
                                                  "| `[::1]:8000` | - |\n"
                                                  "| `[::]:8001` | off |\n\n");
    CHECK(render_markdown_stopped(3) == "Stopped after 3 connection(s).\n");
}
