// The staircase report's renderings (report/text.hpp, report/json.hpp) on a
// concluded staircase.
#include "loopcheck/core/measure/syn_policy.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "report/text/bars.hpp"
#include "support/catch.hpp"
#include "support/staircase_steps.hpp"
#include "support/text.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;
using namespace loopcheck::test;

TEST_CASE("text and JSON show every limit, the fit and the conclusion", "[staircase]") {
    std::vector<Sample> per_limit(6, refused(50us, OptionState::applied, 0));
    StaircaseReport r;
    r.loopcheck_version = "0.1.0";
    r.system.os = Os::linux_;
    r.system.os_name = "Linux";
    r.system.os_version = "6.1";
    r.timeout = 5s;
    r.count = 3;
    r.addresses.push_back(
        conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::linux_));
    const auto text = render_text(r);
    CHECK(contains(text, "TCP_SYNCNT set to 0..5"));
    CHECK(contains(text, "127.0.0.1:9 (a closed port loopcheck reserved)  [flat]"));
    CHECK(contains(text, "limit"));
    CHECK(contains(text, "Fit: +0.000 ms per retry"));
    CHECK(contains(text, "refusals are not retried here"));

    const auto json = render_json(r);
    CHECK(contains(json, "\"schema\": \"loopcheck-staircase/1\""));
    CHECK(contains(json, "\"shape\": \"flat\""));
    CHECK(contains(json, "\"limit\": 5"));
    CHECK(contains(json, "\"step_ms\": 0.000"));

    // Markdown: a plain table per address, its conclusion, the OS and version.
    const auto md = render_markdown(r);
    CHECK(contains(md, "## loopcheck staircase"));
    CHECK(contains(md, "### `127.0.0.1:9` (a closed port loopcheck reserved): flat"));
    CHECK(contains(md, "| Limit | Outcome | Median | Min | Max |\n|---|---|---|---|---|\n"));
    CHECK(contains(md, "| 0 | refused | 0.050 ms | 0.050 ms | 0.050 ms |"));
    CHECK(contains(md, "| 5 | refused |"));
    CHECK(contains(md, "refusals are not retried here"));
    CHECK(contains(md, "System: Linux 6\\.1; loopcheck 0\\.1.0"));
}

TEST_CASE("Windows before 1709: the staircase walks 1..5 and says why", "[staircase]") {
    // What run_staircase() builds there: no limit-0 step, the note.
    std::vector<StairStep> steps;
    for (int l = 1; l <= staircase_max_limit; ++l) {
        std::vector<Sample> three(3, refused(Micros{500'000 * l}, OptionState::applied));
        steps.push_back(summarize_step(l, three));
    }
    StaircaseReport r;
    r.system.os = Os::windows;
    r.system.windows_build = 14393;
    r.count = 3;
    r.notes.push_back(one_retry_note(14393) + "; the staircase starts at limit 1");
    r.addresses.push_back(
        conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, std::move(steps), Os::windows));
    const auto text = render_text(r);
    CHECK(contains(text, "set to 1..5"));
    CHECK(contains(text, "Note: Windows build 14393 cannot turn SYN retries off"));
    CHECK(contains(text, "the staircase starts at limit 1"));
    CHECK(r.addresses.front().shape == StaircaseShape::retried); // 500 ms per retry from 1
    CHECK(contains(render_json(r), "one retry (this build cannot turn them off)"));
}

TEST_CASE("a bar is its value's share of the width, in eighths or ASCII", "[staircase][bars]") {
    CHECK(text_bar(1.0, 1.0, 4, false) == "\u2588\u2588\u2588\u2588");
    CHECK(text_bar(1.0, 1.0, 4, true) == "####");
    CHECK(text_bar(0.5, 1.0, 4, false) == "\u2588\u2588");
    CHECK(text_bar(0.5, 1.0, 4, true) == "##");
    // 3/16 of 4 columns = 0.75: six eighths of one column.
    CHECK(text_bar(3.0, 16.0, 4, false) == "\u258A");
    CHECK(text_bar(3.0, 16.0, 4, true) == "#");
    // 1.2 columns: one full block and two eighths (0.2 * 8 = 1.6, rounded).
    CHECK(text_bar(0.3, 1.0, 4, false) == "\u2588\u258E");
    // Above 0 never reads as nothing; 0, negative or no scale is empty.
    CHECK(text_bar(0.001, 1.0, 10, false) == "\u258F");
    CHECK(text_bar(0.001, 1.0, 10, true) == ".");
    CHECK(text_bar(0.0, 1.0, 10, false).empty());
    CHECK(text_bar(-1.0, 1.0, 10, true).empty());
    CHECK(text_bar(1.0, 0.0, 10, false).empty());
    // Never wider than the width, even for a value above the scale.
    CHECK(text_bar(2.0, 1.0, 3, true) == "###");
    CHECK(text_bar(0.999, 1.0, 3, false) == "\u2588\u2588\u2588");
}

TEST_CASE("the staircase's text has one bar per limit, fitted to the width", "[staircase][bars]") {
    std::vector<Sample> per_limit;
    for (int l = 0; l <= staircase_max_limit; ++l)
        per_limit.push_back(refused(Micros{(l + 1) * 500'000}, OptionState::applied, l));
    StaircaseReport r;
    r.system.os = Os::windows;
    r.count = 3;
    r.addresses.push_back(
        conclude_staircase(make_ipv4(127, 0, 0, 1, 9), true, steps_from(per_limit), Os::windows));
    for (const int width : {80, 100, 120}) {
        INFO(width);
        const auto text = render_text(r, TextStyle{.width = width, .ascii = true});
        CHECK(contains(text, "Bars: the median connect at each limit; a full bar is 3.00 s"));
        std::size_t bars = 0;
        std::size_t longest = 0;
        std::size_t pos = 0;
        for (std::size_t end; (end = text.find('\n', pos)) != std::string::npos; pos = end + 1) {
            const auto line = text.substr(pos, end - pos);
            if (line.find(" ECONNREFUSED") == std::string::npos &&
                line.find("refused") == std::string::npos)
                continue;
            if (line.find('#') != std::string::npos) {
                ++bars;
                longest = std::max(longest, line.size());
            }
        }
        CHECK(bars == 6);
        CHECK(longest <= static_cast<std::size_t>(width));
    }
    // Unicode by default, ASCII when asked.
    CHECK(contains(render_text(r, TextStyle{.width = 80}), "\u2588"));
    CHECK_FALSE(contains(render_text(r, TextStyle{.width = 80, .ascii = true}), "\u2588"));
}
