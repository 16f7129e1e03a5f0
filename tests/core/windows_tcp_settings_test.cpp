#include "loopcheck/core/windows/tcp_settings.hpp"
#include "support/catch.hpp"
#include "support/helpers.hpp"

#include <vector>

using namespace loopcheck;
using loopcheck::test::contains;

TEST_CASE("one value when every template that sets the limit agrees", "[windows_tcp_settings]") {
    // Get-NetTCPSetting on Windows 11: Automatic leaves it unset.
    const std::optional<int> n = std::nullopt;
    std::vector<TcpSettingRow> rows{{"Automatic", n, n},        {"InternetCustom", 4, n},
                                    {"DatacenterCustom", 4, n}, {"Compat", 4, n},
                                    {"Datacenter", 4, n},       {"Internet", 4, n}};
    CHECK(summarize_max_syn_retransmissions(rows) == "4");
}

TEST_CASE("templates that differ are listed by name", "[windows_tcp_settings]") {
    const std::optional<int> n = std::nullopt;
    std::vector<TcpSettingRow> rows{{"Automatic", n, n}, {"Internet", 4, n}, {"Datacenter", 2, n}};
    CHECK(summarize_max_syn_retransmissions(rows) == "Internet=4, Datacenter=2");
}

TEST_CASE("nothing readable is unknown", "[windows_tcp_settings]") {
    CHECK(summarize_max_syn_retransmissions({}) == "unknown");
    std::vector<TcpSettingRow> unset{{"Automatic", std::nullopt, std::nullopt}};
    CHECK(summarize_max_syn_retransmissions(unset) == "unknown");
}

namespace {

/// Get-NetTCPSetting on client Windows 11 after
/// `Set-NetTCPSetting -SettingName InternetCustom -MaxSynRetransmissions 2`,
/// as the WMI rows come back (Automatic leaves the limit unset).
std::vector<TcpSettingRow> only_internet_custom_changed(std::optional<int> use_custom) {
    return {{"Automatic", std::nullopt, use_custom}, {"InternetCustom", 2, use_custom},
            {"DatacenterCustom", 4, use_custom},     {"Compat", 4, use_custom},
            {"Datacenter", 4, use_custom},           {"Internet", 4, use_custom}};
}

} // namespace

TEST_CASE("only InternetCustom changed to 2: 2, from InternetCustom", "[windows_tcp_settings]") {
    const auto rows = only_internet_custom_changed(1);
    const auto e = effective_max_syn_retransmissions(rows, false);
    REQUIRE(e.value);
    CHECK(*e.value == 2);
    CHECK(e.setting == "InternetCustom");
    CHECK(contains(e.why, "AutomaticUseCustom enabled"));
    CHECK(contains(e.why, "Internet sets 4"));
    const auto [value, source] = max_syn_retransmissions_report(rows, false);
    CHECK(value == "2"); // one number, so --quick can use it
    CHECK(contains(source, "InternetCustom"));
    // The old summary listed templates and gave --quick nothing to use.
    CHECK(summarize_max_syn_retransmissions(rows) != "2");
}

TEST_CASE("AutomaticUseCustom not reported: a set Custom template is the one",
          "[windows_tcp_settings]") {
    const auto rows = only_internet_custom_changed(std::nullopt);
    const auto e = effective_max_syn_retransmissions(rows, false);
    REQUIRE(e.value);
    CHECK(*e.value == 2);
    CHECK(e.setting == "InternetCustom");
    CHECK(contains(e.why, "not reported"));
}

TEST_CASE("AutomaticUseCustom disabled: the stock template, and the Custom one is named",
          "[windows_tcp_settings]") {
    const auto rows = only_internet_custom_changed(0);
    const auto e = effective_max_syn_retransmissions(rows, false);
    REQUIRE(e.value);
    CHECK(*e.value == 4);
    CHECK(e.setting == "Internet");
    CHECK(contains(e.why, "InternetCustom sets 2"));
}

TEST_CASE("Windows Server: loopback gets the Datacenter template", "[windows_tcp_settings]") {
    // A Server runner where the Datacenter templates retry twice.
    std::vector<TcpSettingRow> rows{{"Automatic", std::nullopt, 0}, {"InternetCustom", 4, 0},
                                    {"DatacenterCustom", 2, 0},     {"Compat", 2, 0},
                                    {"Datacenter", 2, 0},           {"Internet", 4, 0}};
    const auto e = effective_max_syn_retransmissions(rows, true);
    REQUIRE(e.value);
    CHECK(*e.value == 2);
    CHECK(e.setting == "Datacenter");
    CHECK(contains(e.why, "Windows Server"));
    rows[0].automatic_use_custom = 1;
    rows[2].max_syn_retransmissions = 3;
    CHECK(effective_max_syn_retransmissions(rows, true).setting == "DatacenterCustom");
    CHECK(effective_max_syn_retransmissions(rows, true).value == 3);
}

TEST_CASE("the picked template missing: agreement still answers, disagreement does not",
          "[windows_tcp_settings]") {
    std::vector<TcpSettingRow> agree{{"Compat", 4, std::nullopt}, {"Datacenter", 4, std::nullopt}};
    auto e = effective_max_syn_retransmissions(agree, false);
    REQUIRE(e.value);
    CHECK(*e.value == 4);
    CHECK(e.setting.empty());
    std::vector<TcpSettingRow> differ{{"Compat", 4, std::nullopt}, {"Datacenter", 2, std::nullopt}};
    CHECK_FALSE(effective_max_syn_retransmissions(differ, false).value);
    CHECK(max_syn_retransmissions_report(differ, false).first == "Compat=4, Datacenter=2");
    CHECK(max_syn_retransmissions_report(differ, false).second.empty());
}

TEST_CASE("Wine: no rows, unknown and no source", "[windows_tcp_settings]") {
    CHECK_FALSE(effective_max_syn_retransmissions({}, false).value);
    const auto [value, source] = max_syn_retransmissions_report({}, false);
    CHECK(value == "unknown");
    CHECK(source.empty());
}
