// The self-check's conclusions in plain words, from what it measured.
#pragma once

#include "loopcheck/core/report.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// `localhost` is the probe of localhost:<port of a 127.0.0.1-only
/// listener>; `closed_v4` and `closed_v6` (may be null) are probes of
/// reserved closed ports. Says which family localhost resolves to first,
/// whether refused loopback connects are fast, and what a sequential client
/// would pay here for a server that listens on 127.0.0.1 only. When
/// localhost does not resolve, says whether `hosts_file` (the path the
/// resolver reads) is missing or lacks a localhost line.
std::vector<std::string> self_check_statements(const TargetReport& localhost,
                                               const TargetReport& closed_v4,
                                               const TargetReport* closed_v6, Micros threshold,
                                               std::string_view hosts_file);

} // namespace loopcheck
