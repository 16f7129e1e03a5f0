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
