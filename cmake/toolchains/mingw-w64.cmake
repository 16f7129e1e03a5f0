# Cross-compiles loopcheck for 64-bit Windows with Debian's MinGW-w64
# (apt-get install g++-mingw-w64-x86-64-posix). The -posix flavour has
# std::thread and std::future, which the WMI query needs; -win32 has not.
# Used by the windows-cross preset; see docs/windows.md.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(LOOPCHECK_MINGW_TRIPLET x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${LOOPCHECK_MINGW_TRIPLET}-gcc-posix)
set(CMAKE_CXX_COMPILER ${LOOPCHECK_MINGW_TRIPLET}-g++-posix)
set(CMAKE_RC_COMPILER ${LOOPCHECK_MINGW_TRIPLET}-windres)

# Search only the MinGW sysroot for libraries and headers, never /usr, so
# no Linux header or library can slip into the Windows build.
set(CMAKE_FIND_ROOT_PATH /usr/${LOOPCHECK_MINGW_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# One self-contained .exe: libstdc++, libgcc and winpthread linked in, so
# it runs on Windows (and under Wine) without the MinGW DLLs beside it.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

# Debian ships fmt, spdlog, CLI11 and Catch2 as headers (plus Linux-only
# libraries): use them header-only from a staged include directory
# (cmake/LoopcheckDependencies.cmake).
set(LOOPCHECK_HEADER_ONLY_DEPS ON CACHE BOOL "fmt, spdlog, CLI11 and Catch2 from headers")

# CTest runs the Windows binaries under Wine.
find_program(LOOPCHECK_WINE NAMES wine wine64)
if(LOOPCHECK_WINE)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${LOOPCHECK_WINE})
endif()
