// The one value every reporter reads. Reporters format it and compute
// nothing: whatever a format shows, every format can show.
#pragma once

#include "loopcheck/core/clients/emulation.hpp"
#include "loopcheck/core/diagnose/diagnose.hpp"
#include "loopcheck/core/input/address.hpp"
#include "loopcheck/core/input/hosts.hpp"
#include "loopcheck/core/input/machine.hpp"
#include "loopcheck/core/input/target.hpp"
#include "loopcheck/core/listeners/listener.hpp"
#include "loopcheck/core/measure/sample.hpp"
#include "loopcheck/core/measure/stats.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace loopcheck {

/// Everything measured and concluded for one address of one target.
struct AddressReport {
    Address address;
    /// Probes with the system's defaults, one per round (what Python, .NET
    /// and curl < 8.22 experience).
    std::vector<Sample> samples;
    /// Paired probes with SYN retransmissions off (what Node/libuv sees);
    /// empty when not paired.
    std::vector<Sample> fast_samples;
    AddressSummary summary;
};

/// Where a name's order came from (name targets only).
struct Resolution {
    std::vector<HostsLine> hosts_lines; ///< entries for the name in SystemFacts::hosts_file
    bool hosts_file_readable = false;
    std::string note; ///< the OS's own ordering rule, in a sentence
};

struct TargetReport {
    Target target;
    std::optional<Error> resolve_error;
    std::optional<Resolution> resolution;
    std::vector<AddressReport> addresses;
    /// A name curl >= 7.78 answers itself (localhost): the loopback
    /// addresses of that answer the resolver did not give, probed in the
    /// same rounds so the curl rows can be costed. Not part of the
    /// resolver's order; nothing but the client table uses them.
    std::vector<AddressReport> curl_localhost;
    Diagnosis diagnosis;
    /// --emulate: each strategy run for real, beside the model's prediction.
    std::vector<EmulationResult> emulations;
    /// What listens on the target's port on this machine, when the target
    /// is local (a loopback or wildcard address) and the listener table
    /// could be read; nullopt otherwise.
    std::optional<std::vector<Listener>> listeners;
};

/// What the listener table could show (platform::list_listeners).
struct ListenerTableStatus {
    bool queried = false;             ///< false when no target was on this machine
    std::optional<std::string> error; ///< why the table is unavailable
    std::string limits; ///< what it could not see of the listeners shown (listener_limits)
};

/// What the self-check (loopcheck with no target) set up and concluded.
struct SelfCheck {
    std::uint16_t listener_port = 0;     ///< 127.0.0.1-only listener it opened
    std::uint16_t closed_port_v4 = 0;    ///< reserved, not listening
    std::uint16_t closed_port_v6 = 0;    ///< 0 when IPv6 loopback is unavailable
    std::vector<std::string> statements; ///< plain-language conclusions
};

struct Report {
    std::string loopcheck_version;
    std::string command_line;
    SystemFacts system;
    Micros threshold{0};
    Micros timeout{0};
    int count = 1;
    std::vector<TargetReport> targets;
    std::optional<SelfCheck> self_check;
    ListenerTableStatus listener_table;
    bool incomplete = false; ///< interrupted before every probe finished
    /// The kernel's ListenOverflows counter before and after the probes
    /// (Linux); nullopt where it could not be read.
    std::optional<ListenOverflows> listen_overflows;
    /// --quick: how the default-stack times were inferred; empty without it.
    std::string quick_note;
    int exit_code = 0;
};

} // namespace loopcheck
