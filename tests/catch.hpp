// The one place that knows whether Catch2 is version 2 or 3.
#pragma once

#if defined(IOIWARI_CATCH2_V3)
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#elif defined(IOIWARI_CATCH2_V2)
#include <catch2/catch.hpp>
#else
#error "tests/CMakeLists.txt defines IOIWARI_CATCH2_V2 or IOIWARI_CATCH2_V3"
#endif
