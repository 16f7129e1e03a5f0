// The heap for a run over thousands of targets: nothing to prepare on
// Windows. Its large pages need the "Lock pages in memory" privilege
// (SeLockMemoryPrivilege), which a developer's account does not hold.
#include "loopcheck/platform/platform.hpp"

namespace loopcheck::platform {

void prepare_heap(std::size_t) noexcept {}

} // namespace loopcheck::platform
