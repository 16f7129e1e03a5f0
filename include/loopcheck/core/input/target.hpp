// What the user asked loopcheck to check: "localhost:11434",
// "[::1]:8080", "http://localhost:11434/v1", "11434".
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/redact.hpp"
#include "loopcheck/core/result.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loopcheck {

struct Target {
    /// As given, but a URL's userinfo ("user:pass@") written "***@" and
    /// its query and fragment values "***" (unless parsed with
    /// Secrets::keep): the input is echoed by every report, and reports end
    /// up in tickets.
    std::string input;
    std::string scheme; ///< lower case; empty when the input is not a URL
    std::string host;   ///< name or literal, without brackets
    std::uint16_t port = 0;
    bool port_from_scheme = false; ///< port came from http/https/ws/wss
    /// The path and query as an HTTP request names them ("/health?x=1"),
    /// exactly as typed: wait's GET needs the real query. "/" when there
    /// is none. Never printed: reports show `input`, redacted.
    std::string path = "/";
    std::optional<Address> literal; ///< set when host is an IP literal
    /// Where the host (with its brackets) sits in `input`, so a fix can
    /// rewrite just that part. Length 0 when the input named only a port.
    std::size_t host_pos = 0;
    std::size_t host_len = 0;
    bool userinfo_redacted = false; ///< `input` had userinfo, now "***@"
    Redactions redacted;            ///< what `input` had, now "***"

    friend bool operator==(const Target&, const Target&) = default;
};

/// Longest host name accepted: the DNS limit on a name's text form.
inline constexpr std::size_t max_host_length = 253;

/// `text` with the userinfo of each URL in it ("scheme://user:pass@host")
/// written "***@"; `redacted` is set when there was any. For the target's
/// echo and the command line in reports; the probe never needs it.
std::string redact_userinfo(std::string_view text, bool* redacted = nullptr);

/// `text`, an error line that may quote what was typed, with the
/// credentials of each word in it written "***@": a URL's userinfo, and
/// what a word without a scheme has before an '@' ("user:pw@localhost:80"
/// is no target, and its password no less secret).
std::string redact_credentials(std::string_view text);

/// The local name a host that did not resolve was likely meant to be:
/// "localhost" for "locahost" or "localhots" (1 or 2 edits, as the
/// command typos' did-you-mean), none for any other name.
std::optional<std::string> meant_local_name(std::string_view host);

/// Parses one target. The error (ErrorKind::usage) is one line naming the
/// bad part, e.g. "invalid target 'x:0': port 0 is not a valid port".
/// With Secrets::keep (`--no-redact`) `input` is exactly as typed.
Result<Target> parse_target(std::string_view text, Secrets secrets = Secrets::redact);

/// The target "NAME:PORT" for a host name, exactly as parse_target reads
/// that text (the self-check and audit build theirs without text).
Target name_target(std::string_view name, std::uint16_t port);

/// The target for an address and its port, exactly as parse_target reads
/// endpoint_string(address): "127.0.0.1:9", "[::1]:9".
Target address_target(const Address& address);

/// The input rewritten to connect to `to` instead of the name: the URL
/// keeps its scheme, path and query; "localhost:8000" becomes
/// "127.0.0.1:8000"; a bare port becomes an endpoint.
std::string rewrite_host(const Target& t, const Address& to);

} // namespace loopcheck
