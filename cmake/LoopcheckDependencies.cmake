# Dependencies come from the system's package manager (Debian: libcli11-dev,
# libfmt-dev, libspdlog-dev, catch2, nlohmann-json3-dev) or from vcpkg on Windows, always through
# find_package. Each is exposed as a loopcheck:: alias so that a cross build
# can point them at header-only copies without touching the targets.

# fmt from its headers alone, compiled once: a static library of
# cmake/fmt_once.cpp (fmt's own functions and instantiations) that
# loopcheck::fmt links, with HEADERS (an interface target) giving fmt's
# include directory. Header-only fmt would compile all of fmt again in
# every source file that formats (docs/hacking.md#presets).
function(loopcheck_fmt_compiled_once headers)
    add_library(loopcheck_fmt_once STATIC ${PROJECT_SOURCE_DIR}/cmake/fmt_once.cpp)
    target_link_libraries(loopcheck_fmt_once PUBLIC ${headers})
    add_library(loopcheck::fmt INTERFACE IMPORTED GLOBAL)
    target_link_libraries(loopcheck::fmt INTERFACE loopcheck_fmt_once)
endfunction()

if(LOOPCHECK_HEADER_ONLY_DEPS)
    # Cross builds (cmake/toolchains/mingw-w64.cmake) use fmt and spdlog
    # header-only, CLI11 and Catch2 2 (single header) from
    # LOOPCHECK_DEPS_INCLUDE_DIR: the distribution ships no libraries for
    # the target system.
    if(NOT LOOPCHECK_DEPS_INCLUDE_DIR)
        # Stage an include directory holding only the four libraries, as
        # links to the host's headers, made at configure time inside the
        # build tree. The cross compiler must never see /usr/include
        # itself: glibc's headers there would shadow MinGW's.
        set(LOOPCHECK_DEPS_SOURCE_DIR /usr/include CACHE PATH
            "Where the fmt, spdlog, CLI and catch2 header directories are")
        set(LOOPCHECK_DEPS_INCLUDE_DIR ${CMAKE_BINARY_DIR}/deps-include)
        file(MAKE_DIRECTORY ${LOOPCHECK_DEPS_INCLUDE_DIR})
        foreach(dir fmt spdlog CLI catch2 nlohmann)
            set(from ${LOOPCHECK_DEPS_SOURCE_DIR}/${dir})
            if(NOT IS_DIRECTORY ${from})
                message(FATAL_ERROR "${from} is missing: install the headers "
                                    "(Debian: apt-get install libfmt-dev libspdlog-dev "
                                    "libcli11-dev catch2 nlohmann-json3-dev)")
            endif()
            file(REMOVE ${LOOPCHECK_DEPS_INCLUDE_DIR}/${dir})
            file(CREATE_LINK ${from} ${LOOPCHECK_DEPS_INCLUDE_DIR}/${dir} SYMBOLIC)
        endforeach()
    endif()
    add_library(loopcheck_deps_headers INTERFACE)
    target_include_directories(loopcheck_deps_headers SYSTEM INTERFACE ${LOOPCHECK_DEPS_INCLUDE_DIR})
    loopcheck_fmt_compiled_once(loopcheck_deps_headers)
    # spdlog is header-only unless SPDLOG_COMPILED_LIB is defined, so only
    # the external fmt needs saying.
    add_library(loopcheck::spdlog INTERFACE IMPORTED)
    target_link_libraries(loopcheck::spdlog INTERFACE loopcheck::fmt)
    target_compile_definitions(loopcheck::spdlog INTERFACE SPDLOG_FMT_EXTERNAL=1)
    add_library(loopcheck::cli11 INTERFACE IMPORTED)
    target_link_libraries(loopcheck::cli11 INTERFACE loopcheck_deps_headers)
    add_library(loopcheck::catch2 INTERFACE IMPORTED)
    target_link_libraries(loopcheck::catch2 INTERFACE loopcheck_deps_headers)
    add_library(loopcheck::nlohmann_json INTERFACE IMPORTED)
    target_link_libraries(loopcheck::nlohmann_json INTERFACE loopcheck_deps_headers)
    return()
endif()

find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 REQUIRED)
# scan's config file and baselines (src/core/scan/gate.cpp): header-only.
find_package(nlohmann_json 3 REQUIRED)
add_library(loopcheck::nlohmann_json INTERFACE IMPORTED)
target_link_libraries(loopcheck::nlohmann_json INTERFACE nlohmann_json::nlohmann_json)

if(LOOPCHECK_SELF_CONTAINED)
    # fmt and spdlog compiled into loopcheck from the installed packages'
    # own headers (fmt once, cmake/fmt_once.cpp; spdlog header-only), so the binary
    # neither needs libfmt.so / libspdlog.so at run time nor pays the
    # dynamic loader for their symbols at every start
    # (docs/performance.md). fmt's package exports the header-only target
    # itself; spdlog's header-only target would link the shared fmt that
    # Debian builds it against, so only its include directory is taken.
    get_target_property(fmt_include_dirs fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
    add_library(loopcheck_fmt_headers INTERFACE)
    target_include_directories(loopcheck_fmt_headers SYSTEM INTERFACE ${fmt_include_dirs})
    loopcheck_fmt_compiled_once(loopcheck_fmt_headers)
    get_target_property(spdlog_include_dirs spdlog::spdlog INTERFACE_INCLUDE_DIRECTORIES)
    add_library(loopcheck::spdlog INTERFACE IMPORTED)
    target_include_directories(loopcheck::spdlog INTERFACE ${spdlog_include_dirs})
    target_link_libraries(loopcheck::spdlog INTERFACE loopcheck::fmt)
    # No SPDLOG_COMPILED_LIB: header-only. SPDLOG_FMT_EXTERNAL: the fmt above,
    # not the copy bundled in spdlog's headers.
    target_compile_definitions(loopcheck::spdlog INTERFACE SPDLOG_FMT_EXTERNAL=1)
    add_library(loopcheck::cli11 INTERFACE IMPORTED)
    target_link_libraries(loopcheck::cli11 INTERFACE CLI11::CLI11)
    return()
endif()

add_library(loopcheck::fmt INTERFACE IMPORTED)
target_link_libraries(loopcheck::fmt INTERFACE fmt::fmt)
add_library(loopcheck::spdlog INTERFACE IMPORTED)
target_link_libraries(loopcheck::spdlog INTERFACE spdlog::spdlog)
add_library(loopcheck::cli11 INTERFACE IMPORTED)
target_link_libraries(loopcheck::cli11 INTERFACE CLI11::CLI11)
