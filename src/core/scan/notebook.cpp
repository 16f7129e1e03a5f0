// `loopcheck scan` on Jupyter notebooks: the cells' sources out of the
// .ipynb JSON (a small reader that keeps only cell_type and source), each
// cell run through the file's classifier and reported by cell and line.
#include "core/scan/classify.hpp"
#include "loopcheck/core/text/text.hpp"

#include <cstdint>

namespace loopcheck {

namespace {

constexpr int max_depth = 64;

class JsonReader {
public:
    explicit JsonReader(std::string_view s) : s_(s) {}

    void ws() noexcept {
        while (i_ < s_.size() &&
               (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t'))
            ++i_;
    }
    bool eat(char c) noexcept {
        ws();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    bool peek(char c) noexcept {
        ws();
        return i_ < s_.size() && s_[i_] == c;
    }

    /// A string; its decoded text goes to `out` when given.
    bool string(std::string* out) {
        if (!eat('"'))
            return false;
        while (i_ < s_.size()) {
            const char c = s_[i_++];
            if (c == '"')
                return true;
            if (c != '\\') {
                if (out)
                    out->push_back(c);
                continue;
            }
            if (i_ >= s_.size())
                return false;
            const char e = s_[i_++];
            if (e == 'u') {
                char32_t cp = 0;
                if (!hex4(cp))
                    return false;
                if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(i_, 2) == "\\u") {
                    i_ += 2;
                    char32_t low = 0;
                    if (!hex4(low))
                        return false;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                }
                if (out)
                    append_utf8(*out, cp >= 0xD800 && cp <= 0xDFFF ? 0xFFFD : cp);
                continue;
            }
            if (out)
                out->push_back(e == 'n'   ? '\n'
                               : e == 't' ? '\t'
                               : e == 'r' ? '\r'
                               : e == 'b' ? '\b'
                               : e == 'f' ? '\f'
                                          : e);
        }
        return false;
    }

    bool skip_value(int depth = 0) {
        ws();
        if (depth > max_depth || i_ >= s_.size())
            return false;
        const char c = s_[i_];
        if (c == '"')
            return string(nullptr);
        if (c == '{' || c == '[') {
            ++i_;
            const char close = c == '{' ? '}' : ']';
            if (eat(close))
                return true;
            do {
                if (c == '{' && !(string(nullptr) && eat(':')))
                    return false;
                if (!skip_value(depth + 1))
                    return false;
            } while (eat(','));
            return eat(close);
        }
        const std::size_t start = i_;
        while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' && s_[i_] != ' ' &&
               s_[i_] != '\n' && s_[i_] != '\r' && s_[i_] != '\t')
            ++i_;
        return i_ > start;
    }

private:
    bool hex4(char32_t& cp) noexcept {
        if (i_ + 4 > s_.size())
            return false;
        for (int k = 0; k < 4; ++k) {
            const int v = hex_digit_value(s_[i_++]);
            if (v < 0)
                return false;
            cp = cp * 16 + static_cast<char32_t>(v);
        }
        return true;
    }

    std::string_view s_;
    std::size_t i_ = 0;
};

/// A cell's "source": one string or an array of strings, joined.
bool read_source(JsonReader& r, std::string& out) {
    if (!r.peek('['))
        return r.string(&out);
    r.eat('[');
    if (r.eat(']'))
        return true;
    do {
        if (!r.string(&out))
            return false;
    } while (r.eat(','));
    return r.eat(']');
}

bool read_cell(JsonReader& r, NotebookCell& cell) {
    if (!r.eat('{'))
        return false;
    if (r.eat('}'))
        return true;
    do {
        std::string key;
        if (!r.string(&key) || !r.eat(':'))
            return false;
        if (key == "cell_type") {
            std::string type;
            if (!r.string(&type))
                return false;
            cell.code = type == "code";
        } else if (key == "source") {
            if (!read_source(r, cell.source))
                return false;
        } else if (!r.skip_value()) {
            return false;
        }
    } while (r.eat(','));
    return r.eat('}');
}

} // namespace

std::optional<std::vector<NotebookCell>> notebook_cells(std::string_view json) {
    JsonReader r(json);
    std::vector<NotebookCell> cells;
    if (!r.eat('{'))
        return std::nullopt;
    do {
        std::string key;
        if (!r.string(&key) || !r.eat(':'))
            return std::nullopt;
        if (key != "cells") {
            if (!r.skip_value())
                return std::nullopt;
            continue;
        }
        if (!r.eat('['))
            return std::nullopt;
        if (r.eat(']'))
            continue;
        do {
            NotebookCell cell;
            if (!read_cell(r, cell))
                return std::nullopt;
            cells.push_back(std::move(cell));
        } while (r.eat(','));
        if (!r.eat(']'))
            return std::nullopt;
    } while (r.eat(','));
    return cells;
}

bool scan_notebook(std::string_view path, std::string_view json, std::vector<ScanHit>& out,
                   std::uint64_t& long_lines, std::size_t root_length) {
    auto cells = notebook_cells(json);
    if (!cells)
        return false;
    FileScanner scanner(path, Lang::notebook, root_length);
    for (std::size_t c = 0; c < cells->size(); ++c) {
        scanner.start_cell(static_cast<std::uint32_t>(c), (*cells)[c].code);
        std::string_view text = (*cells)[c].source;
        while (!text.empty()) {
            const std::size_t nl = text.find('\n');
            scanner.line(text.substr(0, nl), out);
            text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        }
    }
    long_lines += scanner.long_lines();
    return true;
}

} // namespace loopcheck
