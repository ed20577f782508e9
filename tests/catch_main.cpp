// Catch2 2 wants its main() compiled in one file; Catch2 3 ships it as a library.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
