#include "report/json/writer.hpp"
#include "support/catch.hpp"

using namespace loopcheck;

TEST_CASE("JSON strings are escaped and kept valid UTF-8", "[json]") {
    CHECK(JsonWriter::escape("a\"b\\c") == R"("a\"b\\c")");
    CHECK(JsonWriter::escape("line\nnext\t") == R"("line\nnext\t")");
    CHECK(JsonWriter::escape(std::string("\x01", 1)) == R"("\u0001")");
    CHECK(JsonWriter::escape("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
    CHECK(JsonWriter::escape("bad\xff") == R"("bad\ufffd")");
    CHECK(JsonWriter::escape("\xc3") == R"("\ufffd")");
    CHECK(JsonWriter::escape("\xed\xa0\x80") == R"("\ufffd\ufffd\ufffd")"); // a surrogate
}

TEST_CASE("JSON structure", "[json]") {
    JsonWriter w;
    w.begin_object();
    w.key("a").value(1);
    w.key("b").begin_array().value("x").null().value(true).end_array();
    w.key("c").number(1.23456, 3);
    w.key("d").begin_object().end_object();
    w.end_object();
    CHECK(w.str() == "{\n  \"a\": 1,\n  \"b\": [\n    \"x\",\n    null,\n    true\n  ],\n"
                     "  \"c\": 1.235,\n  \"d\": {}\n}\n");
}

TEST_CASE("JSON arrays, nullables and times in ms", "[json]") {
    JsonWriter w;
    w.begin_object();
    w.key("ids").values(std::vector<int>{3, 5});
    w.key("none").array(std::vector<int>{}, [](JsonWriter& j, int v) { j.value(v); });
    w.key("at_ms").millis(Micros{1'020'500});
    w.key("unset_ms").millis(std::optional<Micros>{});
    w.key("set_ms").millis(std::optional<Micros>{Micros{7}});
    w.key("pair").nullable(std::optional<int>{2}, [](JsonWriter& j, int v) {
        j.begin_array().value(v).value(v * 2).end_array();
    });
    w.end_object();
    CHECK(w.str() == "{\n  \"ids\": [\n    3,\n    5\n  ],\n  \"none\": [],\n"
                     "  \"at_ms\": 1020.500,\n  \"unset_ms\": null,\n  \"set_ms\": 0.007,\n"
                     "  \"pair\": [\n    2,\n    4\n  ]\n}\n");
}
