// `loopcheck scan`'s version pins (src/core/scan/pins.cpp): the versions of
// the client libraries a requirements file, pyproject.toml, poetry.lock,
// package-lock.json or .csproj names, for the client hits. Pure.
#pragma once

#include "loopcheck/core/scan/scan.hpp"

#include <string_view>
#include <vector>

namespace loopcheck {

/// True for a file whose name says it pins versions (requirements*.txt,
/// pyproject.toml, poetry.lock, package-lock.json, *.csproj).
bool is_pin_file(std::string_view path) noexcept;

/// Appends the pins of the client libraries scan knows (aiohttp, httpx,
/// requests, openai, ollama, litellm, axios, ...) that `content` names; the
/// first pin of a package wins. "==" and exact versions are pins; ">=",
/// "~=", "^" give the lowest version allowed.
void read_pins(std::string_view path, std::string_view content, std::vector<ScanPin>& out);

/// Each client hit whose library is pinned names the pin; aiohttp below
/// 3.10 has no Happy Eyeballs, so its hits move to the sequential row.
void apply_pins(std::vector<ScanHit>& hits, const std::vector<ScanPin>& pins);

} // namespace loopcheck
