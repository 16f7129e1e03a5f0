// Median, min, max over repeated connects.
#include "loopcheck/core/measure/stats.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace loopcheck {

Summary summarize(std::span<const Micros> values) {
    Summary s;
    if (values.empty())
        return s;
    std::vector<Micros> v(values.begin(), values.end());
    std::sort(v.begin(), v.end());
    s.count = static_cast<int>(v.size());
    s.min = v.front();
    s.max = v.back();
    const auto n = v.size();
    s.median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    long double sum = 0;
    for (auto d : v)
        sum += static_cast<long double>(d.count());
    const long double mean = sum / static_cast<long double>(n);
    long double sq = 0;
    for (auto d : v) {
        const long double diff = static_cast<long double>(d.count()) - mean;
        sq += diff * diff;
    }
    s.mean = Micros{std::llround(static_cast<double>(mean))};
    s.stddev =
        Micros{std::llround(std::sqrt(static_cast<double>(sq / static_cast<long double>(n))))};
    return s;
}

} // namespace loopcheck
