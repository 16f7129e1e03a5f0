// platform::prepare_heap: readies the heap for thousands of targets.
#include "loopcheck/platform/platform.hpp"
#include "support/catch.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#if defined(__linux__) && defined(__GLIBC__)
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool own_allocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool own_allocator = true;
#else
constexpr bool own_allocator = false;
#endif
#else
constexpr bool own_allocator = false;
#endif

/// This process's anonymous memory in transparent huge pages, in KiB.
std::optional<long> anon_huge_kib() {
    std::ifstream in("/proc/self/smaps_rollup");
    const std::string key = "AnonHugePages:";
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key, 0) == 0)
            return std::strtol(line.c_str() + key.size(), nullptr, 10);
    return std::nullopt;
}

/// The kernel's transparent-huge-page mode: the bracketed word.
std::string thp_mode() {
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    std::getline(in, line);
    const auto open = line.find('[');
    const auto close = line.find(']', open);
    return open == std::string::npos || close == std::string::npos
               ? ""
               : line.substr(open + 1, close - open - 1);
}

/// Makes `bytes` of small blocks, each written, as a run's reports are;
/// returns how much AnonHugePages grew while they were made.
long huge_kib_for_small_blocks(std::vector<std::unique_ptr<char[]>>& keep, std::size_t bytes) {
    const auto before = anon_huge_kib().value_or(0);
    for (std::size_t made = 0; made < bytes; made += 1024) {
        keep.push_back(std::make_unique<char[]>(1000));
        std::memset(keep.back().get(), 7, 1000);
    }
    return anon_huge_kib().value_or(0) - before;
}

} // namespace
#endif

TEST_CASE("prepare_heap: below 2 MiB it does nothing, and the heap still serves", "[platform]") {
    for (const std::size_t bytes : {std::size_t{0}, std::size_t{4096}, std::size_t{1} << 20})
        loopcheck::platform::prepare_heap(bytes);
    auto block = std::make_unique<char[]>(1 << 20);
    std::memset(block.get(), 1, 1 << 20);
    CHECK(block[(1 << 20) - 1] == 1);
}

TEST_CASE("prepare_heap: small blocks made next land in huge pages (Linux, glibc)", "[platform]") {
#if !defined(__linux__) || !defined(__GLIBC__)
    LC_SKIP("prepare_heap does nothing outside Linux with glibc");
#else
    if (own_allocator)
        LC_SKIP("under AddressSanitizer malloc is the sanitizer's, not glibc's heap");
    const auto mode = thp_mode();
    if (mode != "madvise" && mode != "always")
        LC_SKIP("transparent huge pages are off here (" + mode + ")");
    if (!anon_huge_kib())
        LC_SKIP("no AnonHugePages in /proc/self/smaps_rollup");
    constexpr std::size_t total = 12u << 20;
    std::vector<std::unique_ptr<char[]>> blocks;
    // Before: the heap grows in 4 KiB pages (unless the kernel gives huge
    // pages to every mapping, "always").
    const long unprepared = huge_kib_for_small_blocks(blocks, total);
    loopcheck::platform::prepare_heap(total + (4u << 20));
    const long prepared = huge_kib_for_small_blocks(blocks, total);
    INFO("AnonHugePages grew " << unprepared << " KiB unprepared, " << prepared << " KiB prepared");
    if (mode == "madvise")
        CHECK(unprepared < 4096);
    // At least two whole 2 MiB pages out of 12 MiB.
    CHECK(prepared >= 4096);
    // Past glibc's mmap threshold it stays below it: still safe.
    loopcheck::platform::prepare_heap(SIZE_MAX);
    blocks.push_back(std::make_unique<char[]>(1000));
    CHECK(blocks.back() != nullptr);
#endif
}
