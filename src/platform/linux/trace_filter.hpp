// The seccomp filter that makes the tracer cheap: the kernel stops the
// program only at the few syscalls the tracer needs, and every other
// syscall runs at full speed (trace_filter.cpp).
#pragma once

#include <linux/filter.h>
#include <string>
#include <vector>

namespace loopcheck::platform::trace {

/// The filter's instructions for this build's architecture (x86-64 or
/// aarch64); empty where loopcheck knows no syscall table.
std::vector<sock_filter> connect_filter();

/// Installs `filter` in the calling process, for it and every process it
/// starts. Called in the child between fork and exec, so it uses only
/// async-signal-safe syscalls. Sets no_new_privs only when the kernel asks
/// for it (an unprivileged caller), so that a root run keeps set-uid
/// programs working. 0, or the errno.
int install_filter(const std::vector<sock_filter>& filter) noexcept;

} // namespace loopcheck::platform::trace
