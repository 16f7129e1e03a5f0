// The pure half of --emulate: parsing a strategy, the order it tries
// addresses in, and the model's prediction for it.
#include "loopcheck/core/clients/emulation.hpp"

#include "loopcheck/core/input/duration.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace loopcheck {

namespace {

using namespace std::chrono_literals;

ClientModel model_of(const EmulationSpec& spec) {
    return {"",
            {},
            "",
            "",
            spec.kind,
            spec.delay,
            spec.no_syn_retries_on_loopback ? FastFail::loopback : FastFail::none,
            AddressSource::resolver,
            false};
}

} // namespace

Result<EmulationSpec> parse_emulation(std::string_view text) {
    const auto eq = text.find('=');
    const auto name = text.substr(0, eq);
    EmulationSpec spec;
    if (name == "sequential" || name == "node") {
        if (eq != std::string_view::npos)
            return usage_error(fmt::format("--emulate {}: takes no delay", name));
        spec.kind = ConnectAlgorithm::sequential;
        spec.no_syn_retries_on_loopback = name == "node";
        spec.label = std::string(name);
        return spec;
    }
    if (name == "happy-eyeballs") {
        spec.kind = ConnectAlgorithm::happy_eyeballs;
        spec.delay = 250ms;
    } else if (name == "go") {
        spec.kind = ConnectAlgorithm::go_dual_stack;
        spec.delay = 300ms;
        spec.no_syn_retries_on_loopback = true;
    } else {
        return usage_error(fmt::format("--emulate: unknown strategy '{}' (sequential, "
                                       "happy-eyeballs[=DELAY], go[=DELAY], node)",
                                       name));
    }
    if (eq != std::string_view::npos) {
        auto d = parse_duration(text.substr(eq + 1));
        if (!d)
            return usage_error(fmt::format("--emulate {}: {}", name, d.error().message));
        // RFC 8305 section 8: the delay MUST NOT be below 10 ms; above 10 s
        // it is no longer Happy Eyeballs but a typo.
        if (*d < 10ms || *d > 10s)
            return usage_error(
                fmt::format("--emulate {}: the delay must be from 10ms to 10s", name));
        spec.delay = *d;
    }
    spec.label = fmt::format("{}={}", name, format_duration(spec.delay));
    spec.label.erase(std::remove(spec.label.begin(), spec.label.end(), ' '), spec.label.end());
    return spec;
}

ConnectPrediction predict_emulation(const EmulationSpec& spec, std::span<const Observation> obs,
                                    Os os) {
    const auto model = model_of(spec);
    const auto attempts = attempts_for(model, obs, {"", os});
    return simulate(spec.kind, spec.delay, attempts);
}

std::vector<Address> emulation_order(const EmulationSpec& spec, std::span<const Address> resolved) {
    std::vector<Address> out;
    for (auto i : attempt_order(model_of(spec), resolved))
        out.push_back(resolved[i]);
    return out;
}

bool off_model(const ConnectPrediction& measured, const ConnectPrediction& model) {
    if (measured.connected != model.connected)
        return true;
    const Micros margin = std::max<Micros>(off_model_floor, model.time * off_model_percent / 100);
    return std::chrono::abs(measured.time - model.time) > margin;
}

std::string off_model_rule() {
    return fmt::format("further than max({}, {} %) from the model's time, or ending differently",
                       fmt::format("{} ms", off_model_floor.count() / 1000), off_model_percent);
}

void settle_rounds(EmulationResult& result) {
    result.rounds_off_model = 0;
    if (result.rounds.empty())
        return;
    std::vector<std::size_t> order(result.rounds.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return result.rounds[a].time < result.rounds[b].time;
    });
    result.measured = result.rounds[order[(order.size() - 1) / 2]];
    for (const auto& r : result.rounds)
        result.rounds_off_model += off_model(r, result.predicted) ? 1 : 0;
}

} // namespace loopcheck
