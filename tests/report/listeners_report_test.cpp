// Listeners in the check's report: attached from a table (or marked
// unavailable), and shown the same in text, JSON and Markdown.
#include "loopcheck/core/listeners/local_targets.hpp"
#include "loopcheck/core/measure/conclude.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"

#include <string>

using namespace loopcheck;
using namespace loopcheck::test;

namespace {

TargetReport target(const std::string& input, Address a) {
    TargetReport t;
    t.target = *parse_target(input);
    AddressReport ar;
    ar.address = a;
    t.addresses.push_back(ar);
    return t;
}

ListenerTable table() {
    ListenerTable t;
    Listener mine;
    mine.bound = make_ipv4(127, 0, 0, 1, 8000);
    mine.pid = 4242;
    mine.process = "python3";
    mine.uid = 1000;
    Listener hidden;
    hidden.bound = ipv6_loopback(8000);
    hidden.v6only = true;
    hidden.uid = 0;
    Listener elsewhere;
    elsewhere.bound = make_ipv4(127, 0, 0, 1, 9999);
    t.listeners = {mine, hidden, elsewhere};
    t.owner_hidden = 2;
    t.hidden_because = "run as root to see other users' processes";
    return t;
}

Report report_with(Result<ListenerTable> listed) {
    Report r;
    r.system.os = Os::linux_;
    r.system.os_name = "Linux";
    r.targets.push_back(target("localhost:8000", make_ipv4(127, 0, 0, 1, 8000)));
    r.targets.push_back(target("example.com:8000", make_ipv4(93, 184, 215, 14, 8000)));
    attach_listeners(r, listed);
    for (auto& tr : r.targets)
        conclude_target(tr, {.threshold = Micros{100000},
                             .timeout = Micros{5000000},
                             .os = r.system.os,
                             .expect_refused = false,
                             .listen_overflows = std::nullopt});
    return r;
}

} // namespace

TEST_CASE("listeners are attached to local targets only", "[listeners][report]") {
    auto r = report_with(table());
    CHECK(r.listener_table.queried);
    CHECK_FALSE(r.listener_table.error);
    REQUIRE(r.targets[0].listeners);
    CHECK(r.targets[0].listeners->size() == 2); // port 8000 only
    CHECK_FALSE(r.targets[1].listeners);        // not on this machine
    // Only the shown listener with a hidden owner counts; 9999's does not.
    CHECK(r.listener_table.limits ==
          "owner hidden for 1 listener(s): run as root to see other users' processes");
    CHECK(is_local(r.targets[0]));
    CHECK_FALSE(is_local(r.targets[1]));
}

TEST_CASE("listeners in text, JSON and Markdown", "[listeners][report]") {
    const auto r = report_with(table());
    const auto text = render_text(r, TextStyle{});
    INFO(text);
    CHECK(contains(text, "Listening on port 8000:"));
    CHECK(contains(text, "127.0.0.1:8000  python3 (pid 4242)"));
    CHECK(contains(text, "[::1]:8000      a process of uid 0 this user cannot see"));
    CHECK(contains(text, "Listeners: owner hidden for 1 listener(s)"));

    const auto json = render_json(r);
    CHECK(contains(json, "\"listener_table\": {"));
    CHECK(contains(json, "\"available\": true"));
    CHECK(contains(json, "\"endpoint\": \"127.0.0.1:8000\""));
    CHECK(contains(json, "\"process\": \"python3\""));
    CHECK(contains(json, "\"pid\": 4242"));
    CHECK(contains(json, "\"v6only\": true"));
    CHECK(contains(json, "\"pid\": null"));
    CHECK(contains(json, "\"listeners\": null")); // example.com

    const auto md = render_markdown(r);
    CHECK(contains(md, "**Listening on port 8000**"));
    CHECK(contains(md, "| `127.0.0.1:8000` | `python3` | 4242 | - |"));
    CHECK(contains(md, "| `[::1]:8000` | - | hidden | on |"));
    CHECK(contains(md, "- listeners: owner hidden for 1 listener(s)"));
}

TEST_CASE("no listener table: the check still concludes, and says why", "[listeners][report]") {
    auto r = report_with(system_error("listing listening sockets is not supported on this OS"));
    REQUIRE(r.listener_table.error);
    CHECK_FALSE(r.targets[0].listeners);
    CHECK_FALSE(r.targets[0].diagnosis.verdict.word.empty());
    CHECK(contains(render_text(r, TextStyle{}),
                   "Listeners: unavailable (listing listening sockets is not supported on this "
                   "OS)."));
    CHECK(contains(render_json(r), "\"available\": false"));
    CHECK(contains(render_markdown(r), "- listeners: unavailable (listing listening sockets"));
}

TEST_CASE("nothing on the port is said as such", "[listeners][report]") {
    ListenerTable empty;
    auto r = report_with(empty);
    REQUIRE(r.targets[0].listeners);
    CHECK(r.targets[0].listeners->empty());
    CHECK(contains(render_text(r, TextStyle{}), "Nothing listens on port 8000 on this machine."));
    CHECK(contains(render_markdown(r), "Nothing listens on port 8000 on this machine."));
    CHECK(r.listener_table.limits.empty());
}
