// Catch2 2 (Debian 12) and Catch2 3 (current upstream) behind one include.
#pragma once

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
using Catch::Approx;
/// Skips the rest of a test with a stated reason.
#define LC_SKIP(reason) SKIP(reason)
#else
#include <catch2/catch.hpp>
// Catch2 2 has no SKIP: say why on the output and end the test case. The
// SUCCEED is what "--warn NoAssertions" (tests/CMakeLists.txt) looks for:
// a stated skip is not a test that silently ran nothing.
#define LC_SKIP(reason)                                                                            \
    do {                                                                                           \
        WARN("skipped: " << reason);                                                               \
        SUCCEED("skipped");                                                                        \
        return;                                                                                    \
    } while (false)
#endif
