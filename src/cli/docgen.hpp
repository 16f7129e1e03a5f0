// The committed files made from the option table (src/cli/docgen.cpp):
// the man page's option lists, docs/usage.md's option tables and the four
// completion scripts. loopcheck_docgen (docgen_main.cpp) writes or checks
// them; tests/generated_test.sh fails when one has drifted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// One generated file: its path from the source root and its new text.
struct GeneratedFile {
    std::string path;
    std::string text;
};

/// Every generated file, from the current texts of those that are only
/// partly generated (`read` gives a file's text by its path; "" when
/// missing). A file whose markers are missing is an error.
struct Generated {
    std::vector<GeneratedFile> files;
    std::vector<std::string> errors;
};
Generated generate_files(std::string (*read)(const std::string& path));

/// `text` with the lines between the line holding `begin` and the next
/// line holding `end` replaced by `body`; none when a marker is missing.
bool replace_between(std::string& text, std::string_view begin, std::string_view end,
                     const std::string& body);

/// Markdown inline text (`code`, [a](link)) as roff for the man page.
std::string roff_text(std::string_view markdown);

} // namespace loopcheck
