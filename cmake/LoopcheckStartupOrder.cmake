# Lays out the functions a run executes side by side at the start of .text.
#
# A one-port run executes about 480 functions spread over the whole 1.5 MB
# of code. Every 64 KiB window of code it touches costs a page fault at
# start, and on a virtual machine a fault costs about as much as 30,000
# instructions (docs/performance.md, "The third round"). With the functions
# together, start-up touches a few windows instead of most of them.
#
# cmake/startup-order.txt lists their input sections, one per line, as
# bench/startup-order wrote it from a callgrind run and this build's map
# file. GNU ld takes the list inside .text itself: the toolchain's own
# default linker script (ld --verbose) is copied into the build tree with
# the list put first in its .text statement. A separate output section
# (INSERT BEFORE .text) would do the same for the loader, but valgrind reads
# symbols only within .text and would lose every name there.
#
# Any step that does not work (another linker, a script without the usual
# .text statement, a test link that fails) leaves the default layout: the
# order only ever costs start-up time, never behaviour.

function(loopcheck_startup_order target)
    set(list_file ${PROJECT_SOURCE_DIR}/cmake/startup-order.txt)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list_file})
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/startup-order)
    file(MAKE_DIRECTORY ${dir})
    file(WRITE ${dir}/probe.cpp "int main() { return 0; }\n")
    get_target_property(link_options ${target} LINK_OPTIONS)
    if(NOT link_options)
        set(link_options "")
    endif()
    execute_process(
        COMMAND ${CMAKE_CXX_COMPILER} ${link_options} -Wl,--verbose probe.cpp -o probe
        WORKING_DIRECTORY ${dir}
        OUTPUT_VARIABLE verbose ERROR_QUIET RESULT_VARIABLE failed)
    string(FIND "${verbose}" "==================================================\n" open)
    string(FIND "${verbose}" "\n==================================================" close REVERSE)
    if(failed OR open EQUAL -1 OR close LESS_EQUAL open)
        message(STATUS "Start-up order: the linker shows no default script; default layout")
        return()
    endif()
    math(EXPR begin "${open} + 51")
    math(EXPR length "${close} - ${begin}")
    string(SUBSTRING "${verbose}" ${begin} ${length} script)
    # The .text output statement: "  .text           :\n  {\n".
    string(REGEX MATCH "\n  \\.text[ \t]*:[ \t]*\n  {\n" text_open "${script}")
    if(NOT text_open)
        message(STATUS "Start-up order: no .text statement in the default script; default layout")
        return()
    endif()
    # A line is a section name (".text._ZN...") or, for an object built
    # without a section per function, the object and its .text
    # ("*Scrt1.o(.text)").
    file(STRINGS ${list_file} sections REGEX "^[.*]")
    # First what every run executes and callgrind does not name: static
    # constructors and main, and the C start-up files' code (_start,
    # frame_dummy).
    set(inputs "    *(.text.startup .text.startup.*)\n    *crt1.o(.text)\n    *crtbegin*.o(.text)\n")
    foreach(section IN LISTS sections)
        if(section MATCHES "^\\*")
            string(APPEND inputs "    ${section}\n")
        else()
            string(APPEND inputs "    *(${section})\n")
        endif()
    endforeach()
    string(REPLACE "${text_open}" "${text_open}${inputs}" script "${script}")
    # .fini (run at exit) moves up beside .init: after .text it would be a
    # window of its own, one more fault at the end of every run.
    string(REGEX MATCH "\n  \\.fini[ \t]*:[ \t]*\n  {\n[^}]*}" fini "${script}")
    string(REGEX MATCH "\n  \\.init[ \t]*:[ \t]*\n  {\n[^}]*}" init "${script}")
    if(fini AND init)
        string(REPLACE "${fini}" "" script "${script}")
        string(REPLACE "${init}" "${init}${fini}" script "${script}")
    endif()
    set(ld ${dir}/loopcheck.ld)
    file(WRITE ${ld}.new "${script}")
    # Only a changed script is written, so that reconfiguring relinks only
    # when the layout changes.
    file(COPY_FILE ${ld}.new ${ld} ONLY_IF_DIFFERENT)
    include(CheckLinkerFlag)
    check_linker_flag(CXX "-Wl,-T,${ld}" LOOPCHECK_LINKER_TAKES_STARTUP_ORDER)
    if(NOT LOOPCHECK_LINKER_TAKES_STARTUP_ORDER)
        message(STATUS "Start-up order: the linker refused the script; default layout")
        return()
    endif()
    target_link_options(${target} PRIVATE "-Wl,-T,${ld}")
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${ld})
    list(LENGTH sections count)
    message(STATUS "Start-up order: ${count} sections first in .text")
endfunction()
