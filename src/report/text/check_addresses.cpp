// The terminal report's addresses: the address table in resolver order,
// the resolution detail, curl's own localhost probes and who listens.
#include "loopcheck/core/listeners/queries.hpp"
#include "loopcheck/core/text/text.hpp"
#include "report/text/bars.hpp"
#include "report/text/check_parts.hpp"
#include "report/text/table.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace loopcheck::text {

using namespace colors;

namespace {

std::string latency_cell(const Summary& s, int count) {
    if (s.count == 0)
        return "-";
    if (count <= 1)
        return format_duration(s.median);
    return format_spread(s.min, s.median, s.max);
}

std::string fast_cell(const AddressSummary& s, int count) {
    // The outcome is named only where it differs from the default probe's.
    if (s.fast_latency && *s.fast_outcome == s.outcome)
        return latency_cell(*s.fast_latency, count);
    if (s.fast_latency)
        return fmt::format("{} {}", outcome_name(*s.fast_outcome),
                           latency_cell(*s.fast_latency, count));
    if (s.fast_option_refused)
        return "option refused";
    return "";
}

std::string outcome_cell(const AddressSummary& s) {
    std::string out(summary_outcome_name(s));
    if (s.mixed)
        out += " (mixed)";
    return out;
}

/// Wine rejects the ioctl (docs/windows.md), as may old Windows builds:
/// said once; the default probes are still the measurement that matters.
/// "1.01 ┼─────┤ 1.52 s": the fastest and slowest of the -n rounds, the
/// cross at the median (issue 24: a picture of the rounds, as the staircase
/// has one of its limits); the unit once when both ends share it. Six
/// columns of picture keep the Windows case's table within 80 columns.
std::string rounds_cell(const Summary& s, bool ascii) {
    if (s.count < 2)
        return latency_cell(s, 1);
    constexpr std::size_t picture = 6;
    auto lo = format_duration(s.min);
    const auto hi = format_duration(s.max);
    if (lo.substr(lo.rfind(' ')) == hi.substr(hi.rfind(' ')))
        lo.resize(lo.rfind(' '));
    auto us = [](Micros m) { return static_cast<double>(m.count()); };
    return fmt::format("{} {} {}", lo,
                       spread_line(us(s.min), us(s.median), us(s.max), picture, ascii), hi);
}

void option_refused_line(Writer& w, const TargetReport& t) {
    const auto refused = std::find_if(t.addresses.begin(), t.addresses.end(),
                                      [](auto& a) { return a.summary.fast_option_refused; });
    if (refused != t.addresses.end()) {
        const auto& why = refused->summary.fast_option_error;
        w.line(fmt::format("  SIO_TCP_INITIAL_RTO (no SYN retries) refused by the OS{}: default "
                           "probes only.",
                           why.empty() ? "" : fmt::format(" ({})", why)));
    }
}

} // namespace

void address_table(Writer& w, const TargetReport& t, int full_count) {
    // One screen: the medians; -v the spread of every round too.
    const int count = w.verbose() ? full_count : 1;
    const bool any_fast = std::any_of(t.addresses.begin(), t.addresses.end(), [](auto& a) {
        return a.summary.fast_latency || a.summary.fast_option_refused;
    });
    const bool any_rtx = std::any_of(t.addresses.begin(), t.addresses.end(), [](auto& a) {
        return a.summary.syn_retransmissions.has_value();
    });
    // The OS's error name only where the outcome does not already say it
    // (the JSON and Markdown reports always carry it).
    auto detail = [](const AddressSummary& s) {
        return native_name_implied(s) ? std::string() : s.native_name;
    };
    const bool any_detail = std::any_of(t.addresses.begin(), t.addresses.end(),
                                        [&](auto& a) { return !detail(a.summary).empty(); });
    text::Table table;
    // Resolver order is the rows' order (the line above says it): no "#".
    // One screen with -n: the rounds as a picture, min to max, the cross at
    // the median (-v: the numbers).
    const bool picture = full_count > 1 && !w.verbose();
    table.header = {"address",
                    "outcome",
                    picture          ? (w.ascii() ? "rounds (+ median)" : "rounds (\u253C median)")
                    : full_count > 1 ? (count > 1 ? "median [min..max]" : "median")
                                     : "latency",
                    any_fast ? "without SYN retries" : "",
                    any_rtx ? "SYN rtx" : "",
                    any_detail ? "detail" : ""};
    table.rows.reserve(t.addresses.size());
    for (std::size_t i = 0; i < t.addresses.size(); ++i) {
        const auto& a = t.addresses[i];
        table.rows.push_back({endpoint_string(a.address), outcome_cell(a.summary),
                              picture ? rounds_cell(a.summary.latency, w.ascii())
                                      : latency_cell(a.summary.latency, count),
                              any_fast ? fast_cell(a.summary, count) : "",
                              a.summary.syn_retransmissions
                                  ? std::to_string(*a.summary.syn_retransmissions)
                                  : (any_rtx ? "n/a" : ""),
                              detail(a.summary)});
    }
    text::write_table(w, table);
    option_refused_line(w, t);
}

void resolution_lines(Writer& w, const Report& r, const Resolution& res) {
    if (!res.hosts_file_readable)
        w.wrapped("  ", fmt::format("({} could not be read)", r.system.hosts_file), 4);
    for (const auto& l : res.hosts_lines)
        w.wrapped("  ",
                  fmt::format("{} line {}: {}", r.system.hosts_file, l.number, l.text.escaped()),
                  4);
    if (!res.note.empty())
        w.wrapped("  ", res.note, 2);
}

/// The loopback addresses probed for curl's own localhost answer only.
void curl_localhost_lines(Writer& w, const TargetReport& t, int count) {
    for (const auto& a : t.curl_localhost)
        w.wrapped("  ",
                  fmt::format("Also probed for curl, which answers {} itself: {} {} {} (not in "
                              "the resolver's answer; used by the curl rows only).",
                              t.target.host, endpoint_string(a.address), outcome_cell(a.summary),
                              latency_cell(a.summary.latency, count)),
                  4);
}

/// Who listens on the target's port (platform::list_listeners). "Nothing
/// listens" is the down finding's own sentence: said here with -v only.
void listener_lines(Writer& w, const TargetReport& t) {
    if (!t.listeners || (t.listeners->empty() && !w.verbose()))
        return;
    // One screen: where an address accepted, the table says where and the
    // fix names the process; the listeners are the clue only when none did.
    const bool accepted =
        std::any_of(t.addresses.begin(), t.addresses.end(),
                    [](const AddressReport& a) { return a.summary.outcome == Outcome::accepted; });
    if (!w.verbose() && accepted)
        return;
    if (t.listeners->empty()) {
        w.wrapped("  ", fmt::format("Nothing listens on port {} on this machine.", t.target.port),
                  2);
        return;
    }
    w.line(fmt::format("  Listening on port {}:", t.target.port));
    text::Table table;
    table.indent = 4;
    for (const auto& l : *t.listeners)
        table.rows.push_back({bound_string(l), owner_string(l)});
    text::write_table(w, table);
}

/// What the listener table could not show, or why there is none.
void listener_table_line(Writer& w, const ListenerTableStatus& s) {
    if (s.error)
        w.wrapped("", fmt::format("Listeners: unavailable ({}).", *s.error), 2);
    else if (!s.limits.empty())
        w.wrapped("", fmt::format("Listeners: {}.", s.limits), 2);
}

} // namespace loopcheck::text
