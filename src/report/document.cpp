// The document model's inline pieces (see document.hpp).
#include "report/document.hpp"

#include "loopcheck/core/text/text.hpp"

#include <utility>

namespace loopcheck::doc {

Run literal(std::string text) {
    Run r;
    r.text = std::move(text);
    return r;
}

Run prose(std::string_view text) {
    Run r;
    r.kind = Run::Kind::prose;
    // Escaped first, so that a join is decided on the text as it shows.
    r.text = keep_together(escape_controls(text));
    return r;
}

Run code(std::string text) {
    Run r;
    r.kind = Run::Kind::code;
    r.text = std::move(text);
    return r;
}

Run untrusted(Untrusted raw) {
    Run r;
    r.kind = Run::Kind::untrusted;
    r.raw = std::move(raw);
    return r;
}

Run only(Media media, Run run) {
    run.media = media;
    return run;
}

Run strong(Run run) {
    run.strong = true;
    return run;
}

Run toned(Tone tone, Run run) {
    run.tone = tone;
    return run;
}

Text per_medium(std::string text_words, std::string markdown_words) {
    return {only(Media::text, literal(std::move(text_words))),
            only(Media::markdown, literal(std::move(markdown_words)))};
}

} // namespace loopcheck::doc
