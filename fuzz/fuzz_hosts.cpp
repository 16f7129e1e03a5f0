// libFuzzer: hosts file and gai.conf parsing, and JSON escaping of what it returns (a
// hostile hosts file must neither crash loopcheck nor break its JSON).
#include "loopcheck/core/input/hosts.hpp"
#include "report/json/writer.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view content(reinterpret_cast<const char*>(data), size);
    for (const char* name : {"localhost", "LOCALHOST.", "x"}) {
        const auto lines = loopcheck::hosts_lines_for(content, name);
        for (const auto& l : lines) {
            loopcheck::JsonWriter w;
            const auto escaped = w.value(l.text).str();
            for (unsigned char c : escaped)
                if (c < 0x20 && c != '\n')
                    __builtin_trap(); // a raw control byte in JSON text
            if (!loopcheck::is_terminal_safe(l.text.escaped()))
                __builtin_trap(); // what the text report would print
        }
        (void)loopcheck::resolution_note(loopcheck::Os::linux_, name, lines);
    }
    // The same bytes as a gai.conf: its rules go into the note's text.
    const auto rules = loopcheck::gai_conf_rules(content);
    for (const auto& r : rules) {
        loopcheck::JsonWriter w;
        for (unsigned char c : w.value(r.text).str())
            if (c < 0x20 && c != '\n')
                __builtin_trap(); // a raw control byte in JSON text
        if (!loopcheck::is_terminal_safe(r.text.escaped()))
            __builtin_trap(); // what the text report would print
    }
    const loopcheck::Address order[] = {loopcheck::make_ipv4(127, 0, 0, 1, 80),
                                        loopcheck::ipv6_loopback(80)};
    (void)loopcheck::resolution_note(loopcheck::Os::linux_, "localhost", {}, order, rules);
    (void)loopcheck::JsonWriter::escape(content);
    return 0;
}
