# Dependencies come from the system's package manager (Debian: libcli11-dev,
# libfmt-dev, libspdlog-dev, catch2) or from vcpkg on Windows, always through
# find_package. Each is exposed as a loopcheck:: alias so that a cross build
# can point them at header-only copies without touching the targets.

if(LOOPCHECK_HEADER_ONLY_DEPS)
    # Cross builds (cmake/toolchains/mingw-w64.cmake) use fmt and spdlog
    # header-only from LOOPCHECK_DEPS_INCLUDE_DIR: the distribution ships no
    # libraries for the target system.
    add_library(loopcheck_deps_headers INTERFACE)
    target_include_directories(loopcheck_deps_headers SYSTEM INTERFACE ${LOOPCHECK_DEPS_INCLUDE_DIR})
    add_library(loopcheck::fmt INTERFACE IMPORTED)
    target_link_libraries(loopcheck::fmt INTERFACE loopcheck_deps_headers)
    target_compile_definitions(loopcheck::fmt INTERFACE FMT_HEADER_ONLY=1)
    add_library(loopcheck::spdlog INTERFACE IMPORTED)
    target_link_libraries(loopcheck::spdlog INTERFACE loopcheck::fmt)
    target_compile_definitions(loopcheck::spdlog INTERFACE SPDLOG_HEADER_ONLY=1 SPDLOG_FMT_EXTERNAL=1)
    add_library(loopcheck::cli11 INTERFACE IMPORTED)
    target_link_libraries(loopcheck::cli11 INTERFACE loopcheck_deps_headers)
    return()
endif()

find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)

add_library(loopcheck::fmt INTERFACE IMPORTED)
target_link_libraries(loopcheck::fmt INTERFACE fmt::fmt)
add_library(loopcheck::spdlog INTERFACE IMPORTED)
target_link_libraries(loopcheck::spdlog INTERFACE spdlog::spdlog)
add_library(loopcheck::cli11 INTERFACE IMPORTED)
target_link_libraries(loopcheck::cli11 INTERFACE CLI11::CLI11)
