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
