// The self-check's sentences when localhost does not resolve: they name the
// hosts file when it is missing or has no localhost line (a bare Debian root
// made by debootstrap has none, and the self-check then exits 4).
#include "loopcheck/core/diagnose/selfcheck.hpp"
#include "support/catch.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;

namespace {

TargetReport unresolved(std::optional<Resolution> resolution) {
    TargetReport t;
    t.resolve_error = Error{ErrorKind::resolve, "localhost: Name or service not known"};
    t.resolution = std::move(resolution);
    return t;
}

TargetReport closed_port() {
    TargetReport t; // not probed: only the localhost sentences matter here
    return t;
}

bool contains(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string all;
    for (const auto& l : lines)
        all += l + "\n";
    return all;
}

} // namespace

TEST_CASE("self-check: a missing hosts file is named when localhost does not resolve",
          "[selfcheck]") {
    Resolution r;
    r.hosts_file_readable = false;
    const auto lines =
        self_check_statements(unresolved(r), closed_port(), nullptr, 200ms, "/etc/hosts");
    const auto text = joined(lines);
    CHECK(contains(text, "localhost does not resolve here: localhost: Name or service not known."));
    CHECK(contains(text, "The hosts file /etc/hosts is missing or cannot be read"));
    CHECK(contains(text, "maps localhost to 127.0.0.1 and ::1"));
}

TEST_CASE("self-check: a hosts file without a localhost line is named", "[selfcheck]") {
    Resolution r;
    r.hosts_file_readable = true; // readable, but nothing for localhost
    const auto text =
        joined(self_check_statements(unresolved(r), closed_port(), nullptr, 200ms, "/etc/hosts"));
    CHECK(contains(text, "The hosts file /etc/hosts has no line for localhost"));
    CHECK_FALSE(contains(text, "missing"));
}

TEST_CASE("self-check: a hosts file with localhost is not blamed when resolving fails",
          "[selfcheck]") {
    Resolution r;
    r.hosts_file_readable = true;
    r.hosts_lines.push_back(HostsLine{1, "127.0.0.1 localhost", Family::ipv4});
    const auto text =
        joined(self_check_statements(unresolved(r), closed_port(), nullptr, 200ms, "/etc/hosts"));
    CHECK(contains(text, "localhost does not resolve here"));
    CHECK_FALSE(contains(text, "hosts file"));
}
