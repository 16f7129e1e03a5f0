// Secrets out of what reports echo (include/loopcheck/core/input/redact.hpp).
#include "loopcheck/core/input/redact.hpp"

#include "loopcheck/core/input/target.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>

namespace loopcheck {

namespace {

constexpr std::string_view mask = "***";

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// Where a word of a line ends: brackets stay inside ("[::1]:80"), quotes
/// and the punctuation code puts around a literal do not.
bool ends_word(char c) {
    return is_space(c) || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>' || c == '(' ||
           c == ')' || c == ',';
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

/// A word that is a URL: "scheme://...", or "host:PORT" followed by a
/// path, query or fragment ("localhost:8888/lab?token=...").
bool url_like(std::string_view word) {
    if (word.find("://") != std::string_view::npos)
        return true;
    for (std::size_t colon = word.find(':'); colon != std::string_view::npos;
         colon = word.find(':', colon + 1)) {
        std::size_t end = colon + 1;
        while (end < word.size() && is_digit(word[end]))
            ++end;
        if (end > colon + 1 &&
            (end == word.size() || word[end] == '/' || word[end] == '?' || word[end] == '#'))
            // "10:30?x=1" is a time, not a host and port.
            return colon > 0 &&
                   !std::all_of(word.begin(), word.begin() + static_cast<long>(colon), is_digit);
    }
    return false;
}

/// The parameters of a query or fragment ("a=1&b=2") with each value
/// written "***"; `changed` is set when one was.
std::string mask_values(std::string_view params, bool& changed) {
    std::string out;
    std::size_t pos = 0;
    while (pos <= params.size()) {
        const std::size_t end = std::min(params.find_first_of("&;", pos), params.size());
        const std::string_view part = params.substr(pos, end - pos);
        const std::size_t eq = part.find('=');
        if (eq != std::string_view::npos && eq + 1 < part.size() && part.substr(eq + 1) != mask) {
            out.append(part.substr(0, eq + 1));
            out.append(mask);
            changed = true;
        } else {
            out.append(part);
        }
        if (end < params.size())
            out += params[end];
        pos = end + 1;
    }
    return out;
}

/// One URL word with its query and fragment values masked.
std::string mask_url_word(std::string_view word, Redactions& found) {
    // The query starts at the first '?' after the scheme; a nested URL in
    // it is part of a value.
    const std::size_t authority = word.find("://");
    const std::size_t from =
        authority == std::string_view::npos || authority > word.find_first_of("/?#")
            ? 0
            : authority + 3;
    const std::size_t question = word.find('?', from);
    const std::size_t hash = word.find('#', from);
    std::string out(word.substr(0, std::min(question, hash)));
    if (question != std::string_view::npos && question < hash) {
        out += '?';
        const std::size_t end = std::min(hash, word.size());
        out += mask_values(word.substr(question + 1, end - question - 1), found.query);
    }
    if (hash != std::string_view::npos) {
        out += '#';
        out += mask_values(word.substr(hash + 1), found.fragment);
    }
    return out;
}

/// Splits a name into its lower-case parts: at '_', '-', '.', and where a
/// lower-case letter or digit meets an upper-case one ("accessToken").
std::vector<std::string> name_parts(std::string_view name) {
    std::vector<std::string> parts(1);
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '_' || c == '-' || c == '.') {
            if (!parts.back().empty())
                parts.emplace_back();
            continue;
        }
        const bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
        if (upper && i > 0 &&
            (std::islower(static_cast<unsigned char>(name[i - 1])) != 0 || is_digit(name[i - 1])) &&
            !parts.back().empty())
            parts.emplace_back();
        parts.back() += lower(c);
    }
    if (parts.back().empty())
        parts.pop_back();
    return parts;
}

bool name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
}

/// Where an unquoted value ends.
bool ends_value(char c) {
    return is_space(c) || c == ',' || c == ';' || c == '&' || c == ')' || c == '}' || c == ']' ||
           c == '"' || c == '\'' || c == '`';
}

bool scheme_word(std::string_view value) {
    std::string w;
    for (char c : value)
        w += lower(c);
    return w == "bearer" || w == "basic" || w == "token" || w == "digest";
}

/// The credential-named assignments of `text` with their values masked:
/// NAME=v, NAME: v, NAME := v, "NAME": "v", name='v', and a header's
/// "Authorization: Bearer v".
std::string mask_assignments(std::string_view text, Redactions& found) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (!name_char(text[i]) || (i > 0 && name_char(text[i - 1]))) {
            out += text[i++];
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && name_char(text[end]))
            ++end;
        const std::string_view name = text.substr(i, end - i);
        out.append(name);
        i = end;
        if (!credential_name(name))
            continue;
        // The separator: a closing quote of a quoted key, spaces, then '='
        // (not "=="), ':' (not "://") or ":=".
        std::size_t j = i;
        if (j < text.size() && (text[j] == '"' || text[j] == '\''))
            ++j;
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
            ++j;
        if (j >= text.size())
            continue;
        if (text[j] == ':' && text.substr(j).starts_with("://"))
            continue;
        if (text[j] == ':' && j + 1 < text.size() && text[j + 1] == '=')
            ++j;
        else if (text[j] == '=' && j + 1 < text.size() && text[j + 1] == '=')
            continue;
        else if (text[j] != '=' && text[j] != ':')
            continue;
        ++j;
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t'))
            ++j;
        if (j >= text.size())
            continue;
        std::size_t start = j;
        std::size_t stop = j;
        if (text[j] == '"' || text[j] == '\'' || text[j] == '`') {
            start = j + 1;
            stop = text.find(text[j], start);
            if (stop == std::string_view::npos)
                stop = text.size();
        } else {
            while (stop < text.size() && !ends_value(text[stop]))
                ++stop;
            // "Authorization: Bearer TOKEN": the scheme word stays, the
            // token after it goes.
            if (scheme_word(text.substr(start, stop - start)) && stop < text.size() &&
                text[stop] == ' ') {
                start = stop + 1;
                stop = start;
                while (stop < text.size() && !ends_value(text[stop]))
                    ++stop;
            }
        }
        const std::string_view value = text.substr(start, stop - start);
        if (value.empty() || value == mask || url_like(value)) {
            continue;
        }
        out.append(text.substr(i, start - i));
        out.append(mask);
        found.credential = true;
        i = stop;
    }
    return out;
}

bool path_boundary(std::string_view text, std::size_t at) {
    if (at == 0)
        return true;
    const char c = text[at - 1];
    return !(std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-');
}

/// Where a user's name in a path ends.
std::size_t name_end(std::string_view text, std::size_t from) {
    std::size_t end = from;
    while (end < text.size() && text[end] != '/' && text[end] != '\\' && !ends_word(text[end]) &&
           text[end] != ':' && text[end] != ';' && text[end] != ']' && text[end] != '}' &&
           text[end] != '|')
        ++end;
    return end;
}

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (lower(text[i]) != lower(prefix[i]))
            return false;
    return true;
}

/// The length of a home directory's prefix at `at` ("/home/NAME",
/// "/Users/NAME", "C:\Users\NAME", "C:\\Users\\NAME", "C:/Users/NAME"),
/// or 0.
std::size_t home_prefix(std::string_view text, std::size_t at) {
    const std::string_view rest = text.substr(at);
    for (const std::string_view unix_home : {"/home/", "/Users/"}) {
        if (rest.starts_with(unix_home) && path_boundary(text, at)) {
            const std::size_t end = name_end(text, at + unix_home.size());
            if (end > at + unix_home.size())
                return end - at;
        }
    }
    if (rest.size() > 3 && std::isalpha(static_cast<unsigned char>(rest[0])) != 0 &&
        rest[1] == ':' && path_boundary(text, at)) {
        for (const std::string_view users : {"\\\\Users\\\\", "\\Users\\", "/Users/"}) {
            if (starts_with_nocase(rest.substr(2), users)) {
                const std::size_t from = at + 2 + users.size();
                const std::size_t end = name_end(text, from);
                if (end > from)
                    return end - at;
            }
        }
    }
    return 0;
}

} // namespace

std::vector<std::string_view> Redactions::names() const {
    std::vector<std::string_view> out;
    if (userinfo)
        out.emplace_back("userinfo");
    if (query)
        out.emplace_back("query");
    if (fragment)
        out.emplace_back("fragment");
    if (credential)
        out.emplace_back("credential");
    return out;
}

Redactions& Redactions::operator|=(const Redactions& other) {
    userinfo = userinfo || other.userinfo;
    query = query || other.query;
    fragment = fragment || other.fragment;
    credential = credential || other.credential;
    return *this;
}

bool credential_name(std::string_view name) {
    static constexpr std::array<std::string_view, 17> secret_parts{
        "token",         "secret",     "password",    "passwd", "pwd",       "auth",
        "authorization", "apikey",     "key",         "sig",    "signature", "session",
        "cookie",        "credential", "credentials", "bearer", "passphrase"};
    const auto parts = name_parts(name);
    return std::any_of(parts.begin(), parts.end(), [](const std::string& p) {
        return std::find(secret_parts.begin(), secret_parts.end(), p) != secret_parts.end();
    });
}

std::string redact_urls(std::string_view text, Redactions* found) {
    Redactions local;
    Redactions& f = found != nullptr ? *found : local;
    const std::string unmasked = redact_userinfo(text, &f.userinfo);
    const std::string_view all = unmasked;
    std::string out;
    std::size_t pos = 0;
    while (pos < all.size()) {
        if (ends_word(all[pos])) {
            out += all[pos++];
            continue;
        }
        std::size_t end = pos;
        while (end < all.size() && !ends_word(all[end]))
            ++end;
        const std::string_view word = all.substr(pos, end - pos);
        if (url_like(word))
            out += mask_url_word(word, f);
        else
            out.append(word);
        pos = end;
    }
    return out;
}

std::string redact_query(std::string_view url, Redactions* found) {
    Redactions local;
    return mask_url_word(url, found != nullptr ? *found : local);
}

std::string redact_line(std::string_view text, Redactions* found) {
    Redactions local;
    Redactions& f = found != nullptr ? *found : local;
    return mask_assignments(redact_urls(text, &f), f);
}

std::string redact_argument(std::string_view argument, std::string_view previous,
                            Redactions* found) {
    Redactions local;
    Redactions& f = found != nullptr ? *found : local;
    if (previous.starts_with("--") && previous.find('=') == std::string_view::npos &&
        credential_name(previous.substr(2)) && !argument.empty() && !argument.starts_with('-') &&
        !url_like(argument)) {
        f.credential = true;
        return std::string(mask);
    }
    return redact_line(argument, &f);
}

std::string redact_home(std::string_view text, std::string_view home) {
    while (home.size() > 1 && (home.back() == '/' || home.back() == '\\'))
        home.remove_suffix(1);
    const bool own = home.size() > 1;
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (own && text.substr(i).starts_with(home) && path_boundary(text, i) &&
            (i + home.size() == text.size() || !name_char(text[i + home.size()]))) {
            out += '~';
            i += home.size();
            continue;
        }
        if (const std::size_t n = home_prefix(text, i); n > 0) {
            out += '~';
            i += n;
            continue;
        }
        out += text[i++];
    }
    return out;
}

} // namespace loopcheck
