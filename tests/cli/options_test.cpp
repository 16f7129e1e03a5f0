// The shared options' validation (cli/options.hpp): one pure function for
// every command, so each rule is tested once here.
#include "cli/options.hpp"
#include "support/catch.hpp"

using namespace loopcheck;
using namespace std::chrono_literals;

namespace {

std::string error_of(const CommonArgs& a) {
    auto r = validate_common(a);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ErrorKind::usage);
    CHECK(r.error().message.find('\n') == std::string::npos);
    return r.error().message;
}

} // namespace

TEST_CASE("the shared options' defaults", "[options]") {
    auto r = validate_common({});
    REQUIRE(r.ok());
    CHECK(r->timeout == 5s);
    CHECK(r->threshold == 100ms);
    CHECK(r->format == Format::text);
    CHECK(r->color == ColorMode::automatic);
    CHECK(r->verbosity == 0);
}

TEST_CASE("the shared options as typed", "[options]") {
    auto r = validate_common(
        {.timeout = "250ms", .threshold = "1.5", .color = "never", .markdown = true, .verbose = 5});
    REQUIRE(r.ok());
    CHECK(r->timeout == 250ms);
    CHECK(r->threshold == 1500ms);
    CHECK(r->format == Format::markdown);
    CHECK(r->color == ColorMode::never);
    CHECK(r->verbosity == 2); // -vvvvv is -vv
    r = validate_common({.format = "json", .quiet = true});
    REQUIRE(r.ok());
    CHECK(r->format == Format::json);
    CHECK(r->verbosity == -1);
}

TEST_CASE("bad shared options are one-line usage errors", "[options]") {
    CHECK(error_of({.timeout = "soon"}).rfind("--timeout: ", 0) == 0);
    CHECK(error_of({.timeout = "0"}) == "--timeout must be above 0 and at most 1 hour, not 0");
    // The docs said "above one day is rejected" (the duration parser's
    // bound); the timeout's own is one hour, and all three say so.
    CHECK(error_of({.timeout = "61m"}) == "--timeout must be above 0 and at most 1 hour, not 61m");
    CHECK(error_of({.timeout = "90m"}) == "--timeout must be above 0 and at most 1 hour, not 90m");
    CHECK(validate_common({.timeout = "60m"}).ok());
    CHECK(error_of({.threshold = "-1"}).rfind("--threshold", 0) == 0);
    CHECK(error_of({.json = true, .markdown = true}) == "choose one output format");
    CHECK(error_of({.format = "markdown", .json = true}) == "choose one output format");
    CHECK(error_of({.quiet = true, .verbose = 1}) == "-q and -v exclude each other");
    CHECK(error_of({.format = "xml"}) == "--format must be text, json or markdown, not 'xml'");
    CHECK(error_of({.color = "yes"}) == "--color must be auto, always or never, not 'yes'");
    // An option that does not apply to the command fails with its reason.
    CHECK(error_of({.rejected = "--threshold does not apply to loopcheck wait: why"}) ==
          "--threshold does not apply to loopcheck wait: why");
}

TEST_CASE("the output file's format is what its name says", "[options]") {
    CHECK(*output_file_format("r.json", Command::check) == FileFormat::json);
    CHECK(*output_file_format("out/R.MD", Command::wait) == FileFormat::markdown);
    CHECK(*output_file_format("r.markdown", Command::trace) == FileFormat::markdown);
    CHECK(*output_file_format("ci.log", Command::audit) == FileFormat::text);
    CHECK(*output_file_format("r.txt", Command::staircase) == FileFormat::text);
    CHECK(*output_file_format("scan.sarif", Command::scan) == FileFormat::sarif);
    CHECK(*output_file_format("scan.sarif.json", Command::scan) == FileFormat::sarif);
    CHECK_FALSE(output_file_format("r.sarif", Command::check));
    CHECK_FALSE(output_file_format("report", Command::check));
    CHECK_FALSE(output_file_format(".json", Command::check)); // a name, not only a suffix
    CHECK(error_of({.output = "r.xml"}) ==
          "--output r.xml: the name says the format: .json, .md or .txt");
    auto ok = validate_common({.output = "r.md"});
    REQUIRE(ok.ok());
    CHECK(ok->output().file == "r.md");
    CHECK(ok->output().file_format == FileFormat::markdown);
}

TEST_CASE("redaction options: redact, no-redact and both", "[options]") {
    CHECK(error_of({.redact = true, .no_redact = true}) ==
          "--redact and --no-redact exclude each other");
    auto keep = validate_common({.no_redact = true});
    REQUIRE(keep.ok());
    CHECK(keep->redaction.secrets == Secrets::keep);
    auto everywhere = validate_common({.redact = true});
    REQUIRE(everywhere.ok());
    CHECK(everywhere->redaction.home_everywhere);
    CHECK(everywhere->redaction.secrets == Secrets::redact);
}
