// `loopcheck listen SPEC...`: its options, and the lines it prints while
// the listeners run (src/run/listen.cpp).
//
// stdout gets one "listening on ADDRESS" line per socket, at once, so a
// script can read the port that port 0 picked; stderr gets one line per
// accepted connection (not with -q).
#include "cli/command.hpp"
#include "cli/options.hpp"
#include "loopcheck/core/diagnose/exit_codes.hpp"
#include "loopcheck/report/json.hpp"
#include "loopcheck/report/markdown.hpp"
#include "loopcheck/report/text.hpp"
#include "loopcheck/run/listen.hpp"
#include "loopcheck/run/stop.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <functional>
#include <memory>

namespace loopcheck {

namespace {

struct ListenArgs {
    std::vector<std::string> specs;
    std::string duration;
    bool allow_any = false;
    CommonArgs common;
};

/// The sockets on stdout in the chosen format, flushed at once so that a
/// script can read the port that port 0 picked; then, on stderr, how long
/// the listeners run.
void announce(const std::vector<ListeningSocket>& sockets, const ListenRequest& request,
              const Output& output) {
    const bool quiet = output.verbosity < 0;
    const std::string lines = output.format == Format::json ? render_json_listening(sockets)
                              : output.format == Format::markdown
                                  ? render_markdown_listening(sockets)
                                  : render_text_listening(sockets, text_style(output.color));
    std::fputs(lines.c_str(), stdout);
    // A script reads the ports from these lines: when they cannot be
    // written, nobody can use the listeners; stop, and exit 5 (main).
    if (!flush_stdout_checked())
        request_stop();
    if (!quiet)
        std::fputs(request.duration ? fmt::format("loopcheck: accepting for {}\n",
                                                  format_duration(*request.duration))
                                          .c_str()
                                    : "loopcheck: accepting until Ctrl-C\n",
                   stderr);
}

/// The request from what was typed, or the one-line usage error.
Result<ListenRequest> listen_request(const ListenArgs& args) {
    if (auto common = validate_common(args.common); !common)
        return common.error();
    ListenRequest request;
    if (!args.duration.empty()) {
        auto d = parse_duration(args.duration);
        if (!d)
            return usage_error(fmt::format("--for: {}", d.error().message));
        if (*d <= Micros{0})
            return usage_error("--for must be above 0");
        request.duration = *d;
    }
    for (const auto& text : args.specs) {
        auto spec = parse_listen_spec(text);
        if (!spec)
            return spec.error();
        request.specs.push_back(std::move(*spec));
    }
    request.allow_any = args.allow_any;
    return request;
}

int run(const ListenArgs& args) {
    auto request = listen_request(args);
    if (!request)
        return usage_failure(request.error().message);
    const Output output = validate_common(args.common)->output();
    const bool quiet = output.verbosity < 0;
    request->on_listening = [&](const std::vector<ListeningSocket>& sockets) {
        announce(sockets, *request, output);
    };
    // JSON readers get every event on stdout, one line each; text and
    // Markdown keep the accepted connections on stderr (not with -q).
    if (output.format == Format::json)
        request->on_accept = [](const Address& peer, const Address& on) {
            std::fputs(render_json_accepted(peer, on).c_str(), stdout);
            std::fflush(stdout);
        };
    else if (!quiet)
        request->on_accept = [](const Address& peer, const Address& on) {
            std::fputs(
                fmt::format("accepted {} on {}\n", endpoint_string(peer), endpoint_string(on))
                    .c_str(),
                stderr);
        };
    // Before the first "listening on" line, the interrupt handler: whoever
    // reads it may stop us.
    const CommandSetup setup(output.verbosity);
    if (auto code = setup.failed())
        return *code;
    const auto result = run_listen(*request);
    if (!result)
        return run_failure(result.error());
    if (output.format == Format::json)
        return write_stdout(render_json_stopped(result->accepted), exit_code::healthy);
    if (output.format == Format::markdown)
        return write_stdout(render_markdown_stopped(result->accepted), exit_code::healthy);
    if (!quiet)
        std::fputs(
            fmt::format("loopcheck: stopped after {} connection(s)\n", result->accepted).c_str(),
            stderr);
    return exit_code::healthy;
}

std::function<int()> declare(CLI::App& sub, std::vector<std::string> /*after_dashes*/) {
    auto args = std::make_shared<ListenArgs>();
    constexpr Command c = Command::listen;
    add_table_option(sub, c, "spec", args->specs);
    add_table_option(sub, c, "--for", args->duration);
    add_table_option(sub, c, "--allow-any", args->allow_any);
    add_common_options(sub, args->common, c);
    return [args] { return run(*args); };
}

} // namespace

const CommandEntry listen_command{
    "listen", "throwaway listeners to reproduce a set-up (Ctrl-C ends)",
    R"(Opens every SPEC, accepts and closes every connection, and runs until
Ctrl-C, SIGTERM or --for. Loopback addresses only unless --allow-any.

Output: stdout gets one "listening on ADDRESS" line per socket, at once (so a
script can read the port 0 picked); stderr gets one "accepted PEER on
ADDRESS" line per connection (not with -q). --json: one JSON object per line
on stdout for each event (listening, accepted, stopped; man loopcheck);
--markdown: a table of the listening sockets.

Exit codes:
  0  ended by --for, Ctrl-C or SIGTERM
  2  a bad SPEC or option, or a non-loopback address without --allow-any
  4  a name did not resolve
  5  a listener could not be opened (port in use, no IPv6)

Examples:
  loopcheck listen 127.0.0.1:8000           a server on IPv4 only (Ollama-like)
  loopcheck listen [::1]:3000               IPv6 only (Node on Windows, 'localhost')
  loopcheck listen localhost:0 --for 30s    every address of localhost, one free port
  loopcheck listen dual:8000 --allow-any    [::] with IPV6_V6ONLY off)",
    declare};

} // namespace loopcheck
