#include "ioiwari/core/sha256.hpp"

#include <bit>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define IOIWARI_SHA_X86 1
#endif

namespace ioiwari {

namespace {

constexpr std::array<std::uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

constexpr std::array<std::uint32_t, 8> kInitial = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// The compression function as FIPS 180-4 states it. Its twin with the SHA instructions is
// compress_x86() below; tests/core/test_sha256.cpp holds them equal.
void compress_portable(std::uint32_t* state, const unsigned char* blocks, std::size_t count) {
  for (; count > 0; --count, blocks += 64) {
    std::uint32_t w[64];
    for (int t = 0; t < 16; ++t) {
      w[t] = std::uint32_t{blocks[4 * t]} << 24 | std::uint32_t{blocks[4 * t + 1]} << 16 |
             std::uint32_t{blocks[4 * t + 2]} << 8 | std::uint32_t{blocks[4 * t + 3]};
    }
    for (int t = 16; t < 64; ++t) {
      const std::uint32_t s0 =
          std::rotr(w[t - 15], 7) ^ std::rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const std::uint32_t s1 = std::rotr(w[t - 2], 17) ^ std::rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; ++t) {
      const std::uint32_t s1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
      const std::uint32_t choice = (e & f) ^ (~e & g);
      const std::uint32_t t1 = h + s1 + choice + kRound[static_cast<std::size_t>(t)] + w[t];
      const std::uint32_t s0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
      const std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
      const std::uint32_t t2 = s0 + majority;
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

#ifdef IOIWARI_SHA_X86

// The compression function with the SHA extensions: the state is kept as the two halves the
// instructions take (A, B, E, F and C, D, G, H), four rounds a step, and the message schedule
// four words at a time. Its twin is compress_portable() above.
__attribute__((target("sha,sse4.1"))) void compress_x86(std::uint32_t* state,
                                                        const unsigned char* blocks,
                                                        std::size_t count) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xb1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1b);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xf0);
  for (; count > 0; --count, blocks += 64) {
    const __m128i abef_before = abef, cdgh_before = cdgh;
    __m128i w[4];
#pragma GCC unroll 16
    for (int group = 0; group < 16; ++group) {
      __m128i& words = w[group % 4];
      if (group < 4) {
        words = _mm_shuffle_epi8(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16 * group)), byte_swap);
      } else {
        // Words 4g..4g+3 from the groups 4, 3, 2 and 1 before: w[t-16] + s0(w[t-15]) +
        // w[t-7] + s1(w[t-2]).
        const __m128i& back1 = w[(group + 3) % 4];
        const __m128i& back2 = w[(group + 2) % 4];
        const __m128i seven = _mm_alignr_epi8(back1, back2, 4);
        words = _mm_sha256msg2_epu32(
            _mm_add_epi32(_mm_sha256msg1_epu32(words, w[(group + 1) % 4]), seven), back1);
      }
      __m128i message = _mm_add_epi32(
          words, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kRound.data() + 4 * group)));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
      message = _mm_shuffle_epi32(message, 0x0e);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, message);
    }
    abef = _mm_add_epi32(abef, abef_before);
    cdgh = _mm_add_epi32(cdgh, cdgh_before);
  }
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1b);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xb1);
  dcba = _mm_blend_epi16(feba, dchg, 0xf0);
  hgfe = _mm_alignr_epi8(dchg, feba, 8);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), dcba);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), hgfe);
}

bool has_sha_instructions() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) return false;
  const bool sha = (ebx >> 29 & 1) != 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  const bool ssse3 = (ecx >> 9 & 1) != 0, sse41 = (ecx >> 19 & 1) != 0;
  return sha && ssse3 && sse41;
}

#endif

}  // namespace

bool Sha256::accelerated() {
#ifdef IOIWARI_SHA_X86
  static const bool has = has_sha_instructions();
  return has;
#else
  return false;
#endif
}

Sha256::Sha256(Engine engine) : compress_(compress_portable), state_(kInitial) {
#ifdef IOIWARI_SHA_X86
  if (engine == Engine::fastest && accelerated()) compress_ = compress_x86;
#else
  (void)engine;
#endif
}

void Sha256::update(std::span<const unsigned char> bytes) {
  if (bytes.empty()) return;  // whose data() may be null, which memcpy may not be given
  length_ += bytes.size();
  if (pending_ > 0) {
    const std::size_t take = std::min(bytes.size(), buffer_.size() - pending_);
    std::memcpy(buffer_.data() + pending_, bytes.data(), take);
    pending_ += take;
    bytes = bytes.subspan(take);
    if (pending_ < buffer_.size()) return;
    compress_(state_.data(), buffer_.data(), 1);
    pending_ = 0;
  }
  const std::size_t whole = bytes.size() / 64;
  if (whole > 0) compress_(state_.data(), bytes.data(), whole);
  bytes = bytes.subspan(whole * 64);
  if (!bytes.empty()) std::memcpy(buffer_.data(), bytes.data(), bytes.size());
  pending_ = bytes.size();
}

Digest Sha256::finish() {
  // The padding: a one bit, zeros, and the length in bits as a big-endian 64-bit number,
  // to a whole number of 64-byte blocks.
  const std::uint64_t bits = length_ * 8;
  unsigned char tail[128] = {};
  std::memcpy(tail, buffer_.data(), pending_);
  tail[pending_] = 0x80;
  const std::size_t size = pending_ + 9 <= 64 ? 64 : 128;
  for (int i = 0; i < 8; ++i)
    tail[size - 1 - static_cast<std::size_t>(i)] = static_cast<unsigned char>(bits >> (8 * i));
  compress_(state_.data(), tail, size / 64);
  Digest digest;
  for (std::size_t i = 0; i < 8; ++i) {
    for (std::size_t j = 0; j < 4; ++j)
      digest[4 * i + j] = static_cast<unsigned char>(state_[i] >> (24 - 8 * j));
  }
  return digest;
}

Digest sha256(std::span<const unsigned char> bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.finish();
}

std::string hex(const Digest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (const unsigned char byte : digest) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

std::optional<Digest> parse_digest(std::string_view text) {
  if (text.size() != 64) return std::nullopt;
  const auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  Digest digest;
  for (std::size_t i = 0; i < digest.size(); ++i) {
    const int high = nibble(text[2 * i]), low = nibble(text[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    digest[i] = static_cast<unsigned char>(high << 4 | low);
  }
  return digest;
}

}  // namespace ioiwari
