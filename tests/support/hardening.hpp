// Running the real binary in hostile surroundings (closed descriptors,
// limits, signal dispositions), and sockets that count what they receive.
// POSIX only: tests/e2e/hardening_test.cpp is its one user.
#pragma once

#include "support/process.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace loopcheck::test {

/// Runs loopcheck with `args` through posix_spawn with descriptor `closed`
/// (0, 1 or 2; -1 for none) closed; stdout and stderr, unless closed, go
/// to temporary files that are returned.
RunResult spawn_loopcheck(const std::vector<std::string>& args, int closed);

/// Runs loopcheck in a forked child: stdout on `out_fd` (a temporary file
/// when -1), stderr in a temporary file, then `prepare` in the child (set a
/// limit, ignore a signal, drop privileges), then exec. `prepare` must only
/// make async-signal-safe calls.
RunResult fork_loopcheck(const std::vector<std::string>& args, const std::function<void()>& prepare,
                         int out_fd = -1);

/// A TCP listener on 127.0.0.1 that never reads until asked: then it
/// accepts what is queued and counts the bytes those clients sent.
class TestListener {
public:
    TestListener();
    ~TestListener();
    TestListener(const TestListener&) = delete;
    TestListener& operator=(const TestListener&) = delete;

    [[nodiscard]] std::string target() const;
    /// Accepts every queued connection and reads it to its end; the count
    /// of connections so far.
    std::size_t accepted();
    /// Bytes received on every connection accepted so far.
    [[nodiscard]] std::size_t bytes_received() const noexcept { return bytes_; }

private:
    int fd_ = -1;
    std::uint16_t port_ = 0;
    std::size_t accepted_ = 0;
    std::size_t bytes_ = 0;
};

/// A port on 127.0.0.1 held bound without listening: a connect is refused.
class ClosedPort {
public:
    ClosedPort();
    ~ClosedPort();
    ClosedPort(const ClosedPort&) = delete;
    ClosedPort& operator=(const ClosedPort&) = delete;
    [[nodiscard]] std::string target() const;

private:
    int fd_ = -1;
    std::uint16_t port_ = 0;
};

} // namespace loopcheck::test
