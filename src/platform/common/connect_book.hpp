// The bookkeeping every platform's ConnectSet shares: which connects are
// in flight, which finished inside connect() itself, when each started,
// and how one ends. Only the socket calls differ between the OS files, so
// they pass their handle type, its invalid value and their close function.
// Private to src/platform_*.cpp.
#pragma once

#include "loopcheck/platform/platform.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace loopcheck::platform::detail {

/// `Close(handle, sample)` reads the kernel's evidence into the sample,
/// closes the socket and sets the handle to `Invalid`.
template <class Handle, Handle Invalid, void (*Close)(Handle&, Sample&)>
struct ConnectBook {
    using Id = ConnectSet::Id;
    using Completion = ConnectSet::Completion;

    struct Entry {
        Handle handle = Invalid;
        Micros start{0};
        Sample sample; ///< option state from start(); the rest when it ends
    };
    std::vector<Entry> entries;       ///< indexed by Id
    std::vector<Id> finished_at_once; ///< reported by the next wait()
    std::vector<Id> open;             ///< ids with a connect in progress

    /// Ends connect `id` with `s`, keeping the option state start() noted.
    Completion complete(Id id, Sample s) {
        Entry& e = entries[id];
        s.option = e.sample.option;
        s.option_error = e.sample.option_error;
        s.option_error_name = e.sample.option_error_name;
        Close(e.handle, s);
        return {id, std::move(s)};
    }

    /// Notes a connect that ended inside start(): its result waits in
    /// entries[id].sample for the next wait().
    void finished_now(Id id, Sample s) {
        entries[id].sample = complete(id, std::move(s)).sample;
        finished_at_once.push_back(id);
    }

    /// The connects that ended inside start(), once; empty when none.
    std::vector<Completion> take_finished() {
        std::vector<Completion> done;
        for (Id id : finished_at_once)
            done.push_back({id, std::move(entries[id].sample)});
        finished_at_once.clear();
        return done;
    }

    /// Ends a pending connect as a timeout at `now`.
    Sample abandon(Id id, Micros now) {
        Sample s;
        s.outcome = Outcome::timeout;
        s.latency = now - entries[id].start;
        std::erase(open, id);
        return complete(id, std::move(s)).sample;
    }

    /// Ends every pending connect with `failure`, each with its own latency
    /// up to `now`: the wait itself failed (select() or poll() returned an
    /// error), so nothing says how the connects went. Without this the probe
    /// loop would call wait() again at once and spin until each connect's
    /// timeout.
    std::vector<Completion> fail_open(const Sample& failure, Micros now) {
        std::vector<Completion> done;
        for (Id id : open) {
            Sample s = failure;
            s.latency = now - entries[id].start;
            done.push_back(complete(id, std::move(s)));
        }
        open.clear();
        return done;
    }

    [[nodiscard]] std::size_t pending() const noexcept {
        return open.size() + finished_at_once.size();
    }
};

} // namespace loopcheck::platform::detail
