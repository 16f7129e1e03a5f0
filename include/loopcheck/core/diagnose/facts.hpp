// The facts a diagnosis carries, as data: one struct per finding id, per
// kind of fix and one for the verdict. Core decides them (diagnose(),
// decide_verdict(), audit's flags); src/report/phrasing.cpp is the one
// place that words them, for every format. A test of core asserts these
// fields; the golden reports guard the words.
#pragma once

#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/listeners/servers.hpp"
#include "loopcheck/core/measure/netstat.hpp"
#include "loopcheck/core/measure/sample.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace loopcheck::facts {

/// One address and what the connects to it did.
struct Tried {
    Address address;
    Outcome outcome = Outcome::error;
    Micros time{0}; ///< the median: what a client that tries it waits
    friend bool operator==(const Tried&, const Tried&) = default;
};

/// Why a slow refusal or a late accept is put down to SYN retransmissions.
struct SynEvidence {
    enum class Kind : std::uint8_t {
        none,          ///< no evidence was found
        no_retry_twin, ///< the probe without SYN retries was refused fast
        kernel_count,  ///< the kernel counted retransmissions (TCP_INFO)
        retry_steps,   ///< the time is whole steps of the OS's retry interval
    };
    Kind kind = Kind::none;
    Micros no_retry_time{0}; ///< no_retry_twin: the twin's refusal
    int retransmissions = 0; ///< kernel_count
    Micros latency{0};       ///< retry_steps: the time that fits
    int steps = 0;           ///< retry_steps: how many
    Micros step{0};          ///< retry_steps: the OS's interval
    Os os = Os::other;       ///< retry_steps
    friend bool operator==(const SynEvidence&, const SynEvidence&) = default;
};

// ---- Findings, one struct per id (finding_id::*, audit_flag::*) ----

/// healthy: the address that accepted, how fast, and who listens there.
struct Healthy {
    Address winner;
    Micros time{0};
    std::optional<Listener> server; ///< when the listener table names it
    friend bool operator==(const Healthy&, const Healthy&) = default;
};
/// slow-refusal
struct SlowRefusal {
    Address address;
    Micros time{0};
    SynEvidence evidence;
    friend bool operator==(const SlowRefusal&, const SlowRefusal&) = default;
};
/// fallback-penalty: the addresses before the first that accepted.
struct FallbackPenalty {
    std::string host;
    Address first; ///< the address the name resolves to first
    std::vector<Tried> failed;
    Address winner;
    Micros penalty{0}; ///< the sum of `failed`'s times
    /// Cheap here only because this system refuses at once; Windows would
    /// pay about 2 s per connection.
    bool costly_on_windows = false;
    friend bool operator==(const FallbackPenalty&, const FallbackPenalty&) = default;
};
/// single-stack-listener
struct SingleStack {
    std::string host;
    Family served = Family::ipv4; ///< the family that accepted
    Address first;                ///< the name's first address
    std::vector<Address> others;  ///< its addresses of the other family
    /// Who listens on the port, when the table is known (the words then
    /// name the process and its address).
    std::vector<Listener> listeners;
    friend bool operator==(const SingleStack&, const SingleStack&) = default;
};
/// server-down
struct ServerDown {
    std::string input;
    std::vector<Tried> tried;
    Micros total{0};
    bool expected = false; ///< --expect refused, and every address refused
    /// The listener table says nothing listens on the port.
    bool nothing_listens = false;
    std::uint16_t port = 0;
    friend bool operator==(const ServerDown&, const ServerDown&) = default;
};
/// ipv6-off
struct Ipv6Off {
    Address address;
    std::string native_name; ///< "EADDRNOTAVAIL"; empty when unknown
    friend bool operator==(const Ipv6Off&, const Ipv6Off&) = default;
};
/// not-refused
struct NotRefused {
    std::string input;
    Address address;
    Micros time{0};
    friend bool operator==(const NotRefused&, const NotRefused&) = default;
};
/// clients-fail: the rows that never try the address that accepts.
struct ClientsFail {
    /// The address that accepts; nullopt when only curl's own answer for
    /// localhost reaches the server.
    std::optional<Address> accepts;
    std::vector<std::string> clients;
    friend bool operator==(const ClientsFail&, const ClientsFail&) = default;
};
/// One client row and what it waits.
struct ClientWait {
    std::string client;
    Micros time{0};
    friend bool operator==(const ClientWait&, const ClientWait&) = default;
};
/// clients-slow
struct ClientsSlow {
    Micros threshold{0};
    std::vector<ClientWait> clients;
    friend bool operator==(const ClientsSlow&, const ClientsSlow&) = default;
};
/// listener-elsewhere
struct ListenerElsewhere {
    std::vector<Listener> listeners;
    std::string input;
    bool literal = false;
    std::vector<Address> tried;
    /// An IPv4 address was tried and a [::] socket has IPV6_V6ONLY on.
    bool v6only_wildcard = false;
    friend bool operator==(const ListenerElsewhere&, const ListenerElsewhere&) = default;
};
/// no-answer
struct NoAnswer {
    Address address;
    Micros timeout{0};
    std::optional<Listener> listener; ///< bound there: a full queue or a firewall
    bool nothing_listens = false;     ///< the table says nothing listens on the port
    friend bool operator==(const NoAnswer&, const NoAnswer&) = default;
};
/// short-timeout
struct ShortTimeout {
    Micros timeout{0};
    friend bool operator==(const ShortTimeout&, const ShortTimeout&) = default;
};
/// slow-accept
struct SlowAccept {
    Address address;
    Micros time{0};
    Micros threshold{0};
    friend bool operator==(const SlowAccept&, const SlowAccept&) = default;
};
/// accept-queue-full
struct AcceptQueueFull {
    Address address;
    Micros worst{0};
    SynEvidence evidence;
    std::optional<ListenOverflows> counter; ///< Linux: before and after the probes
    friend bool operator==(const AcceptQueueFull&, const AcceptQueueFull&) = default;
};
/// unresolved: the resolver's own message.
struct Unresolved {
    std::string error;
    friend bool operator==(const Unresolved&, const Unresolved&) = default;
};
/// audit's own-address flag.
struct OwnAddress {
    std::vector<Listener> listeners;
    friend bool operator==(const OwnAddress&, const OwnAddress&) = default;
};
/// audit's localhost-unreached flag.
struct LocalhostUnreached {
    std::uint16_t port = 0;
    std::vector<Address> resolved; ///< what localhost resolves to here
    std::vector<Listener> listeners;
    friend bool operator==(const LocalhostUnreached&, const LocalhostUnreached&) = default;
};
/// audit's single-stack flag.
struct PortSingleStack {
    Family only = Family::ipv4;
    /// IPv4 only: what the check's python row pays on Windows, when it
    /// connects (to a tenth of a second in the words).
    std::optional<Micros> windows_cost;
    /// IPv6 only: localhost resolves to one IPv4 address here.
    bool localhost_ipv4_only_here = false;
    friend bool operator==(const PortSingleStack&, const PortSingleStack&) = default;
};

using FindingFacts = std::variant<Healthy, SlowRefusal, FallbackPenalty, SingleStack, ServerDown,
                                  Ipv6Off, NotRefused, ClientsFail, ClientsSlow, ListenerElsewhere,
                                  NoAnswer, ShortTimeout, SlowAccept, AcceptQueueFull, Unresolved,
                                  OwnAddress, LocalhostUnreached, PortSingleStack>;

// ---- Fixes, one struct per kind ----

/// A client's own setting.
struct ClientSetting {
    enum class Which : std::uint8_t {
        node_ipv4_first,  ///< --dns-result-order=ipv4first
        dotnet_no_ipv6,   ///< DOTNET_SYSTEM_NET_DISABLEIPV6=1
        curl_ipv4,        ///< -4
        java_prefer_ipv6, ///< -Djava.net.preferIPv6Addresses=true
        curl_ipv6,        ///< -6
    };
    Which which = Which::curl_ipv4;
    friend bool operator==(const ClientSetting&, const ClientSetting&) = default;
};
/// A server on ::1 alone: the clients that never try it, sent there.
struct ConnectFailingClients {
    Address accepts;
    std::vector<std::string> clients;
    std::optional<Listener> server;
    friend bool operator==(const ConnectFailingClients&, const ConnectFailingClients&) = default;
};
/// The recognised server's own both-families setting (docs/servers.md).
struct ServerOwn {
    ServerMatch server;
    std::uint16_t port = 0;
    friend bool operator==(const ServerOwn&, const ServerOwn&) = default;
};
/// Make the server listen on both families (no setting of its own known).
struct BothFamilies {
    std::optional<Listener> server;
    friend bool operator==(const BothFamilies&, const BothFamilies&) = default;
};
/// Connect to the address that accepts instead of the input.
struct ConnectInstead {
    std::string rewritten;
    std::string input;
    std::optional<Listener> server; ///< who listens there, when known
    friend bool operator==(const ConnectInstead&, const ConnectInstead&) = default;
};
/// Off Windows: the address that accepts, for Windows users.
struct WindowsConnect {
    std::string rewritten;
    std::string input;
    /// The server is on IPv4 and Windows answers `localhost` itself, ::1
    /// first; otherwise the cost is Windows' wait for each refused address.
    bool localhost_ipv6_first = false;
    bool pays_here = false; ///< some client rows fail or wait here too
    std::optional<Listener> server;
    friend bool operator==(const WindowsConnect&, const WindowsConnect&) = default;
};
/// The server listens on IPv6 only: 127.0.0.1 is no way out.
struct KeepIpv6 {
    friend bool operator==(const KeepIpv6&, const KeepIpv6&) = default;
};
/// A client that does not wait for the failed address.
struct NoWaitClient {
    bool windows = false; ///< on Windows: also the clients without SYN retries on loopback
    friend bool operator==(const NoWaitClient&, const NoWaitClient&) = default;
};
/// Make the listener elsewhere listen on the addresses tried too.
struct ListenOnTried {
    Listener server;
    std::vector<Address> tried;
    friend bool operator==(const ListenOnTried&, const ListenOnTried&) = default;
};
/// Nothing listens: start the server, or check its port.
struct StartServer {
    std::uint16_t port = 0;
    friend bool operator==(const StartServer&, const StartServer&) = default;
};
/// A closed port used as "a server that is down" pays the slow refusal.
struct ClosedPortTest {
    bool windows = false;
    friend bool operator==(const ClosedPortTest&, const ClosedPortTest&) = default;
};
/// An unresolved name: check it (and what it was meant to be).
struct CheckName {
    std::string host;
    std::optional<std::string> meant; ///< the local name a typo was meant to be
    friend bool operator==(const CheckName&, const CheckName&) = default;
};
/// The resolver's own advice (Error::fix).
struct ResolverAdvice {
    std::string text;
    friend bool operator==(const ResolverAdvice&, const ResolverAdvice&) = default;
};

using Fix = std::variant<ClientSetting, ConnectFailingClients, ServerOwn, BothFamilies,
                         ConnectInstead, WindowsConnect, KeepIpv6, NoWaitClient, ListenOnTried,
                         StartServer, ClosedPortTest, CheckName, ResolverAdvice>;

// ---- The verdict ----

/// Which sentence the verdict line is (docs/diagnosis.md, "The verdict").
enum class VerdictForm : std::uint8_t {
    incomplete,             ///< INCOMPLETE: not measured
    unresolved,             ///< UNRESOLVED: the resolver's message
    unexpected,             ///< --expect refused met an accept
    partial_no_winner,      ///< only curl's own localhost answer accepts
    partial_fails,          ///< connects, but some clients never try the address
    slow_nothing_accepts,   ///< nothing accepts, and a refusal is slow
    slow_fallback,          ///< clients that try addresses in turn wait
    slow_refusal,           ///< connects, but an address is refused slowly
    slow_accept_queue,      ///< connects, but the accept queue overflowed
    slow_connect,           ///< connects, but a connect took past the threshold
    ok,                     ///< connects fast
    ok_refused_as_expected, ///< --expect refused, and everything refused
    down,                   ///< nothing accepts
};

/// What the verdict line names: facts of the measurement the findings do
/// not repeat.
struct VerdictFacts {
    std::string input;                   ///< the target as typed
    std::size_t addresses = 0;           ///< how many were tried
    std::optional<Address> winner;       ///< the first address that accepted
    Micros winner_time{0};               ///< what a client waits in resolver order to reach it
    std::optional<Address> slow_refused; ///< the first refusal slower than the threshold
    Micros slow_refused_time{0};
    Micros threshold{100'000};
    Micros timeout{5'000'000};
    bool any_refused = false; ///< some address was refused (not timed out)
    bool any_timeout = false;
    friend bool operator==(const VerdictFacts&, const VerdictFacts&) = default;
};

/// The verdict: its form, word and exit code, and the facts it names.
struct Verdict {
    VerdictForm form = VerdictForm::incomplete;
    std::string_view word; ///< verdict_word::*: "OK", "SLOW", ...
    int exit_code = 0;
    VerdictFacts facts;
    /// A SLOW form worded as PARTIAL: some clients also fail outright.
    bool some_fail = false;
    /// partial_no_winner: a finding says a client waits past the threshold
    /// (the line names that cost first).
    bool slow = false;
    std::string error; ///< unresolved: the resolver's message
    friend bool operator==(const Verdict&, const Verdict&) = default;
};

} // namespace loopcheck::facts
