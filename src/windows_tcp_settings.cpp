#include "loopcheck/windows_tcp_settings.hpp"

#include "loopcheck/core/untrusted.hpp"

#include <fmt/format.h>

namespace loopcheck {

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
