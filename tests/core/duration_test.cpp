#include "loopcheck/core/duration.hpp"
#include "support/catch.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;

TEST_CASE("durations as users type them", "[duration]") {
    CHECK(*parse_duration("250ms") == 250ms);
    CHECK(*parse_duration("2s") == 2s);
    CHECK(*parse_duration("1.5") == 1500ms);
    CHECK(*parse_duration("0.5s") == 500ms);
    CHECK(*parse_duration("500us") == 500us);
    CHECK(*parse_duration("1m") == 60s);
    CHECK(*parse_duration("2min") == 120s);
    CHECK(*parse_duration(".25") == 250ms);
    CHECK(*parse_duration("0") == 0us);
}

TEST_CASE("bad durations are usage errors", "[duration]") {
    for (const char* bad : {"", "-1", "abc", "5 s", "5x", "1.2.3", "s", ".", "1e3",
                            "99999999999999", "25h", "1.5.s"}) {
        INFO(bad);
        auto r = parse_duration(bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().kind == ErrorKind::usage);
    }
}

TEST_CASE("durations print with sensible precision", "[duration]") {
    CHECK(format_duration(18us) == "0.018 ms");
    CHECK(format_duration(4250us) == "4.25 ms");
    CHECK(format_duration(12345us) == "12.3 ms");
    CHECK(format_duration(250ms) == "250 ms");
    CHECK(format_duration(2030ms) == "2.03 s");
    CHECK(to_ms(1234us) == Approx(1.234));
}
