// `loopcheck scan`'s small readers of context for the classifier
// (src/core/scan_context.cpp): what a bind or config line says, what a
// file's name says. Pure.
#pragma once

#include "loopcheck/core/scan.hpp"

#include <cstdint>
#include <string>
#include <string_view>
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
