// loopcheck scan's version pins: requirements, pyproject, poetry.lock and
// package-lock.json read for the client libraries, and what a pin changes.
#include "core/scan/classify.hpp"
#include "loopcheck/core/scan/cost.hpp"
#include "loopcheck/core/scan/pins.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

namespace {

std::string pin_of(const std::vector<ScanPin>& pins, std::string_view package, bool npm = false) {
    for (const auto& p : pins)
        if (p.package == package && p.npm == npm)
            return p.version;
    return "none";
}

} // namespace

TEST_CASE("scan pins: requirements files and pyproject.toml", "[scan]") {
    CHECK(is_pin_file("a/requirements-dev.txt"));
    CHECK(is_pin_file("pyproject.toml"));
    CHECK_FALSE(is_pin_file("notes.txt"));
    std::vector<ScanPin> pins;
    read_pins("requirements.txt",
              "# comment aiohttp==1.0\nrequests==2.31.0\naiohttp[speedups]>=3.8.4\n"
              "requests-toolbelt==1.0\nhttpx ~= 0.27\n",
              pins);
    CHECK(pin_of(pins, "requests") == "2.31.0");
    CHECK(pin_of(pins, "aiohttp") == "3.8.4");
    CHECK(pin_of(pins, "httpx") == "0.27");
    read_pins("pyproject.toml",
              "dependencies = [\"openai>=1.30\", \"litellm==1.40.2\"]\nollama = \"^0.3\"\n", pins);
    CHECK(pin_of(pins, "openai") == "1.30");
    CHECK(pin_of(pins, "litellm") == "1.40.2");
    CHECK(pin_of(pins, "ollama") == "0.3");
}

TEST_CASE("scan pins: lock files", "[scan]") {
    std::vector<ScanPin> pins;
    read_pins("poetry.lock", "[[package]]\nname = \"aiohttp\"\nversion = \"3.9.5\"\n", pins);
    CHECK(pin_of(pins, "aiohttp") == "3.9.5");
    read_pins("web/package-lock.json",
              "  \"packages\": {\n    \"node_modules/axios\": {\n      \"version\": \"1.6.8\",\n",
              pins);
    CHECK(pin_of(pins, "axios", true) == "1.6.8");
}

TEST_CASE("scan pins: aiohttp before 3.10 tries one address at a time", "[scan]") {
    ScanResult r;
    r.hits = classify_text("a.py", Lang::python,
                           "import aiohttp\nasync with aiohttp.ClientSession() as s:\n"
                           "    await s.get('http://localhost:11434/api/tags')\n");
    REQUIRE(r.hits.size() == 1);
    CHECK(r.hits[0].package == "aiohttp");
    r.pins.push_back({"aiohttp", "3.8.4", "requirements.txt", false});
    r.endpoints = scan_endpoints(r.hits);
    infer_servers(r.endpoints, r.hits);
    conclude_scan(r);
    CHECK(r.hits[0].pinned == "aiohttp 3.8.4 (requirements.txt)");
    CHECK(r.hits[0].client == "python-aiohttp");
    CHECK(r.hits[0].client_version == "3.8.4");
    CHECK(r.hits[0].risky);

    ScanResult newer;
    newer.hits =
        classify_text("a.py", Lang::python,
                      "import aiohttp\naiohttp.ClientSession().get('http://localhost:11434')\n");
    newer.pins.push_back({"aiohttp", "3.11.16", "poetry.lock", false});
    newer.endpoints = scan_endpoints(newer.hits);
    infer_servers(newer.endpoints, newer.hits);
    conclude_scan(newer);
    CHECK(newer.hits[0].client == "python-aiohttp");
    CHECK_FALSE(newer.hits[0].risky);
}
