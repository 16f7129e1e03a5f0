// The probes' live line (cli/progress.hpp) as text: round i/N, the
// address, the connect's wait and the run's time; the staircase's limit.
#include "cli/progress.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

namespace {

ProbeProgress waiting(const ProbeSpec& spec, int elapsed_ms, int run_ms) {
    ProbeProgress p;
    p.oldest = &spec;
    p.pending = 1;
    p.elapsed = Micros{elapsed_ms * 1000};
    p.run_elapsed = Micros{run_ms * 1000};
    return p;
}

} // namespace

TEST_CASE("one round: the address and how long its connect has waited", "[progress]") {
    const ProbeSpec spec{make_ipv4(127, 0, 0, 1, 5432)};
    CHECK(progress_text(waiting(spec, 900, 900), 0) == "waiting for 127.0.0.1:5432 ... 0.9 s");
    auto p = waiting(spec, 1250, 1250);
    p.pending = 3;
    CHECK(progress_text(p, 0) == "waiting for 127.0.0.1:5432 ... 1.2 s (3 pending)");
}

TEST_CASE("rounds of -n: round i/N and the run's time, which does not drop back", "[progress]") {
    const ProbeSpec spec{make_ipv4(127, 0, 0, 1, 5432)};
    auto p = waiting(spec, 900, 2900);
    p.round = 3;
    p.rounds = 10;
    CHECK(progress_text(p, 0) == "round 3/10: waiting for 127.0.0.1:5432 ... 0.9 s, 2.9 s in all");
    // The next round's first report: the connect's own wait starts again,
    // the run's does not.
    p.round = 4;
    p.elapsed = Micros{100'000};
    p.run_elapsed = Micros{3'100'000};
    CHECK(progress_text(p, 0) == "round 4/10: waiting for 127.0.0.1:5432 ... 0.1 s, 3.1 s in all");
}

TEST_CASE("the staircase says which limit it is on", "[progress]") {
    const ProbeSpec spec{ipv6_loopback(9), SynPolicy::fixed, 2};
    auto p = waiting(spec, 1500, 4100);
    p.limit = 2;
    p.round = 1;
    p.rounds = 3;
    CHECK(progress_text(p, 0) ==
          "limit 2 of 0..5, round 1/3: waiting for [::1]:9 ... 1.5 s, 4.1 s in all");
    p.round = 0;
    p.rounds = 0;
    CHECK(progress_text(p, 0) == "limit 2 of 0..5: waiting for [::1]:9 ... 1.5 s, 4.1 s in all");
}

TEST_CASE("the line never wraps on the terminal, and is empty once over", "[progress]") {
    const ProbeSpec spec{make_ipv4(127, 0, 0, 1, 5432)};
    auto p = waiting(spec, 900, 2900);
    p.round = 3;
    p.rounds = 10;
    CHECK(progress_text(p, 40).size() == 39);
    CHECK(progress_text(p, 40) == "round 3/10: waiting for 127.0.0.1:5432 ");
    CHECK(progress_text(ProbeProgress{}, 80).empty());
}
