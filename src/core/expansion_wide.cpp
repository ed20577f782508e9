// The wide expansion (expansion.hpp): all the moves of a class at once, with AVX-512.
//
// A class's board is copied into every 64-bit lane of one register (two for rings of more than 8
// pits), and lane j plays pit j: the steps of sow_packed() (packed_sowing.hpp), each one vector
// operation for eight moves. Where sow_packed() finds the pit of the hand's last drop with PDEP,
// which has no vector form, this copy counts the open pits below each pit with a prefix sum of
// four shifts and adds, and compares the counts with the drops, eight to a lane at once. Every move
// it plays leaves its own pit empty, so every successor's canonical board has a 0 on top, in the
// first block of the index: its position is the number of its other digits in base C+1, with
// no table. The moves whose hand comes round past their own pit are played by sow(), one by one.
//
// Built for every x86-64 CPU, with the AVX-512 code in functions of their own target: run only
// where wide_expander() has asked the CPU and its operating system (CPUID, XGETBV) and both
// said yes.
#include "ioiwari/core/expansion.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
// GCC 12 takes the undefined registers that its own AVX-512 intrinsics start from for
// uninitialized variables of ours (a false alarm, in its headers).
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#endif

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ioiwari/core/sowing.hpp"

namespace ioiwari {

#if defined(__x86_64__) && defined(__GNUC__)

namespace {

#define IOIWARI_WIDE __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vpopcntdq")))

// The pits 0..N-2 of a packed board, as the high bit of a byte: of the even pits (pit 2j at byte
// j) or of the odd ones (pit 2j+1 at byte j).
constexpr std::uint64_t below_top_bytes(int pits, int parity) {
  std::uint64_t bits = 0;
  for (int pit = parity; pit <= pits - 2; pit += 2)
    bits |= std::uint64_t{0x80} << (8 * (pit / 2));
  return bits;
}

// `bits` in every lane.
IOIWARI_WIDE inline __m512i set(std::uint64_t bits) {
  return _mm512_set1_epi64(static_cast<long long>(bits));
}

// The smallest of the rotations of the boards in `boards`, each turned by 1..N-1 pits with
// shifts of constant width.
template <int N, std::size_t... Turn>
IOIWARI_WIDE inline __m512i canonical_wide(__m512i boards, std::index_sequence<Turn...>) {
  const __m512i mask = set(nibble_mask(N));
  __m512i best = boards;
  ((best = _mm512_min_epu64(
        best, _mm512_or_si512(_mm512_and_si512(_mm512_slli_epi64(boards, 4 * (Turn + 1)), mask),
                              _mm512_srli_epi64(boards, 4 * (N - 1 - static_cast<int>(Turn)))))),
   ...);
  return best;
}

// The position of canonical boards whose top digit is 0: number_of() their digits in base
// `radix`'s, lane by lane. Each step pairs the numbers of the step before, as number_of() does,
// but with multiplications of one micro-operation: the digits' pairs by 16-bit multiplications
// (no product carries into the next byte), the bytes' and the 16-bit lanes' pairs by the
// multiply-and-add instructions, and the two halves by a 32-bit one (three 64-bit
// multiplications, each three micro-operations and fifteen cycles, took a third of the moves).
IOIWARI_WIDE inline __m512i position_wide(__m512i canonical, const __m512i (&radix)[4]) {
  const __m512i nibbles = set(0x0f0f0f0f0f0f0f0f);
  const __m512i bytes = _mm512_add_epi8(
      _mm512_and_si512(canonical, nibbles),
      _mm512_mullo_epi16(_mm512_and_si512(_mm512_srli_epi64(canonical, 4), nibbles), radix[0]));
  const __m512i shorts = _mm512_maddubs_epi16(bytes, radix[1]);
  const __m512i ints = _mm512_madd_epi16(shorts, radix[2]);
  return _mm512_add_epi64(_mm512_and_si512(ints, set(0xffffffff)),
                          _mm512_mul_epu32(_mm512_srli_epi64(ints, 32), radix[3]));
}

// The layer_key() of canonical boards whose top digit is 0, in the lanes of `lanes` (the others
// 0): their beads, and the sum of a table entry a pair of pits (LayerIndex::EmptyTop), gathered
// for the eight lanes at once.
template <int N>
IOIWARI_WIDE inline __m512i layer_key_wide(__m512i canonical, __mmask8 lanes,
                                           const LayerIndex::EmptyTop& table) {
  const __m512i fifteen = set(15), base = set(static_cast<std::uint64_t>(table.base));
  const __m512i square = set(static_cast<std::uint64_t>(table.base * table.base));
  const __m512i pair_step = set(static_cast<std::uint64_t>(table.sums) *
                                static_cast<std::uint64_t>(table.base * table.base));
  __m512i sum = _mm512_setzero_si512(), position = _mm512_setzero_si512();
  __m512i first = _mm512_setzero_si512();  // where the entries of pair j start
  for (int pair = 0; pair < N / 2; ++pair) {
    const __m512i low = _mm512_and_si512(_mm512_srli_epi64(canonical, 8 * pair), fifteen);
    const __m512i high = _mm512_and_si512(_mm512_srli_epi64(canonical, 8 * pair + 4), fifteen);
    sum = _mm512_add_epi64(sum, _mm512_add_epi64(low, high));
    const __m512i at = _mm512_add_epi64(_mm512_add_epi64(first, _mm512_mul_epu32(sum, square)),
                                        _mm512_add_epi64(_mm512_mul_epu32(high, base), low));
    position = _mm512_add_epi64(
        position,
        _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), lanes, at,
                                    reinterpret_cast<const long long*>(table.entries), 8));
    first = _mm512_add_epi64(first, pair_step);
  }
  return _mm512_or_si512(_mm512_slli_epi64(sum, kKeyBeadsShift), position);
}

// What the moves' loop stores for the successors `after`: their positions in the ring's index,
// or their canonical boards, whose layer keys are found afterwards eight successors at a time
// (a class's moves fill few of a vector's lanes, and a gather costs as much for a lane unused).
template <int N>
IOIWARI_WIDE inline __m512i keys_wide(const RingIndex&, __m512i after, const __m512i (&radix)[4]) {
  return position_wide(canonical_wide<N>(after, std::make_index_sequence<N - 1>{}), radix);
}
template <int N>
IOIWARI_WIDE inline __m512i keys_wide(const LayerIndex&, __m512i after, const __m512i (&)[4]) {
  return canonical_wide<N>(after, std::make_index_sequence<N - 1>{});
}
template <int N>
std::uint64_t key_one(const RingIndex& index, Packed canonical) {
  return index.position(canonical);
}
template <int N>
std::uint64_t key_one(const LayerIndex&, Packed canonical) {
  return canonical;
}

template <int N, class Index>
IOIWARI_WIDE std::size_t expand_wide(const Index& index, int capacity, const Packed* classes,
                                     std::size_t count, const Expansion& out) {
  constexpr int kVectors = (N + 7) / 8;
  constexpr Packed kMask = nibble_mask(N);
  constexpr Packed kOnes = kMask / 15;  // 1 in every pit
  const __m512i mask = set(kMask);
  const __m512i high = set(kOnes << 3), low = set(kOnes * 7);  // each pit's high bit; the others
  const __m512i all_but_top = set(kMask & ~(Packed{15} << (4 * (N - 1))));
  const __m512i full_pits = set(kOnes * static_cast<Packed>(capacity));
  const __m512i full_pit = set(static_cast<std::uint64_t>(capacity));
  const __m512i one = set(1), two = set(2), fifteen = set(15), width = set(4 * N), pits = set(N);
  const __m512i nibbles = set(0x0f0f0f0f0f0f0f0f);
  // Each lane's lowest byte into all its bytes: a shuffle, not a multiplication.
  const __m512i lowest_byte = _mm512_set4_epi64(0x0808080808080808, 0, 0x0808080808080808, 0);
  const __m512i byte_highs = set(0x8080808080808080);
  const __m512i even_below_top = set(below_top_bytes(N, 0));
  const __m512i odd_below_top = set(below_top_bytes(N, 1));
  // The factors of position_wide(): the base in every 16-bit lane, 1 and base^2 in the bytes of
  // each pair, 1 and base^4 in the 16-bit halves of each 32-bit lane, base^8.
  const Radix r = Radix::of(capacity + 1);
  const __m512i radix[4] = {set(r.b1 * 0x0001000100010001),
                            set((r.b2 << 8 | 1) * 0x0001000100010001),
                            set((r.b4 << 16 | 1) * 0x0000000100000001), set(r.b8)};
  LayerIndex::EmptyTop table{};
  if constexpr (std::is_same_v<Index, LayerIndex>) table = index.empty_top();
  // Each lane's pit, times 4: its digit's place.
  __m512i place[kVectors];
  __mmask8 in_ring[kVectors];
  for (int v = 0; v < kVectors; ++v) {
    place[v] = _mm512_slli_epi64(_mm512_add_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7),
                                                  set(8 * static_cast<unsigned>(v))),
                                 2);
    const int lanes = N - 8 * v < 8 ? N - 8 * v : 8;
    in_ring[v] = static_cast<__mmask8>((1u << lanes) - 1);
  }

  std::size_t successors = 0;
  for (std::size_t c = 0; c < count; ++c) {
    const Packed packed = classes[c];
    const __m512i board = set(packed);
    const std::size_t first = successors;
    for (int v = 0; v < kVectors; ++v) {
      const __m512i at = place[v];
      const __m512i hand = _mm512_and_si512(_mm512_srlv_epi64(board, at), fifteen);
      const __mmask8 moving = _mm512_mask_test_epi64_mask(in_ring[v], hand, hand);
      if (moving == 0) continue;
      // Turned so that the pit after the lane's pit is the lowest digit, the lane's pit emptied
      // at the top (sow_packed()).
      const __m512i turn = _mm512_add_epi64(at, _mm512_set1_epi64(4));
      __m512i turned =
          _mm512_and_si512(_mm512_or_si512(_mm512_srlv_epi64(board, turn),
                                           _mm512_sllv_epi64(board, _mm512_sub_epi64(width, turn))),
                           all_but_top);
      // The full pits and the open ones, as each digit's high bit.
      const __m512i x = _mm512_xor_si512(turned, full_pits);
      const __m512i full = _mm512_andnot_si512(
          _mm512_or_si512(_mm512_add_epi64(_mm512_and_si512(x, low), low), x), high);
      const __m512i open = _mm512_andnot_si512(full, high);
      // The hand drops hand-1 beads in the first open pits: the pit of its last drop is the
      // first whose count of open pits up to it reaches the drops. The counts, a digit each (at
      // most 15 below the top pit), are a prefix sum of the open pits, in four shifts and adds
      // where a 64-bit multiplication took three micro-operations and fifteen cycles; the pits
      // whose count is below the drops are counted as the high bits of bytes, the even pits and
      // the odd ones apart.
      const __m512i drops = _mm512_sub_epi64(hand, one);
      __m512i counts = _mm512_srli_epi64(open, 3);
      counts = _mm512_add_epi64(counts, _mm512_slli_epi64(counts, 4));
      counts = _mm512_add_epi64(counts, _mm512_slli_epi64(counts, 8));
      counts = _mm512_add_epi64(counts, _mm512_slli_epi64(counts, 16));
      counts = _mm512_add_epi64(counts, _mm512_slli_epi64(counts, 32));
      const __m512i spread = _mm512_shuffle_epi8(drops, lowest_byte);
      const __m512i even = _mm512_or_si512(_mm512_and_si512(counts, nibbles), byte_highs);
      const __m512i odd =
          _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi64(counts, 4), nibbles), byte_highs);
      const __m512i short_of = _mm512_or_si512(
          _mm512_andnot_si512(_mm512_sub_epi64(even, spread), even_below_top),
          _mm512_srli_epi64(_mm512_andnot_si512(_mm512_sub_epi64(odd, spread), odd_below_top), 1));
      // Where the last bead lands: the pit after the last drop, or the first pit for a hand of one.
      const __m512i land = _mm512_maskz_add_epi64(_mm512_test_epi64_mask(drops, drops),
                                                  _mm512_popcnt_epi64(short_of), one);
      const __mmask8 played = _mm512_mask_cmplt_epu64_mask(moving, land, pits);
      const __m512i land_at = _mm512_slli_epi64(land, 2);
      const __m512i walked = _mm512_sub_epi64(_mm512_sllv_epi64(one, land_at), one);
      const __m512i skims = _mm512_srli_epi64(_mm512_and_si512(full, walked), 3);
      turned = _mm512_sub_epi64(
          _mm512_add_epi64(turned, _mm512_srli_epi64(_mm512_and_si512(open, walked), 3)), skims);
      const __m512i beads = _mm512_and_si512(_mm512_srlv_epi64(turned, land_at), fifteen);
      const __mmask8 capture =
          _mm512_mask_cmplt_epu64_mask(_mm512_test_epi64_mask(beads, beads), beads, full_pit);
      __m512i net = _mm512_sub_epi64(_mm512_popcnt_epi64(skims), one);
      net = _mm512_mask_add_epi64(net, capture, net, _mm512_add_epi64(beads, two));
      turned =
          _mm512_mask_andnot_epi64(turned, capture, _mm512_sllv_epi64(fifteen, land_at), turned);
      const __m512i after =
          _mm512_and_si512(_mm512_or_si512(_mm512_srlv_epi64(turned, _mm512_sub_epi64(width, turn)),
                                           _mm512_sllv_epi64(turned, turn)),
                           mask);
      const __m512i keys = keys_wide<N>(index, after, radix);
      _mm512_storeu_si512(out.successors + successors, _mm512_maskz_compress_epi64(played, keys));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out.nets + successors),
                       _mm512_cvtepi64_epi8(_mm512_maskz_compress_epi64(played, net)));
      successors += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(played)));
      // The moves whose hand comes round past its own pit, by the rule itself.
      for (unsigned round = moving & ~played; round != 0; round &= round - 1) {
        const int pit = 8 * v + std::countr_zero(round);
        PackedPits sown{packed};
        const Sown gains = sow(sown, pit, N, capacity, [](SowKind, int, int) {});
        out.nets[successors] = static_cast<std::int8_t>(gains.mover_gain - gains.opponent_gain);
        out.successors[successors++] = key_one<N>(index, canonical_packed<N>(sown.bits));
      }
    }
    out.moves[c] = static_cast<std::uint8_t>(successors - first);
    if constexpr (std::is_same_v<Index, RingIndex>) out.own[c] = index.position(packed);
  }
  if constexpr (std::is_same_v<Index, LayerIndex>) {
    for (std::size_t i = 0; i < successors; i += 8) {
      const __mmask8 lanes = successors - i >= 8
                                 ? __mmask8{0xff}
                                 : static_cast<__mmask8>((1u << (successors - i)) - 1);
      const __m512i canonical = _mm512_maskz_loadu_epi64(lanes, out.successors + i);
      // A hand that came round may have left a bead in its own pit: such a board (rare) takes
      // the table of its own fewest count, one at a time.
      const __mmask8 top_empty =
          _mm512_mask_testn_epi64_mask(lanes, canonical, set(Packed{15} << (4 * (N - 1))));
      _mm512_mask_storeu_epi64(out.successors + i, top_empty,
                               layer_key_wide<N>(canonical, top_empty, table));
      for (unsigned full = lanes & ~top_empty; full != 0; full &= full - 1) {
        Packed& board = out.successors[i + static_cast<std::size_t>(std::countr_zero(full))];
        board = successor_key(index, board);
      }
    }
  }
  return successors;
}

template <class Function, class Index, std::size_t... Pits>
constexpr std::array<Function, kMaxPits + 1> wide_expanders(std::index_sequence<Pits...>) {
  return {(Pits < kMinPits
               ? nullptr
               : &expand_wide<static_cast<int>(Pits < kMinPits ? kMinPits : Pits), Index>)...};
}
template <class Function, class Index>
constexpr std::array<Function, kMaxPits + 1> kWide =
    wide_expanders<Function, Index>(std::make_index_sequence<kMaxPits + 1>{});

// Whether this CPU has AVX-512 with the parts the wide expansion uses (F, BW, DQ, VL,
// VPOPCNTDQ), and its operating system saves the registers (XCR0: the SSE, AVX, mask and both
// halves of the ZMM state). Asked once.
bool runs_wide() {
  static const bool runs = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0 || (ecx & bit_OSXSAVE) == 0) return false;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) return false;
    constexpr unsigned kNeeded = bit_AVX512F | bit_AVX512BW | bit_AVX512DQ | bit_AVX512VL;
    if ((ebx & kNeeded) != kNeeded || (ecx & bit_AVX512VPOPCNTDQ) == 0) return false;
    unsigned low = 0, high = 0;
    asm("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return (low & 0xe6) == 0xe6;
  }();
  return runs;
}

}  // namespace

Expand wide_expander(int pits) {
  return runs_wide() ? kWide<Expand, RingIndex>[static_cast<std::size_t>(pits)] : nullptr;
}

LayerExpand wide_layer_expander(int pits) {
  return runs_wide() ? kWide<LayerExpand, LayerIndex>[static_cast<std::size_t>(pits)] : nullptr;
}

#else

Expand wide_expander(int) {
  return nullptr;
}

LayerExpand wide_layer_expander(int) {
  return nullptr;
}

#endif

}  // namespace ioiwari
