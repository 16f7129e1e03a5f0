// `loopcheck scan`'s endpoints: the (host, port) pairs its hits name, who
// serves each one (a listener seen, a bind in the tree, or the port's usual
// server) and which families that server takes. Declared in scan_cost.hpp.
#include "loopcheck/core/scan/cost.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace loopcheck {

namespace {

/// The families a bind in the tree takes, by its host and server.
void bind_families(const ScanHit& bind, ScanEndpoint& ep) {
    const std::string& h = bind.ref.host;
    if (h == "::1") {
        ep.v6 = true;
    } else if (h == "::") {
        ep.v4 = ep.v6 = true; // Node's and Go's default: every address, both families
    } else if (h == "localhost" && bind.server == "uvicorn" &&
               !one_socket(bind.server, bind.text.escaped())) {
        ep.v4 = ep.v6 = true; // one process binds every address localhost has
    } else if (h == "localhost" && bind.server == "node") {
        ep.v6 = true; // the first address only: ::1 on Windows
    } else {
        ep.v4 = true;
    }
}

/// The server's both-families setting, as the alternative a hit's fix adds
/// after the address ("Or start ...") and as a sentence of its own ("Start
/// ...", when that setting already names the address).
void set_server_fix(ScanEndpoint& ep, std::string_view server, bool one) {
    ep.server_fix = server_fix(server, ep.port, one);
    ep.server_fix_alone = server_fix(server, ep.port, one, FixForm::alone);
}

} // namespace

std::vector<ScanEndpoint> scan_endpoints(std::span<const ScanHit> hits) {
    std::vector<ScanEndpoint> out;
    for (const ScanHit& h : hits) {
        if ((h.kind != HitKind::client && h.kind != HitKind::config) || h.ref.port == 0 ||
            h.ref.host == "0.0.0.0" || h.ref.host == "host.docker.internal")
            continue;
        const bool seen = std::any_of(out.begin(), out.end(), [&](const ScanEndpoint& e) {
            return e.host == h.ref.host && e.port == h.ref.port;
        });
        if (!seen) {
            ScanEndpoint ep;
            ep.host = h.ref.host;
            ep.port = h.ref.port;
            out.push_back(std::move(ep));
        }
    }
    return out;
}

void join_listeners(ScanEndpoint& ep, std::span<const Listener> listeners) {
    std::vector<std::string> owners;
    for (const Listener& l : listeners) {
        if (l.bound.port != ep.port || !(is_loopback(l.bound) || is_unspecified(l.bound)))
            continue;
        if (l.bound.family == Family::ipv4)
            ep.v4 = true;
        else {
            ep.v6 = true;
            if (is_unspecified(l.bound) && l.v6only == false)
                ep.v4 = true;
        }
        std::string who = l.process.empty() ? std::string("a process") : l.process.escaped();
        if (l.pid)
            who += fmt::format(" (pid {})", *l.pid);
        who += " on " + endpoint_string(l.bound);
        if (std::find(owners.begin(), owners.end(), who) == owners.end())
            owners.push_back(std::move(who));
    }
    for (std::size_t i = 0; i < owners.size(); ++i)
        ep.server += (i ? ", " : "") + owners[i];
    // The server the listener table recognised (its name and command
    // line), else a guess from the process name.
    for (const Listener& l : listeners)
        if (l.bound.port == ep.port && l.server && has_own_fix(*l.server)) {
            set_server_fix(ep, l.server->id, l.server->one_socket);
            return;
        }
    for (std::string_view name : {"ollama", "llama-server", "uvicorn", "gunicorn", "node", "lm"})
        if (ep.server.find(name) != std::string::npos) {
            set_server_fix(ep, name == "lm" ? "lmstudio" : name, false);
            return;
        }
    set_server_fix(ep, "", false);
}

void infer_servers(std::span<ScanEndpoint> endpoints, std::span<const ScanHit> hits) {
    for (ScanEndpoint& ep : endpoints) {
        auto bind = std::find_if(hits.begin(), hits.end(), [&](const ScanHit& h) {
            return h.kind == HitKind::server && h.ref.port == ep.port;
        });
        if (ep.v4 || ep.v6) {
            // A listener seen whose server the table did not recognise
            // (python3, node): a bind of that port in the tree names it.
            if (bind != hits.end() && ep.server_fix == server_fix("", ep.port))
                set_server_fix(ep, bind->server, one_socket(bind->server, bind->text.escaped()));
            continue;
        }
        if (bind != hits.end()) {
            bind_families(*bind, ep);
            ep.inferred = true;
            ep.server = fmt::format("{} bound to {} at {}:{} (not listening now)", bind->server,
                                    bind->ref.host, bind->path.escaped(), bind->line);
            set_server_fix(ep, bind->server, one_socket(bind->server, bind->text.escaped()));
        } else if (const UsualServer* u = usual_server(ep.port)) {
            ep.v4 = u->v4;
            ep.v6 = u->v6;
            ep.inferred = true;
            ep.server = fmt::format("{}, the usual server of port {}, binds {} (nothing listens "
                                    "now)",
                                    u->name, ep.port, u->bind);
            set_server_fix(ep, u->server, false);
        }
    }
}

} // namespace loopcheck
