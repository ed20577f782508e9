// The portable expansion (expansion.hpp), and the choice between it and the wide one.
#include "ioiwari/core/expansion.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include <array>
#include <type_traits>
#include <utility>

#include "ioiwari/core/packed_sowing.hpp"
#include "ioiwari/core/sowing.hpp"

namespace ioiwari {

namespace {

template <int N, Select kSelect, class Index>
std::size_t expand(const Index& index, int capacity, const Packed* classes, std::size_t count,
                   const Expansion& out) {
  std::size_t successors = 0;
  for (std::size_t c = 0; c < count; ++c) {
    const Packed packed = classes[c];
    int moves = 0;
    for (int pit = 0; pit < N; ++pit) {
      if (digit(packed, pit) == 0) continue;
      Packed after = packed;
      int net = 0;
      if (!sow_packed<N, kSelect>(after, pit, capacity, net)) [[unlikely]] {
        PackedPits pits{packed};
        const Sown sown = sow(pits, pit, N, capacity, [](SowKind, int, int) {});
        after = pits.bits;
        net = sown.mover_gain - sown.opponent_gain;
      }
      out.nets[successors] = static_cast<std::int8_t>(net);
      out.successors[successors++] = successor_key(index, canonical_packed<N>(after));
      ++moves;
    }
    out.moves[c] = static_cast<std::uint8_t>(moves);
    if constexpr (std::is_same_v<Index, RingIndex>) out.own[c] = index.position(packed);
  }
  return successors;
}

template <class Function, class Index, Select kSelect, std::size_t... Pits>
constexpr std::array<Function, kMaxPits + 1> expanders(std::index_sequence<Pits...>) {
  return {(Pits < kMinPits
               ? nullptr
               : &expand<static_cast<int>(Pits < kMinPits ? kMinPits : Pits), kSelect, Index>)...};
}
template <class Function, class Index>
constexpr std::array<std::array<Function, kMaxPits + 1>, 2> kExpand = {
    expanders<Function, Index, Select::portable>(std::make_index_sequence<kMaxPits + 1>{}),
    expanders<Function, Index, Select::bmi2>(std::make_index_sequence<kMaxPits + 1>{})};

// Whether this CPU runs PDEP fast: it has BMI2, and it is not an AMD CPU before Zen 3 (family
// 0x19), where PDEP is microcode of hundreds of cycles. Asked once, with CPUID.
bool has_fast_pdep() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool fast = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0 || (ebx & bit_BMI2) == 0) {
      return false;
    }
    unsigned vendor[3] = {};
    __get_cpuid(0, &eax, &vendor[0], &vendor[2], &vendor[1]);
    const bool amd = vendor[0] == 0x68747541 && vendor[1] == 0x69746e65 && vendor[2] == 0x444d4163;
    __get_cpuid(1, &eax, &ebx, &ecx, &edx);
    const unsigned base = (eax >> 8) & 15;
    const unsigned family = base == 15 ? base + ((eax >> 20) & 255) : base;
    return !amd || family >= 0x19;
  }();
  return fast;
#else
  return false;
#endif
}

}  // namespace

Expand portable_expander(int pits) {
  return kExpand<Expand, RingIndex>[has_fast_pdep() ? 1 : 0][static_cast<std::size_t>(pits)];
}

LayerExpand portable_layer_expander(int pits) {
  return kExpand<LayerExpand, LayerIndex>[has_fast_pdep() ? 1 : 0][static_cast<std::size_t>(pits)];
}

Expand expander(int pits) {
  const Expand wide = wide_expander(pits);
  return wide != nullptr ? wide : portable_expander(pits);
}

LayerExpand layer_expander(int pits) {
  const LayerExpand wide = wide_layer_expander(pits);
  return wide != nullptr ? wide : portable_layer_expander(pits);
}

}  // namespace ioiwari
