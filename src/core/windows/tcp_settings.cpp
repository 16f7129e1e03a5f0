// Windows' configured SYN retry limit as the report shows it.
#include "loopcheck/core/windows/tcp_settings.hpp"

#include "loopcheck/core/text/untrusted.hpp"

#include <fmt/format.h>

namespace loopcheck {

namespace {

const TcpSettingRow* find(std::span<const TcpSettingRow> rows, std::string_view name) {
    for (const auto& r : rows)
        if (r.setting_name == name)
            return &r;
    return nullptr;
}

/// AutomaticUseCustom as the Automatic template reports it, else as any
/// row does (WMI may report it on each instance).
std::optional<int> automatic_use_custom(std::span<const TcpSettingRow> rows) {
    if (const auto* a = find(rows, "Automatic"); a != nullptr && a->automatic_use_custom)
        return a->automatic_use_custom;
    for (const auto& r : rows)
        if (r.automatic_use_custom)
            return r.automatic_use_custom;
    return std::nullopt;
}

} // namespace

EffectiveSynLimit effective_max_syn_retransmissions(std::span<const TcpSettingRow> rows,
                                                    bool server) {
    EffectiveSynLimit out;
    const std::string stock = server ? "Datacenter" : "Internet";
    const std::string custom = stock + "Custom";
    const std::string edition =
        server ? "Windows Server: loopback's RTT is under 10 ms, so Automatic picks Datacenter"
               : "client Windows uses the Internet templates";
    const auto* stock_row = find(rows, stock);
    const auto* custom_row = find(rows, custom);
    const auto use_custom = automatic_use_custom(rows);

    const TcpSettingRow* picked = nullptr;
    std::string reason;
    if (use_custom) {
        picked = *use_custom != 0 ? custom_row : stock_row;
        reason = fmt::format("AutomaticUseCustom {}; {}", *use_custom != 0 ? "enabled" : "disabled",
                             edition);
    } else if (custom_row != nullptr && custom_row->max_syn_retransmissions) {
        picked = custom_row;
        reason = fmt::format("AutomaticUseCustom not reported, and only the Custom templates "
                             "can be changed; {}",
                             edition);
    } else {
        picked = stock_row;
        reason = fmt::format("AutomaticUseCustom not reported; {}", edition);
    }

    if (picked != nullptr && picked->max_syn_retransmissions) {
        out.value = picked->max_syn_retransmissions;
        out.setting = escape_text(picked->setting_name);
        out.why = reason;
        // A twin that says otherwise is worth a word: it is what a change
        // of AutomaticUseCustom (or a wrong guess here) would give.
        const auto* twin = picked == custom_row ? stock_row : custom_row;
        if (twin != nullptr && twin->max_syn_retransmissions &&
            twin->max_syn_retransmissions != out.value)
            out.why += fmt::format("; {} sets {}", escape_text(twin->setting_name),
                                   *twin->max_syn_retransmissions);
        return out;
    }
    // The template that should apply is not there: one value every
    // template agrees on still answers the question.
    std::optional<int> agreed;
    for (const auto& r : rows) {
        if (!r.max_syn_retransmissions)
            continue;
        if (agreed && *agreed != *r.max_syn_retransmissions)
            return out;
        agreed = r.max_syn_retransmissions;
    }
    if (agreed) {
        out.value = agreed;
        out.why = "every template that sets it agrees";
    }
    return out;
}

std::pair<std::string, std::string>
max_syn_retransmissions_report(std::span<const TcpSettingRow> rows, bool server) {
    const auto e = effective_max_syn_retransmissions(rows, server);
    if (!e.value)
        return {summarize_max_syn_retransmissions(rows), ""};
    if (e.setting.empty())
        return {std::to_string(*e.value), e.why};
    return {std::to_string(*e.value), fmt::format("{} ({})", e.setting, e.why)};
}

std::string summarize_max_syn_retransmissions(std::span<const TcpSettingRow> rows) {
    std::optional<int> first;
    bool differ = false;
    std::string listing;
    for (const auto& r : rows) {
        if (!r.max_syn_retransmissions)
            continue;
        const int v = *r.max_syn_retransmissions;
        if (first && *first != v)
            differ = true;
        if (!first)
            first = v;
        listing += fmt::format("{}{}={}", listing.empty() ? "" : ", ",
                               r.setting_name.empty() ? "?" : escape_text(r.setting_name), v);
    }
    if (!first)
        return "unknown";
    return differ ? listing : std::to_string(*first);
}

} // namespace loopcheck
