#include "loopcheck/core/input/duration.hpp"
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
    CHECK(*parse_duration("1h") == 3600s);
}

TEST_CASE("durations in Go's form add their parts", "[duration]") {
    CHECK(*parse_duration("1m30s") == 90s);
    CHECK(*parse_duration("1h15m") == 4500s);
    CHECK(*parse_duration("2s500ms") == 2500ms);
    CHECK(*parse_duration("1.5m10s") == 100s);
    CHECK(*parse_duration("23h59m60s") == 86400s); // one day is still allowed
    for (const char* bad : {"1m30", "30s1", "1m 30s", "1m30x", "24h1s", "1hm"}) {
        INFO(bad);
        auto r = parse_duration(bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().kind == ErrorKind::usage);
    }
    CHECK(parse_duration("1m30").error().message.find("needs its unit") != std::string::npos);
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
}

TEST_CASE("durations round half up at every precision", "[duration]") {
    CHECK(format_duration(0us) == "0.000 ms");
    CHECK(format_duration(999us) == "0.999 ms");
    CHECK(format_duration(1000us) == "1.00 ms");
    CHECK(format_duration(1234us) == "1.23 ms");
    CHECK(format_duration(1235us) == "1.24 ms");
    CHECK(format_duration(9994us) == "9.99 ms");
    // A value that rounds into the next band prints as that band does.
    CHECK(format_duration(9995us) == "10.0 ms");
    CHECK(format_duration(99'950us) == "100 ms");
    CHECK(format_duration(999'500us) == "1.00 s");
    CHECK(format_duration(10'050us) == "10.1 ms");
    CHECK(format_duration(99'949us) == "99.9 ms");
    CHECK(format_duration(500'500us) == "501 ms");
    CHECK(format_duration(999'499us) == "999 ms");
    CHECK(format_duration(1'000'000us) == "1.00 s");
    CHECK(format_duration(1'004'999us) == "1.00 s");
    CHECK(format_duration(1'005'000us) == "1.01 s");
    CHECK(format_duration(3'600'000'000us) == "3600.00 s");
    CHECK(format_duration(-18us) == "-0.018 ms");
    CHECK(format_duration(Micros{INT64_MAX}) == "9223372036854.78 s");
    CHECK(format_duration(Micros{INT64_MIN}) == "-9223372036854.78 s");
    CHECK(to_ms(1234us) == Approx(1.234));
}
