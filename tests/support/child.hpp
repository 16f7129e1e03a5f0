// A background child process whose stdout a test reads line by line, for
// `loopcheck listen` running while the test looks at it. POSIX only; on
// Windows start() returns null and the tests that need it skip.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace loopcheck::test {

class Child {
public:
    /// Runs `argv` (argv[0] looked up in PATH) with stdout on a pipe and
    /// stderr in a temporary file; null when it cannot be started.
    static std::unique_ptr<Child> start(const std::vector<std::string>& argv);
    /// Kills the child (SIGKILL) if it still runs, and reaps it.
    ~Child();
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    [[nodiscard]] int pid() const noexcept { return pid_; }
    /// The next line of stdout, waiting at most `wait`; nullopt at the end
    /// of the output or when the wait ran out.
    std::optional<std::string> read_line(std::chrono::milliseconds wait);
    /// Sends a signal (SIGTERM, SIGINT).
    void signal(int sig) const;
    /// Waits at most `wait` for the child to end: its exit code (128 + the
    /// signal when killed), or nullopt when it still runs.
    std::optional<int> wait(std::chrono::milliseconds wait);
    /// Everything the child wrote on stderr so far.
    [[nodiscard]] std::string stderr_text() const;

private:
    Child() = default;
    int pid_ = -1;
    int out_ = -1;
    std::string err_path_;
    std::string buffer_;
    std::optional<int> status_;
};

/// This test process's pid.
int current_pid();

} // namespace loopcheck::test
