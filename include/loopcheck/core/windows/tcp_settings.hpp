// Windows' configured SYN retry limit as the report shows it. The platform
// file reads MSFT_NetTCPSetting (WMI, root\StandardCimv2: one instance per
// template: Automatic, Internet, Datacenter, Compat, InternetCustom,
// DatacenterCustom); this picks the one that applies. Pure, so it is tested
// on every OS.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>

namespace loopcheck {

/// One MSFT_NetTCPSetting instance: SettingName, MaxSynRetransmissions
/// (nullopt where the template leaves it unset, as "Automatic" does) and
/// AutomaticUseCustom (0 Disabled, 1 Enabled; nullopt when not reported).
struct TcpSettingRow {
    std::string setting_name;
    std::optional<int> max_syn_retransmissions;
    std::optional<int> automatic_use_custom;
};

/// The key the report uses, WMI's property name (netsh shows the same
/// setting as "Max SYN Retransmissions"). Its value is one number when
/// loopcheck can tell which template applies, so that --quick can use it.
inline constexpr const char* max_syn_retransmissions_key = "MaxSynRetransmissions";
/// The key that says which template that number came from, and why.
inline constexpr const char* max_syn_retransmissions_source_key = "MaxSynRetransmissions source";

/// The limit a loopback connect gets, and where it comes from.
struct EffectiveSynLimit {
    std::optional<int> value; ///< nullopt: the rows do not say
    std::string setting;      ///< the template: "InternetCustom"; empty when none was picked
    std::string why;          ///< one line: how that template was picked
};

/// Picks the template a loopback connect uses:
/// - Internet on client editions, Datacenter on Server editions. The
///   Automatic template picks Datacenter for an RTT of 10 ms or less and
///   Internet above (Microsoft networking blog, "TCP Templates for Windows
///   Server 2019", 2018), so loopback gets Datacenter there; client
///   editions apply the Internet templates.
/// - the Custom twin when AutomaticUseCustom is Enabled (MSFT_NetTCPSetting
///   docs: "the automatic template setting specifies custom templates"),
///   the stock one when it is Disabled; when no row reports it, the Custom
///   twin if it sets a value (only the Custom templates can be changed on
///   client Windows), else the stock one.
/// Falls back to the one value every template agrees on, and gives none
/// when the picked template is missing and the others differ.
EffectiveSynLimit effective_max_syn_retransmissions(std::span<const TcpSettingRow> rows,
                                                    bool server);

/// The report's values: {"2", "InternetCustom (AutomaticUseCustom enabled;
/// ...)"} when a template was picked; otherwise the listing
/// "Internet=4, Datacenter=2" or "unknown", and an empty source.
std::pair<std::string, std::string>
max_syn_retransmissions_report(std::span<const TcpSettingRow> rows, bool server);

/// "4" when every template that sets the limit agrees; "Internet=4,
/// Datacenter=2" (in the order given) when they differ; "unknown" when no
/// row sets it (WMI unreadable, or Wine, which has no such class).
std::string summarize_max_syn_retransmissions(std::span<const TcpSettingRow> rows);

} // namespace loopcheck
