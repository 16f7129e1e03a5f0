#include "loopcheck/report_render.hpp"
#include "support/catch.hpp"
#include "support/scenario.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;

TEST_CASE("placeholder for the report golden tests", "[report]") {
    SUCCEED();
}
