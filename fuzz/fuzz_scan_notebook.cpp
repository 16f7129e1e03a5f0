// libFuzzer: scan's notebook reader (a .ipynb is anyone's JSON): the cells it
// finds, the hits it classifies in them, and the JSON escaping of their text.
// A hostile notebook must neither crash scan nor point a hit at a cell that
// does not exist.
#include "core/scan/classify.hpp"
#include "loopcheck/core/scan/file.hpp"
#include "report/json/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view content(reinterpret_cast<const char*>(data), size);
    const auto cells = loopcheck::notebook_cells(content);
    std::vector<loopcheck::ScanHit> hits;
    std::uint64_t long_lines = 0;
    const bool read = loopcheck::scan_notebook("nb.ipynb", content, hits, long_lines);
    if (read != cells.has_value())
        __builtin_trap(); // the reader and the scanner disagree on what a notebook is
    for (const auto& h : hits) {
        if (!h.cell || !cells || *h.cell >= cells->size() || h.line == 0 || h.col == 0)
            __builtin_trap(); // a hit outside the notebook's cells
        loopcheck::JsonWriter w;
        for (unsigned char c : w.value(h.text).str())
            if (c < 0x20 && c != '\n')
                __builtin_trap(); // a raw control byte in JSON text
    }
    // The whole file path as scan takes it (binary check, UTF-8 count, pins).
    loopcheck::ScanResult r;
    loopcheck::scan_file_content("nb.ipynb", loopcheck::Lang::notebook, content, r, true);
    return 0;
}
