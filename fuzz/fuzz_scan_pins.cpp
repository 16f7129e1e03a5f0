// libFuzzer: scan's version-pin readers (requirements files, pyproject.toml,
// poetry.lock, package-lock.json, .csproj are anyone's text) and the version
// order they feed: no crash, no empty or control-byte version, an order that
// is a strict order.
#include "loopcheck/core/clients/table.hpp"
#include "loopcheck/core/scan/pins.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view content(reinterpret_cast<const char*>(data), size);
    std::vector<loopcheck::ScanPin> pins;
    for (const char* name : {"requirements.txt", "requirements-dev.txt", "pyproject.toml",
                             "poetry.lock", "package-lock.json", "app.csproj"})
        if (loopcheck::is_pin_file(name))
            loopcheck::read_pins(name, content, pins);
    for (const auto& p : pins) {
        if (p.package.empty() || p.version.empty())
            __builtin_trap();
        for (unsigned char c : p.version)
            if (c < 0x20)
                __builtin_trap(); // a version goes into the report's text
        if (loopcheck::version_less(p.version, p.version))
            __builtin_trap(); // irreflexive
        for (const auto& q : pins)
            if (loopcheck::version_less(p.version, q.version) &&
                loopcheck::version_less(q.version, p.version))
                __builtin_trap(); // asymmetric
    }
    // The pins applied to a client hit of each library they name.
    std::vector<loopcheck::ScanHit> hits(pins.size());
    for (std::size_t i = 0; i < pins.size(); ++i) {
        hits[i].kind = loopcheck::HitKind::client;
        hits[i].package = pins[i].package;
        hits[i].client = pins[i].package == "aiohttp" ? "python-aiohttp" : "python";
        hits[i].lang = pins[i].npm ? loopcheck::Lang::javascript : loopcheck::Lang::python;
    }
    loopcheck::apply_pins(hits, pins);
    return 0;
}
