// `loopcheck scan`'s classifier: reads one file's lines in order, keeps what
// the rules need from earlier lines (imports, an open call, a Markdown fence,
// a CI runner) and classifies every loopback reference by the rules table.
#pragma once

#include "core/scan/rules.hpp"
#include "loopcheck/core/scan/scan.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loopcheck {

/// Lines longer than this are classified on a window around each reference.
inline constexpr std::size_t scan_line_cap = 8192;

class FileScanner {
public:
    /// `root_length`: how much of `path` is the scanned root's prefix, left
    /// out when deciding whether the file is a test.
    FileScanner(std::string_view path, Lang lang, std::size_t root_length = 0);

    /// Reads the next line (without its "\n"; a trailing "\r" is dropped)
    /// and appends its hits to `out`.
    void line(std::string_view text, std::vector<ScanHit>& out);

    /// Notebooks: the lines that follow are cell `index`, a code cell
    /// (Python) or not (Markdown); their numbering restarts at 1. Imports
    /// seen in earlier cells still count.
    void start_cell(std::uint32_t index, bool code);

    [[nodiscard]] std::uint64_t long_lines() const noexcept { return long_lines_; }

    /// Whether the file may start a server with no address written
    /// (may_bind_server on its whole text): only then are its port
    /// assignments and framework calls read, line by line. On by default.
    void watch_binds(bool on) noexcept { watch_binds_ = on; }

    /// Where to record the environment variables code reads (config hits'
    /// consumers); none when not set.
    void record_env_reads(std::vector<EnvRead>* reads) noexcept { env_reads_ = reads; }

private:
    struct Open {
        char bracket;
        std::uint32_t line;
    };
    void track_imports(std::string_view text);
    void track_context(std::string_view text);
    void track_brackets(std::string_view text);
    void track_block_comments(std::string_view text);
    [[nodiscard]] std::string statement(std::string_view text) const;
    [[nodiscard]] Lang effective_lang() const noexcept;
    [[nodiscard]] bool in_docs() const noexcept; ///< Markdown, a notebook's Markdown cell
    bool matches(const ScanRule& rule, const LoopbackRef& ref, std::string_view text,
                 std::string_view stmt, ScanHit& hit) const;
    void classify(ScanHit& hit, std::string_view text, std::string_view stmt) const;

    std::string path_;
    Lang lang_;
    std::uint32_t line_no_ = 0;
    std::optional<std::uint32_t> cell_;
    bool cell_code_ = true;
    // What earlier lines said.
    std::string_view import_client_, import_label_, import_package_;
    bool in_fence_ = false;
    Lang fence_lang_ = Lang::other;
    bool in_block_comment_ = false, block_at_start_ = false;
    bool in_docstring_ = false, docstring_at_start_ = false; ///< Python triple quotes
    bool workflow_ = false, ubuntu_runner_ = false, dev_server_config_ = false, test_file_ = false;
    std::vector<Open> open_;            ///< unclosed ( [ { with their line
    std::array<std::string, 8> recent_; ///< the last lines (capped), by line number
    std::uint64_t long_lines_ = 0;
    std::vector<EnvRead>* env_reads_ = nullptr;
    /// Names assigned a port earlier in the file (PORT = 8000, port=8001), capped.
    std::vector<std::pair<std::string, std::uint16_t>> port_names_;
    bool watch_binds_ = true;
    void track_binds(std::string_view text, std::vector<ScanHit>& out);
    void track_env_reads(std::string_view text);
};

/// The hits of a short text read as one file (tests and docs examples).
std::vector<ScanHit> classify_text(std::string_view path, Lang lang, std::string_view text);

/// One notebook cell: a code cell's source is Python, any other is Markdown.
struct NotebookCell {
    bool code = false;
    std::string source;
};

/// The cells of a .ipynb document; nullopt when it is not one.
std::optional<std::vector<NotebookCell>> notebook_cells(std::string_view json);

/// Scans a notebook's cells (src/core/scan/notebook.cpp); false when the
/// document cannot be read as a notebook (nothing appended).
bool scan_notebook(std::string_view path, std::string_view json, std::vector<ScanHit>& out,
                   std::uint64_t& long_lines, std::size_t root_length = 0);

} // namespace loopcheck
