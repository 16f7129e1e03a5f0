// The streaming JSON writer every JSON renderer uses, with full string escaping.
#include "report/json/writer.hpp"

#include <cmath>
#include <cstdint>
#include <fmt/format.h>

namespace loopcheck {

void JsonWriter::newline() {
    out_ += '\n';
    out_.append(stack_.size() * 2, ' ');
}

void JsonWriter::before_value() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!stack_.empty()) {
        if (!stack_.back().empty)
            out_ += ',';
        stack_.back().empty = false;
        newline();
    }
}

JsonWriter& JsonWriter::begin_object() {
    before_value();
    out_ += '{';
    stack_.push_back({false, true});
    return *this;
}

JsonWriter& JsonWriter::end_object() {
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty)
        newline();
    out_ += '}';
    return *this;
}

JsonWriter& JsonWriter::begin_array() {
    before_value();
    out_ += '[';
    stack_.push_back({true, true});
    return *this;
}

JsonWriter& JsonWriter::end_array() {
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty)
        newline();
    out_ += ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
    before_value();
    out_ += escape(k);
    out_ += ": ";
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    before_value();
    out_ += escape(s);
    return *this;
}

JsonWriter& JsonWriter::value(bool b) {
    before_value();
    out_ += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t n) {
    before_value();
    out_ += std::to_string(n);
    return *this;
}

JsonWriter& JsonWriter::number(double v, int decimals) {
    before_value();
    if (!std::isfinite(v))
        out_ += "null";
    else
        out_ += fmt::format("{:.{}f}", v, decimals);
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    out_ += "null";
    return *this;
}

std::string JsonWriter::escape(std::string_view s) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        switch (c) {
        case '"':
            out += "\\\"";
            continue;
        case '\\':
            out += "\\\\";
            continue;
        case '\n':
            out += "\\n";
            continue;
        case '\r':
            out += "\\r";
            continue;
        case '\t':
            out += "\\t";
            continue;
        default:
            break;
        }
        if (c < 0x20 || c == 0x7f) {
            out += fmt::format("\\u{:04x}", c);
            continue;
        }
        if (c < 0x80) {
            out += static_cast<char>(c);
            continue;
        }
        // Copy a well-formed UTF-8 sequence; replace anything else.
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            out += "\\ufffd";
            continue;
        }
        const char32_t cp = utf8_code_point(s.substr(i, len));
        if (is_control_code_point(cp))
            out += fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
        else
            out.append(s.substr(i, len));
        i += len - 1;
    }
    out += '"';
    return out;
}

} // namespace loopcheck
