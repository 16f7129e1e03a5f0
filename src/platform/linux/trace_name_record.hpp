// The record the getaddrinfo shim (trace_name_shim.cpp) passes to the
// tracer as connect(-1, record, size): a trapped syscall on no descriptor
// fails with EBADF and leaves nothing behind, so it survives programs that
// close every descriptor they did not open (close_fds) and needs no pipe.
//
//   magic (16 bytes) | u8 name length | u8 address count | name |
//   count x (u8 family: 4 or 6, 16 address bytes)
#pragma once

#include <cstddef>
#include <cstdint>

namespace loopcheck::platform::trace {

inline constexpr char name_record_magic[16] = {'l', 'o', 'o', 'p', 'c', 'h', 'e', 'c',
                                               'k', '-', 'n', 'a', 'm', 'e', '-', '1'};
inline constexpr std::size_t name_record_max_addresses = 16;
inline constexpr std::size_t name_record_max_name = 255;
inline constexpr std::size_t name_record_max_size =
    sizeof name_record_magic + 2 + name_record_max_name + name_record_max_addresses * 17;

} // namespace loopcheck::platform::trace
