// The text renderer's line writer: colour when the style asks for it, and
// prose wrapped at the style's width (shared by the text renderers).
#pragma once

#include "loopcheck/core/text/text.hpp"
#include "loopcheck/report/text.hpp"
#include "report/document.hpp"

#include <algorithm>
#include <string>
#include <string_view>

namespace loopcheck::text {

using doc::Tone;

/// The check report's colours: Tones of the one painter (doc::paint).
namespace colors {
inline constexpr doc::Tone bold = doc::Tone::bold, red = doc::Tone::red, green = doc::Tone::green,
                           yellow = doc::Tone::yellow, dim = doc::Tone::dim;
} // namespace colors

class Writer {
public:
    explicit Writer(const TextStyle& style) : style_(style) {}

    std::string paint(std::string_view text, doc::Tone tone) const {
        return doc::paint(text, tone, style_.color);
    }

    /// Appends `text` wrapped at the width, the first line after `first`
    /// and the rest indented by `indent` spaces.
    void wrapped(std::string_view first, std::string_view text, std::size_t indent) {
        wrap_into(out_, first, text, indent, width());
    }

    /// The columns a line may take: the style's width, 40 at the least.
    std::size_t width() const { return static_cast<std::size_t>(std::max(40, style_.width)); }

    bool verbose() const { return style_.verbose; }
    bool ascii() const { return style_.ascii; }

    void line(std::string_view s = {}) {
        out_ += s;
        out_ += '\n';
    }

    /// A blank line, unless the last line already is one (or nothing was
    /// written): sections that may be empty never leave two.
    void blank() {
        if (!out_.empty() && !out_.ends_with("\n\n"))
            out_ += '\n';
    }

    std::string take() { return std::move(out_); }

private:
    const TextStyle& style_;
    std::string out_;
};

} // namespace loopcheck::text
