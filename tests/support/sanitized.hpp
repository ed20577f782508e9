// Whether the tests and the programs under test are built with the sanitizers (the sanitize
// preset, tests/CMakeLists.txt). Such programs reserve terabytes of address space, which the
// referee's data limit (RLIMIT_DATA) refuses them: their games are refereed with the limit off,
// and their memory limited by sampling alone. And each of their steps costs ten to fifty times
// as much: the largest cases, which find no more than smaller ones under the sanitizers, are
// made smaller there (each test says how), and the unsanitized suite runs them whole.
#pragma once

namespace ioiwari::test {

#ifdef IOIWARI_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace ioiwari::test
