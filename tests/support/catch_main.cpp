// Catch2 2 needs one translation unit to define main; Catch2 3 links its own.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
