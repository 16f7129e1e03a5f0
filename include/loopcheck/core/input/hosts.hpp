// Where a name's address order comes from: the hosts file's lines for it
// and what the resolver does on top. Pure; the caller reads the file.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/text/untrusted.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

struct HostsLine {
    int number = 0; ///< 1-based line number in the file
    /// The entry without its comment, whitespace folded, bytes as they are
    /// in the file: print it through Untrusted's neutralisers only.
    Untrusted text;
    /// The family of the entry's address; nullopt when it is no IP literal.
    std::optional<Family> family;
};

/// The entries of a hosts file (`content`) that list `name` (case does not
/// matter; a trailing dot on `name` is ignored). Comments and blank lines
/// are skipped.
std::vector<HostsLine> hosts_lines_for(std::string_view content, std::string_view name);

/// Larger hosts files are read only this far (a corrupt or hostile file
/// must not make loopcheck slow).
inline constexpr std::size_t max_hosts_file_bytes = 1 << 20;

/// The rules of a gai.conf (`content`) that change how glibc's getaddrinfo
/// ranks addresses (precedence, label, scopev4; gai.conf(5)), with their
/// line numbers; comments and other lines are skipped.
std::vector<HostsLine> gai_conf_rules(std::string_view content);

/// One sentence on how `os` orders the addresses of `name` beyond what the
/// hosts file says, derived from the `order` the resolver returned and the
/// gai.conf rules that shaped it; empty when there is nothing specific to
/// say. With no `order`, it claims no order.
std::string resolution_note(Os os, std::string_view name, const std::vector<HostsLine>& lines,
                            std::span<const Address> order = {},
                            const std::vector<HostsLine>& gai_rules = {});

} // namespace loopcheck
