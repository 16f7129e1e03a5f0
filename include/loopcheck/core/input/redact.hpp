// Secrets out of what reports echo: a URL's userinfo, its query and
// fragment values, credential-named values in a line or an argument, and
// home paths. Reports end up in public tickets and CI logs, and what they
// echo (a target, a command line, a scanned line, a traced program's
// arguments) is whatever the user typed or committed (docs/usage.md,
// "Redaction").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loopcheck {

/// Whether a report echoes secrets: `--no-redact` keeps them for a
/// private run; every other run redacts.
enum class Secrets : std::uint8_t { redact, keep };

/// Which kinds of secret a text had, now written "***".
struct Redactions {
    bool userinfo = false;   ///< "user:pass@" of a URL
    bool query = false;      ///< a value after '?' in a URL
    bool fragment = false;   ///< a value after '#' in a URL ("#access_token=...")
    bool credential = false; ///< a value named like a secret: TOKEN=..., --api-key ...

    [[nodiscard]] bool any() const { return userinfo || query || fragment || credential; }
    /// "userinfo", "query", "fragment", "credential": the JSON's `redacted`.
    [[nodiscard]] std::vector<std::string_view> names() const;
    Redactions& operator|=(const Redactions& other);

    friend bool operator==(const Redactions&, const Redactions&) = default;
};

/// True for a name that holds a secret: any of its parts (split at '_',
/// '-', '.' and lower-to-upper case) is token, secret, password, passwd,
/// pwd, auth, authorization, apikey, key, sig, signature, session,
/// cookie, credential(s) or bearer. "OPENAI_API_KEY", "accessToken",
/// "--hf-token" are; "keyboard", "host", "port" are not.
bool credential_name(std::string_view name);

/// `text` with every URL's userinfo written "***@" and every value of its
/// query and fragment written "***" ("/lab?token=***", "#access_token=***").
/// A URL is a word with "://" in it, or one whose host is followed by
/// ":PORT" ("localhost:8888/lab?token=..."); a '?' anywhere else (a
/// ternary, a regex) is left alone.
std::string redact_urls(std::string_view text, Redactions* found = nullptr);

/// A URL from its host on ("localhost:8888/lab?token=..."), or a whole
/// one: the values of its query and fragment written "***".
std::string redact_query(std::string_view url, Redactions* found = nullptr);

/// A line of text (a scanned source line, an error message): its URLs as
/// redact_urls, and the value of each credential-named assignment written
/// "***": NAME=value, NAME: value, "NAME": "value", name="value". A value
/// that is itself a URL keeps its host (only its secrets go), so a scanned
/// line still shows where it connects.
std::string redact_line(std::string_view text, Redactions* found = nullptr);

/// One argument of a command line: as redact_line, and the whole argument
/// when the one before it is a credential-named option ("--token SECRET",
/// "-p" is not one: too many tools use it for a port).
std::string redact_argument(std::string_view argument, std::string_view previous,
                            Redactions* found = nullptr);

/// `text` with each home directory written "~": `home` (this user's, when
/// not empty or "/") and any /home/NAME, /Users/NAME or X:\Users\NAME
/// (also as JSON escapes it, X:\\Users\\NAME), so a path or a process's
/// executable names no user.
std::string redact_home(std::string_view text, std::string_view home);

} // namespace loopcheck
