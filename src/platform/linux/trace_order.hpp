// --windows-order: the command sees Windows' answer for `localhost`, ::1
// first, in a private mount namespace of its own (trace_order.cpp).
#pragma once

#include <string>
#include <sys/types.h>

namespace loopcheck::platform::trace {

/// The files bind-mounted over /etc/hosts and /etc/gai.conf, and the text
/// the child needs to enter its namespaces, all made before fork.
struct OrderPlan {
    std::string dir;             ///< a private temporary directory; removed by cleanup
    std::string hosts;           ///< its hosts file
    std::string gai;             ///< its gai.conf, or "" when /etc/gai.conf is absent
    bool user_namespace = false; ///< unprivileged: a user namespace maps our uid
    std::string uid_map, gid_map;
};

/// Writes the files; false with `why` when it cannot.
bool prepare_order(OrderPlan& plan, std::string& why);
/// Enters the namespaces and mounts the files: in the child, before exec,
/// async-signal-safe. 0, or the errno; `step` names the call that failed.
int enter_order(const OrderPlan& plan, const char*& step) noexcept;
/// Tries enter_order in a throwaway child, so that a refusal (a kernel
/// without user namespaces, Ubuntu's AppArmor rule) is known before the
/// command starts and the command never runs half-moved. "" or the reason.
std::string probe_order(const OrderPlan& plan);
/// Removes the files.
void cleanup_order(const OrderPlan& plan) noexcept;

} // namespace loopcheck::platform::trace
