// The preload mode: where ptrace is refused, the name shim records the
// program's loopback TCP connects itself in a file (trace_name_shim.cpp);
// trace_preload.cpp makes the file and reads it back.
#pragma once

#include "loopcheck/core/trace/trace.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace loopcheck::platform::trace {

/// A private file the shim appends to; removed when this goes.
class PreloadLog {
public:
    PreloadLog(); ///< path() is empty when it could not be made
    ~PreloadLog();
    PreloadLog(const PreloadLog&) = delete;
    PreloadLog& operator=(const PreloadLog&) = delete;
    [[nodiscard]] const std::string& path() const noexcept { return path_; }

private:
    std::string dir_, path_;
};

/// The connects the shim logged, in the order they started; times are
/// relative to `t0` (the shim's CLOCK_MONOTONIC is steady_clock's).
std::vector<TraceConnect> read_preload_log(const std::string& path,
                                           std::chrono::steady_clock::time_point t0);

} // namespace loopcheck::platform::trace
