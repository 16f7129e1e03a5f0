# CPack: a .deb and a .tar.gz on Linux, a .zip on Windows (the cross build's
# statically linked loopcheck.exe). `cmake --workflow --preset package` (or
# `cpack --preset ...`) builds them.
set(CPACK_PACKAGE_NAME loopcheck)
set(CPACK_PACKAGE_VENDOR "The loopcheck authors")
set(CPACK_PACKAGE_CONTACT "loopcheck maintainers <loopcheck@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "loopcheck resolves a name to its ordered address list, connects to every address, times each refused or accepted connect, finds why a client pays a fallback penalty (such as Windows' 2 s SYN retries after a refusal on ::1) and says how to fix it.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_STRIP_FILES ON)

if(WIN32)
    set(CPACK_GENERATOR ZIP)
    set(CPACK_PACKAGE_FILE_NAME "loopcheck-${PROJECT_VERSION}-windows-x86_64")
    set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY OFF)
    install(FILES README.md LICENSE DESTINATION .)
else()
    set(CPACK_GENERATOR DEB TGZ)
    set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
    set(CPACK_DEBIAN_PACKAGE_SECTION net)
    set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
    # The real shared-library dependencies (libfmt, libspdlog, libstdc++...),
    # read from the binary by dpkg-shlibdeps.
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
    set(CPACK_PACKAGE_FILE_NAME "loopcheck-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
    install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()

include(CPack)
