// A minimal streaming JSON writer: objects, arrays, strings with full
// escaping, integers and fixed-point numbers. Enough for the report;
// nothing to parse.
#pragma once

#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/text/untrusted.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

class JsonWriter {
public:
    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view k);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    /// The exact value: JSON carries what the other process or file said.
    JsonWriter& value(const Untrusted& s) { return value(std::string_view(s.raw_)); }
    JsonWriter& value(bool b);
    JsonWriter& value(std::int64_t n);
    JsonWriter& value(int n) { return value(static_cast<std::int64_t>(n)); }
    /// A number with exactly `decimals` digits after the point (3 for
    /// milliseconds with microsecond precision).
    JsonWriter& number(double v, int decimals);
    JsonWriter& null();

    template <class T>
    JsonWriter& optional(const std::optional<T>& v) {
        return v ? value(*v) : null();
    }

    /// `write(*this, *v)` when there is a value, else null: an optional
    /// that is not written by value() (a time in ms, an object).
    template <class T, class Write>
    JsonWriter& nullable(const std::optional<T>& v, Write write) {
        if (!v)
            return null();
        write(*this, *v);
        return *this;
    }

    /// A time in milliseconds with microsecond precision ("1020.000").
    JsonWriter& millis(Micros d) { return number(to_ms(d), 3); }
    /// millis(), or null.
    JsonWriter& millis(const std::optional<Micros>& d) {
        return nullable(d, [](JsonWriter& w, Micros m) { w.millis(m); });
    }

    /// An array of `items`, each written by `each(*this, item)`.
    template <class Range, class Each>
    JsonWriter& array(const Range& items, Each each) {
        begin_array();
        for (const auto& item : items)
            each(*this, item);
        return end_array();
    }
    /// An array of values value() writes as they are (strings, numbers).
    template <class Range>
    JsonWriter& values(const Range& items) {
        return array(items, [](JsonWriter& w, const auto& v) { w.value(v); });
    }

    /// The document, with a trailing newline.
    [[nodiscard]] std::string str() const { return out_ + "\n"; }

    /// JSON string escaping; invalid UTF-8 bytes become U+FFFD so the
    /// document stays valid whatever a host name or OS message held. DEL,
    /// the C1 and the bidi controls are written as \u escapes: the string
    /// reads back the same, and the document itself is safe to `cat`.
    static std::string escape(std::string_view s);

private:
    void before_value();
    void newline();

    std::string out_;
    struct Level {
        bool array;
        bool empty;
    };
    std::vector<Level> stack_;
    bool after_key_ = false;
};

} // namespace loopcheck
