// The heap for a run over thousands of targets: kept, and grown in large
// pages. Linux with glibc only; elsewhere prepare_heap() does nothing.
#include "loopcheck/platform/platform.hpp"

#if defined(__linux__) && defined(__GLIBC__)
#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <sys/mman.h>
#endif

namespace loopcheck::platform {

#if defined(__linux__) && defined(__GLIBC__)

namespace {

constexpr std::size_t mib = 1024 * 1024;

/// glibc maps blocks past this on their own; prepare_heap() stays below it
/// so that its block is carved from the heap and stays there once freed.
constexpr std::size_t mmap_threshold = 32 * mib;

/// glibc's malloc returns freed memory at the top of the heap to the kernel
/// past 128 KiB and maps blocks past its (moving) mmap threshold on their
/// own; a run over 10,000 targets then faulted the same pages in again and
/// again (page faults were ~8 % of its CPU, docs/performance.md). Set once
/// at start-up, before main(): a heap of a few MiB is kept until exit.
const struct KeepHeap {
    KeepHeap() noexcept {
        ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(mmap_threshold));
        ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * mmap_threshold));
        ::mallopt(M_TOP_PAD, static_cast<int>(mib));
    }
} keep_heap;

} // namespace

void prepare_heap(std::size_t bytes) noexcept {
    // Each 4 KiB page of a new heap is faulted in on its first write; in
    // a virtual machine a fault costs microseconds, and 10,000 targets
    // took ~5,500 of them (a quarter of the run's time, docs/performance.md).
    // A 2 MiB page is one fault for 512 of them. The kernel gives them to
    // a range marked MADV_HUGEPAGE when transparent huge pages are set to
    // "madvise" (Debian's default) or "always"; with "never" the call is
    // refused and nothing changes. The block is freed at once: it joins
    // the top of the heap, which KeepHeap keeps, and later allocations are
    // carved from the marked range.
    constexpr std::size_t huge = 2 * mib;
    bytes = std::min(bytes, mmap_threshold - 2 * huge);
    if (bytes < huge)
        return;
    // One huge page more than asked: the marked range starts at the first
    // 2 MiB boundary inside the block and still covers `bytes`.
    void* block = std::malloc(bytes + huge);
    if (block == nullptr)
        return;
    const auto at = reinterpret_cast<std::uintptr_t>(block);
    const auto begin = (at + huge - 1) & ~(huge - 1);
    const auto end = (at + bytes + huge) & ~(huge - 1);
    if (end > begin)
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    std::free(block);
}

#else

void prepare_heap(std::size_t) noexcept {}

#endif

} // namespace loopcheck::platform
