// `loopcheck listen` as a request and its result (src/run/listen.cpp).
#pragma once

#include "loopcheck/core/input/duration.hpp"
#include "loopcheck/core/input/listen_spec.hpp"
#include "loopcheck/core/result.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace loopcheck {

struct ListenRequest {
    std::vector<ListenSpec> specs;
    std::optional<Micros> duration; ///< --for; none: until Ctrl-C or SIGTERM
    bool allow_any = false;         ///< addresses other than loopback
    /// Called once every socket listens, before the first accept.
    std::function<void(const std::vector<ListeningSocket>&)> on_listening;
    /// Called for each accepted (and closed) connection, from the socket's
    /// own thread; may be empty.
    std::function<void(const Address& peer, const Address& on)> on_accept;
};

struct ListenResult {
    std::size_t accepted = 0;
};

/// Opens every spec's sockets, then accepts and closes every connection,
/// one thread per socket, until a stop is requested or --for runs out.
/// Errors: ErrorKind::usage for an address not allowed without
/// --allow-any, resolve for a name, system for a socket that cannot be
/// opened or an accept that fails.
Result<ListenResult> run_listen(const ListenRequest& request);

} // namespace loopcheck
