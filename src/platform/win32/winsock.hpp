// The Windows headers, in the one order that compiles, for the
// src/platform/win32/*.cpp files only. Include it ahead of every <...>
// include (clang-format puts it right after the loopcheck/ headers, which
// include no OS header), so that every file sees the same FD_SETSIZE and
// no library pulls in windows.h before it.
#pragma once

// select() watches at most FD_SETSIZE sockets per set. Winsock's default
// is 64, and winsock2.h takes a larger value defined before it
// (learn.microsoft.com/windows/win32/winsock/maximum-number-of-sockets-supported-2).
// ConnectSet::capacity() reports this number.
#ifndef FD_SETSIZE
#define FD_SETSIZE 1024
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif

// winsock2.h must come before windows.h (which would pull in the old
// winsock.h) and before the headers that build on it.
// clang-format off
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mstcpip.h>
#include <windows.h>
// clang-format on
