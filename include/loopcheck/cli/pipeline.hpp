// The steps of a check, shared by `loopcheck TARGET...` (cmd_check.cpp) and
// `loopcheck audit` (cli/cmd_audit.cpp): resolve, read the listener table,
// probe every address concurrently, summarise and diagnose.
#pragma once

#include "loopcheck/cli/options.hpp"
#include "loopcheck/core/report.hpp"
#include "loopcheck/report/render.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace loopcheck {

/// Resolves every target's name (each distinct name once) and fills its
/// addresses in resolver order; a literal is its own address.
void resolve_targets(Report& report, const Options& opt);

/// True when a target's addresses are on this machine (loopback or
/// wildcard), so the listener table says something about it.
bool is_local(const TargetReport& target);

/// Reads the listener table for the local targets' ports (once) and gives
/// each local target its listeners. A table that cannot be read never
/// stops the check: report.listener_table says why it is missing.
void attach_listeners(Report& report);

/// The same with a table already read (loopcheck audit reads it first).
void attach_listeners(Report& report, const Result<ListenerTable>& table);

/// Runs opt.count rounds; each round probes every address of every target
/// at once (with its no-SYN-retry twin where paired).
void run_rounds(Report& report, const Options& opt);

/// --quick: fills each address that only has no-retry probes with the
/// default-stack samples inferred from them, and says so in the report.
void infer_default_samples(Report& report);

/// Summarises and diagnoses every target; targets from index
/// `expect_refused_from` on are expected to refuse (the self-check's
/// closed ports).
void conclude(Report& report, const Options& opt, std::size_t expect_refused_from = SIZE_MAX);

/// --emulate: after the probes, one strategy at a time so that no two
/// measurements share the wire; each beside the prediction conclude() made.
void run_emulations(Report& report, const Options& opt);

/// The targets' exit codes combined (exit_code::combine); 130 when the
/// probes were interrupted.
int combined_exit_code(const Report& report);

/// Colour and width for the text report, from --color, NO_COLOR and the
/// terminal.
TextStyle text_style(const Options& opt);

} // namespace loopcheck
