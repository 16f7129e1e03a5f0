// `loopcheck scan`'s small readers of context for the classifier
// (src/core/scan/context.cpp): what a bind or config line says, what a
// file's name says. Pure.
#pragma once

#include "loopcheck/core/scan/scan.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loopcheck {

/// The server a server-bind rule's needle names ("uvicorn", "flask", ...).
std::string_view server_named_by(std::string_view needle) noexcept;

/// A port written near a bind: port=8000, --port 8000, "port": 8000,
/// PORT=8000; 0 when there is none.
std::uint16_t port_near(std::string_view stmt) noexcept;

/// The key of a `key = value` / `key: value` / `"key": value` line left of
/// `ref_col`, when it is a plain name; empty otherwise.
std::string config_key_of(std::string_view text, std::size_t ref_col);

/// The environment variable a line sets for the value at `ref_col`:
/// `KEY=value`, `export KEY=value`, `set KEY=value`, `$env:KEY = "value"`,
/// `KEY=value command`; an env-like KEY only (upper case, digits, `_`,
/// starting with a letter, at least 2 long). Empty otherwise.
std::string env_assignment_key(std::string_view text, std::size_t ref_col);

/// A key a front-end build inlines for the browser (NEXT_PUBLIC_*, VITE_*,
/// REACT_APP_*, NUXT_PUBLIC_*, EXPO_PUBLIC_*).
bool is_browser_key(std::string_view key) noexcept;

/// A server's bind in code with no address written, so no loopback hit
/// shows it: the framework's default decides the address.
///   socketserver / http.server `TCPServer(("", port), ...)`: 0.0.0.0
///   `uvicorn.run(app)` without host=: 127.0.0.1, port 8000
///   Flask `app.run()` without host=: 127.0.0.1, port 5000
///   Node `app.listen(3000)` / `server.listen(PORT)` without a host: `::`
///   Go `http.ListenAndServe(":8080", ...)`: `::` (both families)
struct ImplicitBind {
    std::string_view server; ///< "socketserver", "uvicorn", "flask", "node", "go"
    std::string_view host;   ///< the address the default binds: "0.0.0.0", "127.0.0.1", "::"
    std::string port_text;   ///< digits, or the name holding the port
    std::size_t col = 0;     ///< where the call starts
};
std::optional<ImplicitBind> implicit_bind(std::string_view text, Lang lang);

/// True when `text`, in `lang`, may hold an implicit_bind (a file without
/// one skips the search line by line).
bool may_bind_server(std::string_view text, Lang lang) noexcept;

/// `NAME = 8000`, `port=8001` (a default parameter), `PORT =
/// int(os.getenv("PORT", "8000"))`, `const PORT = process.env.PORT ||
/// 3000`: the name and the port a line assigns; empty name when none.
std::pair<std::string, std::uint16_t> port_assignment(std::string_view text);

/// A Node dev-server's config file (vite.config.ts, setupProxy.js, ...).
bool is_dev_server_config(std::string_view path) noexcept;

/// A test: under test/, tests/, testdata/, __tests__/, spec/, testing/, or
/// named test_*, conftest.py, *_test.go, *.test.ts, *Test.java, ...
bool is_test_file(std::string_view path) noexcept;

/// True when `text` may read an environment variable (a needle of
/// env_keys_read), so a file without one skips the search line by line.
bool may_read_env(std::string_view text) noexcept;

/// The environment variables a line reads: os.getenv("KEY"),
/// os.environ["KEY"] / .get("KEY"), process.env.KEY / ["KEY"],
/// os.Getenv("KEY"), Environment.GetEnvironmentVariable("KEY"),
/// env::var("KEY"), ENV["KEY"] / ENV.fetch("KEY"). Keys are
/// [A-Za-z0-9_], at least 2 characters.
std::vector<std::string> env_keys_read(std::string_view line);

/// The library a client rule's needle names, for version pins
/// ("requests", "aiohttp", "axios"); empty when it names none.
std::string_view package_for(std::string_view rule, std::string_view needle) noexcept;

/// Lang of a Markdown fence's info string ("python", "bash", "js", ...);
/// shell for a bare fence and anything unknown.
Lang fence_language(std::string_view info) noexcept;

} // namespace loopcheck
