//===- gen-tmem-mma-goldens.cpp - CUTLASS's tcgen05.mma TMEM layouts ------===//
//
// Writes tmem-mma-layouts.txt: where CUTLASS's tcgen05.mma traits (4.2,
// mma_traits_sm100.hpp) put each element of an MMA's operands and result:
// - `d GROUP M N m n CTA LANE COLUMN`: the f32 accumulator of
//   SM100_MMA_F16BF16_SS (cta_group::1, M = 128) and _2x1SM_SS
//   (cta_group::2, M = 256): element (m, n) of the M x N result is in CTA
//   CTA of the pair (CLayout's thread), at that CTA's tensor-memory LANE and
//   COLUMN (UMMA::tmem_frg_{1,2}sm::make, logical tensor-memory addressing);
// - `a 1 M K m k LANE COLUMN HALF`: A in tensor memory for
//   SM100_MMA_F16BF16_TS (bf16, M = 128): element (m, k) in LANE, COLUMN,
//   16-bit half HALF (tmem_ptr<bf16> keeps the subword index);
// - `split 2 M N K OPERAND i j CTA ROW`: under _2x1SM_SS, element (i, j) of
//   A (M x K) or B (N x K) is in CTA CTA of the pair, row ROW of its tile
//   (ALayout / BLayout's thread and value).
// LayoutsTest.cpp checks tmemAccumulator, tmemOperandA and pairRow against
// every row. Host code only: see README.md for the build line.
//
//===----------------------------------------------------------------------===//

#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/tensor.hpp>

#include <cstdio>

namespace {

using namespace cute;

constexpr int kLaneShift = 16;

/// tmem_ptr<T>'s address of a logical offset (tmem_ptr::operator+).
template <class T> uint32_t addressOf(uint32_t offset) {
  return cute::rotr(offset, tmem_ptr<T>::OffsetShift);
}

template <int M, int N, class Op, int Group> void accumulator(FILE *out) {
  using Traits = MMA_Traits<Op>;
  using Frg = typename Traits::FrgTypeC;
  constexpr int rowsPerCta = M / Group;
  auto tmem = Frg::make(
      make_shape(make_shape(Int<rowsPerCta>{}, Int<N>{}), _1{}, _1{}));
  auto cLayout = typename Traits::CLayout{};
  for (int cta = 0; cta < Group; ++cta)
    for (int mm = 0; mm < rowsPerCta; ++mm)
      for (int n = 0; n < N; ++n) {
        int flat = cLayout(cta, make_coord(mm, n));
        int m = flat % M, col = flat / M;
        uint32_t offset = tmem.layout()(make_coord(make_coord(mm, n), 0, 0));
        uint32_t address = addressOf<float>(offset);
        std::fprintf(out, "d %d %d %d %d %d %d %u %u\n", Group, M, N, m, col,
                     cta, address >> kLaneShift, address & 0xffff);
      }
}

template <int N> void operandA(FILE *out) {
  using Op = SM100_MMA_F16BF16_TS<bfloat16_t, bfloat16_t, float, 128, N,
                                  UMMA::Major::K, UMMA::Major::K>;
  using Traits = MMA_Traits<Op>;
  constexpr int K = Traits::K;
  auto tmem = Traits::FrgTypeA::make(
      make_shape(make_shape(Int<128>{}, Int<K>{}), _1{}, _1{}));
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < K; ++k) {
      uint32_t address = addressOf<bfloat16_t>(
          tmem.layout()(make_coord(make_coord(m, k), 0, 0)));
      std::fprintf(out, "a 1 128 %d %d %d %u %u %u\n", K, m, k,
                   (address & 0x7fffffff) >> kLaneShift, address & 0xffff,
                   address >> 31);
    }
}

template <int M, int N> void pairSplit(FILE *out) {
  using Op = SM100_MMA_F16BF16_2x1SM_SS<bfloat16_t, bfloat16_t, float, M, N,
                                        UMMA::Major::K, UMMA::Major::K>;
  using Traits = MMA_Traits<Op>;
  constexpr int K = Traits::K;
  auto emit = [&](const char *operand, auto layout, int rows) {
    for (int cta = 0; cta < 2; ++cta)
      for (int row = 0; row < rows / 2; ++row)
        for (int k = 0; k < K; ++k) {
          int flat = layout(cta, make_coord(row, k));
          std::fprintf(out, "split 2 %d %d %d %s %d %d %d %d\n", M, N, K,
                       operand, flat % rows, flat / rows, cta, row);
        }
  };
  emit("A", typename Traits::ALayout{}, M);
  emit("B", typename Traits::BLayout{}, N);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen-tmem-mma-goldens OUT\n");
    return 1;
  }
  FILE *out = std::fopen(argv[1], "w");
  if (!out)
    return 1;
  std::fprintf(out,
               "# tcgen05.mma tensor-memory layouts from CUTLASS 4.2.0's cute "
               "(mma_traits_sm100.hpp); regenerate with "
               "gen-tmem-mma-goldens.cpp (README.md).\n"
               "# d GROUP M N m n CTA LANE COLUMN | a 1 M K m k LANE COLUMN "
               "HALF | split 2 M N K OPERAND i j CTA ROW\n");
  using BF = bfloat16_t;
  using K = UMMA::Major;
  accumulator<128, 64, SM100_MMA_F16BF16_SS<BF, BF, float, 128, 64, K::K, K::K>,
              1>(out);
  accumulator<256, 64,
              SM100_MMA_F16BF16_2x1SM_SS<BF, BF, float, 256, 64, K::K, K::K>,
              2>(out);
  operandA<64>(out);
  pairSplit<256, 64>(out);
  pairSplit<256, 256>(out);
  return std::fclose(out) == 0 ? 0 : 1;
}
