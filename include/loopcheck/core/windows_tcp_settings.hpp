// Windows' configured SYN retry limit as the report shows it. The platform
// file reads MSFT_NetTCPSetting (WMI, root\StandardCimv2: one instance per
// template, e.g. Internet, Datacenter, Compat); this turns those rows into
// one value. Pure, so it is tested on every OS.
#pragma once

#include <optional>
#include <span>
#include <string>

namespace loopcheck {

/// One MSFT_NetTCPSetting instance: SettingName and MaxSynRetransmissions
/// (nullopt where the template leaves it unset, as "Automatic" does).
struct TcpSettingRow {
    std::string setting_name;
    std::optional<int> max_syn_retransmissions;
};

/// The key the report uses, WMI's property name (netsh shows the same
/// setting as "Max SYN Retransmissions").
inline constexpr const char* max_syn_retransmissions_key = "MaxSynRetransmissions";

/// "4" when every template that sets the limit agrees; "Internet=4,
/// Datacenter=2" (in the order given) when they differ, since which
/// template a connection uses depends on the transport filters; "unknown"
/// when no row sets it (WMI unreadable, or Wine, which has no such class).
std::string summarize_max_syn_retransmissions(std::span<const TcpSettingRow> rows);

} // namespace loopcheck
