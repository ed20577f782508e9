// The wide expansion (expansion.hpp) of the page's module with WebAssembly's 128-bit SIMD
// (src/web/CMakeLists.txt builds it into that module alone, beside a plain one without SIMD).
//
// WebAssembly shifts both lanes of a vector by one count, so its lanes cannot be a class's moves,
// as they are in expansion_wide.cpp (AVX-512), whose shifts differ by lane. Here every move is
// first turned, one at a time, so that the pit after the mover's is the lowest digit and the
// mover's the top one: then two moves, one a 64-bit lane, take the same steps with the same
// shifts, those of sow_packed() (packed_sowing.hpp), save the pit of the last drop: the pits
// whose count of open pits so far is below the drops are found by comparing bytes, and the hand
// walks those and the one after them. The successor is left turned, which its canonical board
// does not see; every move played leaves the mover's pit empty, so that board has a 0 on top and
// its position is the number of its digits (RingIndex::position(), with no table). The moves
// whose hand comes round past the mover's pit are played by sow().
//
// A test (tests/web/modules.test.cjs, with tests/web/expansion_check.cpp) holds this copy equal
// to sow(), canonical_packed() and RingIndex::position(), in WebAssembly, on every class of the
// rings of up to 300,000 classes and on random classes of every ring.
#include <wasm_simd128.h>

#include <array>
#include <bit>
#include <cstdint>
#include <utility>

#include "ioiwari/core/expansion.hpp"
#include "ioiwari/core/sowing.hpp"

namespace ioiwari {

namespace {

v128_t set(std::uint64_t bits) {
  return wasm_i64x2_splat(static_cast<std::int64_t>(bits));
}

// The pits 0..N-2 of a packed board, as a byte of ones: of the even pits (pit 2j at byte j) or
// of the odd ones (pit 2j+1 at byte j).
constexpr std::uint64_t below_top_bytes(int pits, int parity) {
  std::uint64_t bits = 0;
  for (int pit = parity; pit <= pits - 2; pit += 2)
    bits |= std::uint64_t{0xff} << (8 * (pit / 2));
  return bits;
}

// The smaller of `a` and `b` in each lane. WebAssembly compares 64-bit lanes as signed numbers
// only, which boards are: no playable ring has a digit of 8 or more in its top pit's place (a
// ring of 16 pits holds at most kMaxRingBeads = 127 beads, so its capacity is at most 7).
v128_t min_boards(v128_t a, v128_t b) {
  return wasm_v128_bitselect(a, b, wasm_i64x2_lt(a, b));
}

// canonical_packed<N>() (ring_index.hpp) in each lane: the smallest of the board's rotations.
template <int N, std::size_t... Turn>
v128_t canonical_lanes(v128_t boards, std::index_sequence<Turn...>) {
  const v128_t mask = set(nibble_mask(N));
  v128_t best = boards;
  ((best = min_boards(best,
                      wasm_v128_or(wasm_v128_and(wasm_i64x2_shl(boards, 4 * (Turn + 1)), mask),
                                   wasm_u64x2_shr(boards, 4 * (N - 1 - static_cast<int>(Turn)))))),
   ...);
  return best;
}

// number_of() (ring_index.hpp) in each lane, for digits below `radix`'s base: digit pairs into
// bytes and bytes into 16-bit lanes by 16-bit multiplications, those into 32-bit lanes by a dot
// product, and the two halves by one multiplication to 64 bits.
v128_t number_lanes(v128_t digits, const v128_t (&radix)[4]) {
  const v128_t nibbles = set(0x0f0f0f0f0f0f0f0f), bytes_low = set(0x00ff00ff00ff00ff);
  const v128_t bytes =
      wasm_i16x8_add(wasm_v128_and(digits, nibbles),
                     wasm_i16x8_mul(wasm_v128_and(wasm_u64x2_shr(digits, 4), nibbles), radix[0]));
  const v128_t shorts = wasm_i16x8_add(wasm_v128_and(bytes, bytes_low),
                                       wasm_i16x8_mul(wasm_u16x8_shr(bytes, 8), radix[1]));
  const v128_t ints = wasm_i32x4_dot_i16x8(shorts, radix[2]);
  return wasm_i64x2_add(
      wasm_v128_and(ints, set(0xffffffff)),
      wasm_u64x2_extmul_low_u32x4(wasm_i32x4_shuffle(ints, ints, 1, 3, 1, 3), radix[3]));
}

template <int N>
std::size_t expand_simd128(const RingIndex& index, int capacity, const Packed* classes,
                           std::size_t count, const Expansion& out) {
  constexpr Packed kMask = nibble_mask(N);
  constexpr Packed kOnes = kMask / 15;  // 1 in every pit
  constexpr Packed kTop = Packed{15} << (4 * (N - 1));
  // First, one class at a time: each move's board, turned so that the pit after the mover's is
  // the lowest digit and the mover's the top one, kept where its successor's key will go.
  std::size_t moves = 0;
  for (std::size_t c = 0; c < count; ++c) {
    const Packed packed = classes[c];
    const std::size_t first = moves;
    for (int pit = 0; pit < N; ++pit) {
      const int turn = 4 * (pit + 1);
      Packed turned = packed;
      if constexpr (N == 16) {
        turned = std::rotr(packed, turn);
      } else {
        turned = ((packed >> turn) | (packed << (4 * N - turn))) & kMask;
      }
      out.successors[moves] = turned;
      moves += static_cast<std::size_t>(digit(packed, pit) != 0);
    }
    out.moves[c] = static_cast<std::uint8_t>(moves - first);
    out.own[c] = index.position(packed);
  }

  // Then two moves at a time, one a lane: every shift the same for both.
  const v128_t top = set(kTop), all_but_top = set(kMask & ~kTop);
  const v128_t high = set(kOnes << 3), low = set(kOnes * 7);  // each pit's high bit; the others
  const v128_t full_pits = set(kOnes * static_cast<Packed>(capacity));
  const v128_t one = set(1), fifteen = set(15), nibbles = set(0x0f0f0f0f0f0f0f0f);
  const v128_t even_below_top = set(below_top_bytes(N, 0));
  const v128_t odd_below_top = set(below_top_bytes(N, 1));
  // The factors of number_lanes(): the base in every 16-bit lane, base^2 in every 16-bit lane,
  // 1 and base^4 in the halves of each 32-bit lane, base^8 in the low 32 bits of each 64.
  const Radix r = Radix::of(capacity + 1);
  const v128_t radix[4] = {
      set(r.b1 * 0x0001000100010001), set(r.b2 * 0x0001000100010001),
      set((r.b4 << 16 | 1) * 0x0000000100000001),
      wasm_i32x4_make(static_cast<std::int32_t>(r.b8), static_cast<std::int32_t>(r.b8), 0, 0)};
  for (std::size_t m = 0; m < moves; m += 2) {
    const v128_t board = wasm_v128_load(out.successors + m);
    const v128_t hand = wasm_u64x2_shr(board, 4 * (N - 1));
    v128_t turned = wasm_v128_and(board, all_but_top);
    // The full pits and the open ones, as each digit's high bit.
    const v128_t x = wasm_v128_xor(turned, full_pits);
    const v128_t full =
        wasm_v128_andnot(high, wasm_v128_or(wasm_i64x2_add(wasm_v128_and(x, low), low), x));
    const v128_t open = wasm_v128_andnot(high, full);
    // The count of open pits up to each pit (at most 15 below the top), a prefix sum in four
    // shifts and adds; the pits whose count is below the drops, by comparing bytes (the even
    // pits' counts and the odd ones' apart); and the walk: those pits and the one after them, or
    // none for a hand of one bead.
    const v128_t drops = wasm_i64x2_sub(hand, one);
    v128_t counts = wasm_u64x2_shr(open, 3);
    counts = wasm_i64x2_add(counts, wasm_i64x2_shl(counts, 4));
    counts = wasm_i64x2_add(counts, wasm_i64x2_shl(counts, 8));
    counts = wasm_i64x2_add(counts, wasm_i64x2_shl(counts, 16));
    counts = wasm_i64x2_add(counts, wasm_i64x2_shl(counts, 32));
    const v128_t spread =
        wasm_i8x16_shuffle(drops, drops, 0, 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8);
    const v128_t even =
        wasm_v128_and(wasm_u8x16_lt(wasm_v128_and(counts, nibbles), spread), even_below_top);
    const v128_t odd = wasm_v128_and(
        wasm_u8x16_lt(wasm_v128_and(wasm_u64x2_shr(counts, 4), nibbles), spread), odd_below_top);
    const v128_t short_of =
        wasm_v128_or(wasm_v128_and(even, nibbles), wasm_i64x2_shl(wasm_v128_and(odd, nibbles), 4));
    const v128_t walked = wasm_v128_and(wasm_v128_or(wasm_i64x2_shl(short_of, 4), fifteen),
                                        wasm_i64x2_ne(drops, wasm_i64x2_const(0, 0)));
    const v128_t skims = wasm_u64x2_shr(wasm_v128_and(full, walked), 3);
    turned = wasm_i64x2_sub(wasm_i64x2_add(turned, wasm_u64x2_shr(wasm_v128_and(open, walked), 3)),
                            skims);
    // The pit of the last bead, after the walk; a capture there when it holds beads and is not
    // full (it was not walked, so `full` still tells).
    const v128_t land = wasm_v128_andnot(wasm_v128_or(wasm_i64x2_shl(walked, 4), fifteen), walked);
    const v128_t holds = wasm_v128_or(wasm_i64x2_add(wasm_v128_and(turned, low), low), turned);
    const v128_t capture = wasm_v128_andnot(wasm_v128_and(wasm_v128_and(holds, high), land), full);
    const v128_t captured =
        wasm_v128_or(wasm_i64x2_sub(capture, wasm_u64x2_shr(capture, 3)), capture);  // its bits
    // The net gain: the skims less one, and the captured beads and two more.
    const v128_t gains = wasm_i64x2_add(skims, wasm_v128_and(turned, captured));
    const v128_t pairs = wasm_i16x8_add(wasm_v128_and(gains, nibbles),
                                        wasm_v128_and(wasm_u64x2_shr(gains, 4), nibbles));
    const v128_t sums = wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(pairs));
    const v128_t took = wasm_i64x2_ne(capture, wasm_i64x2_const(0, 0));  // -1 where it captured
    const v128_t net =
        wasm_i64x2_sub(wasm_i64x2_sub(wasm_i64x2_add(sums, wasm_u64x2_shr(sums, 32)), one),
                       wasm_i64x2_add(took, took));
    // The successor, still turned: its canonical board is the same.
    const v128_t after = wasm_v128_andnot(turned, captured);
    wasm_v128_store(
        out.successors + m,
        number_lanes(canonical_lanes<N>(after, std::make_index_sequence<N - 1>{}), radix));
    wasm_v128_store16_lane(
        out.nets + m, wasm_i8x16_shuffle(net, net, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
        0);
    // A walk that reaches the top comes round past the mover's pit: that move by sow() (rare).
    const std::uint32_t round =
        wasm_i64x2_bitmask(wasm_i64x2_ne(wasm_v128_and(walked, top), wasm_i64x2_const(0, 0)));
    if (round != 0) [[unlikely]] {
      const Packed boards[2] = {static_cast<Packed>(wasm_i64x2_extract_lane(board, 0)),
                                static_cast<Packed>(wasm_i64x2_extract_lane(board, 1))};
      for (std::size_t lane = 0; lane < 2 && m + lane < moves; ++lane) {
        if ((round >> lane & 1) == 0) continue;
        PackedPits sown{boards[lane]};
        const Sown played = sow(sown, N - 1, N, capacity, [](SowKind, int, int) {});
        out.nets[m + lane] = static_cast<std::int8_t>(played.mover_gain - played.opponent_gain);
        out.successors[m + lane] = index.position(canonical_packed<N>(sown.bits));
      }
    }
  }
  return moves;
}

template <std::size_t... Pits>
constexpr std::array<Expand, kMaxPits + 1> simd128_expanders(std::index_sequence<Pits...>) {
  return {(Pits < kMinPits
               ? nullptr
               : &expand_simd128<static_cast<int>(Pits < kMinPits ? kMinPits : Pits)>)...};
}
constexpr std::array<Expand, kMaxPits + 1> kSimd128 =
    simd128_expanders(std::make_index_sequence<kMaxPits + 1>{});

}  // namespace

Expand wide_expander(int pits) {
  return kSimd128[static_cast<std::size_t>(pits)];
}

// The page solves in memory only: there is no layered solve to expand for.
LayerExpand wide_layer_expander(int) {
  return nullptr;
}

}  // namespace ioiwari
