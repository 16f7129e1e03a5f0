#include "loopcheck/core/measure/stats.hpp"
#include "support/catch.hpp"

#include <vector>

using namespace loopcheck;
using namespace std::chrono_literals;

TEST_CASE("summary of no samples is empty", "[stats]") {
    auto s = summarize({});
    CHECK(s.count == 0);
    CHECK(s.median == 0us);
}

TEST_CASE("min, median, max, mean, stddev", "[stats]") {
    std::vector<Micros> v{30us, 10us, 20us};
    auto s = summarize(v);
    CHECK(s.count == 3);
    CHECK(s.min == 10us);
    CHECK(s.median == 20us);
    CHECK(s.max == 30us);
    CHECK(s.mean == 20us);
    CHECK(s.stddev == 8us); // sqrt(200/3) = 8.16

    std::vector<Micros> even{4us, 1us, 3us, 2us};
    CHECK(summarize(even).median == 2us); // (2 + 3) / 2 in whole microseconds

    std::vector<Micros> one{2030ms};
    auto o = summarize(one);
    CHECK(o.min == o.max);
    CHECK(o.stddev == 0us);
}
