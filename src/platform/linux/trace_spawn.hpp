// Starting the command under the tracer (trace_spawn.cpp).
#pragma once

#include "platform/linux/trace_order.hpp"
#include "platform/linux/trace_signals.hpp"

#include <linux/filter.h>
#include <string>
#include <vector>

namespace loopcheck::platform::trace {

/// Everything the child needs, made before fork (the child calls only
/// async-signal-safe functions).
struct SpawnPlan {
    std::vector<std::string> command;
    std::vector<std::string> environment; ///< NAME=value, LD_PRELOAD included
    /// The same with LOOPCHECK_TRACE_LOG, for the preload mode: the child
    /// takes it when the tracer cannot trace it. Empty: no preload mode.
    std::vector<std::string> preload_environment;
    const std::vector<sock_filter>* filter = nullptr;
    const OrderPlan* order = nullptr;     ///< --windows-order, when it can run
    const SignalGuard* signals = nullptr; ///< loopcheck's own, restored for the command
};

/// What starting it gave.
struct Spawned {
    int pid = -1;
    bool seized = false;     ///< PTRACE_SEIZE held: every stop must be served
    bool traced = false;     ///< and the filter is in place
    std::string not_traced;  ///< why not, when not
    std::string exec_error;  ///< the command could not be run: why
    std::string order_error; ///< --windows-order failed in the child: why
};

/// Forks, seizes the child with ptrace, checks that pidfd_getfd() works on
/// it, lets it install the filter (only when all that held) and exec. A
/// fork or pipe failure is an error; a refused ptrace is `not_traced`.
Spawned spawn_traced(const SpawnPlan& plan, std::string& error);

} // namespace loopcheck::platform::trace
