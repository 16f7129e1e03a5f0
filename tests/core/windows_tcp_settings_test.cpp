#include "loopcheck/core/windows_tcp_settings.hpp"
#include "support/catch.hpp"

#include <vector>

using namespace loopcheck;

TEST_CASE("one value when every template that sets the limit agrees", "[windows_tcp_settings]") {
    // Get-NetTCPSetting on Windows 11: Automatic leaves it unset.
    std::vector<TcpSettingRow> rows{{"Automatic", std::nullopt}, {"InternetCustom", 4},
                                    {"DatacenterCustom", 4},     {"Compat", 4},
                                    {"Datacenter", 4},           {"Internet", 4}};
    CHECK(summarize_max_syn_retransmissions(rows) == "4");
}

TEST_CASE("templates that differ are listed by name", "[windows_tcp_settings]") {
    std::vector<TcpSettingRow> rows{
        {"Automatic", std::nullopt}, {"Internet", 4}, {"Datacenter", 2}};
    CHECK(summarize_max_syn_retransmissions(rows) == "Internet=4, Datacenter=2");
}

TEST_CASE("nothing readable is unknown", "[windows_tcp_settings]") {
    CHECK(summarize_max_syn_retransmissions({}) == "unknown");
    std::vector<TcpSettingRow> unset{{"Automatic", std::nullopt}};
    CHECK(summarize_max_syn_retransmissions(unset) == "unknown");
}
