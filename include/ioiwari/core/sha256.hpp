// SHA-256 (FIPS 180-4), the hash that authenticates table files (table_format.hpp).
//
// Two copies of the compression function: a portable one, and one with the x86 SHA extensions,
// chosen at run time where the processor has them. The tests hold them equal on every length
// and on the standard's test vectors (tests/core/test_sha256.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ioiwari {

using Digest = std::array<unsigned char, 32>;

class Sha256 {
 public:
  // Which compression function to use: the fastest the processor has, or the portable one
  // (what the tests compare the fast one with).
  enum class Engine { fastest, portable };
  explicit Sha256(Engine engine = Engine::fastest);

  void update(std::span<const unsigned char> bytes);
  // The digest of everything given; the object is then spent.
  Digest finish();

  // Whether the fastest engine uses the processor's SHA instructions.
  static bool accelerated();

 private:
  using Compress = void (*)(std::uint32_t* state, const unsigned char* blocks, std::size_t count);
  Compress compress_;
  std::array<std::uint32_t, 8> state_;
  std::array<unsigned char, 64> buffer_{};
  std::size_t pending_ = 0;
  std::uint64_t length_ = 0;
};

// The digest of `bytes`.
Digest sha256(std::span<const unsigned char> bytes);

// A digest as 64 lowercase hexadecimal digits, and back (nothing unless exactly that).
std::string hex(const Digest& digest);
std::optional<Digest> parse_digest(std::string_view text);

}  // namespace ioiwari
