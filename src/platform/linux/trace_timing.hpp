// --windows-timing: a refused loopback connect of the traced program takes
// about as long as on Windows (~2 s), on real packets, so that the
// program's own connect algorithm shows its cost (trace_timing.cpp).
#pragma once

#include "loopcheck/core/trace/trace.hpp"

#include <cstddef>
#include <memory>

namespace loopcheck::platform::trace {

struct Timing;
using TimingPtr = std::unique_ptr<Timing, void (*)(Timing*)>;

/// Starts the mechanism (never refused: it needs no privilege).
TimingPtr start_timing();
/// At a connect()'s seccomp stop, before its SYN: when nothing listens on
/// the destination, a tarpit takes the port for this connect (see the .cpp).
/// `dup` is the tracer's duplicate of the program's socket. False when
/// the address was taken (something is bound there) and the connect runs
/// at Linux's own speed.
bool timing_before_connect(Timing& t, int dup, std::size_t index, const TraceConnect& c);
/// The connect `index` ended: what it held goes.
void timing_after_connect(Timing& t, std::size_t index);
/// Does what is due now (tarpits to remove; the SYNs each held connect
/// resent so far go into `run`, as a blocking connect's failure resets the
/// count before its exit) and returns the milliseconds until the next, or
/// -1 when nothing is pending.
int timing_tick(Timing& t, TraceRun& run);

} // namespace loopcheck::platform::trace
