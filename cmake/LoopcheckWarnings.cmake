# One place for warning flags and sanitizers; targets link loopcheck_warnings.
add_library(loopcheck_warnings INTERFACE)
if(MSVC)
    target_compile_options(loopcheck_warnings INTERFACE /W4 /permissive- /utf-8)
    if(LOOPCHECK_WERROR)
        target_compile_options(loopcheck_warnings INTERFACE /WX)
    endif()
else()
    target_compile_options(loopcheck_warnings INTERFACE
        -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-qual -Wformat=2
        -Wimplicit-fallthrough -Wundef)
    if(LOOPCHECK_WERROR)
        target_compile_options(loopcheck_warnings INTERFACE -Werror)
    endif()
    if(MINGW)
        # MinGW-w64's headers then mark what the UCRT deprecates for MSVC
        # (std::getenv, std::strerror, fopen, the POSIX names: C4996, an
        # error under the windows-msvc preset's /WX) as deprecated, so the
        # cross build fails where the MSVC job would. MinGW leaves a few
        # unmarked (localtime, sprintf, sscanf); tests/windows/check_crt_calls.py
        # covers those on every OS.
        target_compile_definitions(loopcheck_warnings INTERFACE __MINGW_MSVC_COMPAT_WARNINGS)
    endif()
endif()

if(LOOPCHECK_FUZZ)
    # Coverage instrumentation everywhere; the fuzz targets add the driver.
    add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                        -fno-sanitize-recover=all) # any UB report fails the run
    add_link_options(-fsanitize=address,undefined)
endif()

if(LOOPCHECK_SANITIZE)
    if(MSVC)
        message(FATAL_ERROR "LOOPCHECK_SANITIZE is for GCC and Clang")
    endif()
    add_compile_options(-fsanitize=${LOOPCHECK_SANITIZE} -fno-omit-frame-pointer
                        -fno-sanitize-recover=all)
    add_link_options(-fsanitize=${LOOPCHECK_SANITIZE})
endif()
