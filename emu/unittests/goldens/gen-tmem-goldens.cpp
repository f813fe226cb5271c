//===- gen-tmem-goldens.cpp - CUTLASS's tcgen05.ld/st 32x32b layouts ------===//
//
// Writes tmem-layouts.txt: for CUTLASS's 32dp32b TMEM copy atoms
// (SM100_TMEM_LOAD_32dp32b{1..128}x and SM100_TMEM_STORE_..., the
// tcgen05.ld/st .32x32b.xN shapes) the tensor-memory lane and column of
// each thread's each 32-bit register, relative to the atom's address:
// Copy_Traits' register-side layout gives the register's bits in the
// atom's value space, ValID maps them to tensor memory (columns in bits,
// lanes in TMEM::DP_b units). LayoutsTest.cpp checks tmem32x32b against
// every row. Host code only: see README.md for the build line.
//
//===----------------------------------------------------------------------===//

#include <cute/atom/copy_traits_sm100.hpp>

#include <cstdio>

namespace {

template <typename Traits, bool load>
void write(FILE *out, const char *what, int columns) {
  using namespace cute;
  // LOAD: registers are the destination; STORE: the source.
  using Registers = std::conditional_t<load, typename Traits::DstLayout,
                                       typename Traits::SrcLayout>;
  for (int thread = 0; thread < 32; ++thread)
    for (int reg = 0; reg < columns; ++reg) {
      int value = Registers{}(thread, 32 * reg);
      long bits = typename Traits::ValID{}(value);
      long lane = bits / TMEM::DP_b{};
      long column = bits % TMEM::DP_b{};
      if (column % 32) {
        std::fprintf(stderr, "%s: a register that is not a whole column\n",
                     what);
        std::exit(1);
      }
      std::fprintf(out, "%s %d %d %d %ld %ld\n", what, columns, thread, reg,
                   lane, column / 32);
    }
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gen-tmem-goldens OUT\n");
    return 1;
  }
  FILE *out = std::fopen(argv[1], "w");
  if (!out)
    return 1;
  std::fprintf(out,
               "# tcgen05.ld/st .32x32b.xN from CUTLASS 4.2.0's cute "
               "(copy_traits_sm100.hpp); regenerate with "
               "gen-tmem-goldens.cpp (README.md).\n"
               "# ld|st N THREAD REG LANE COLUMN: thread THREAD's register "
               "REG of the .xN shape holds tensor-memory lane LANE, column "
               "COLUMN, from the address's lane and column.\n");
  using namespace cute;
#define FA4_ATOMS(N)                                                           \
  write<Copy_Traits<SM100_TMEM_LOAD_32dp32b##N##x>, true>(out, "ld", N);       \
  write<Copy_Traits<SM100_TMEM_STORE_32dp32b##N##x>, false>(out, "st", N);
  FA4_ATOMS(1)
  FA4_ATOMS(2)
  FA4_ATOMS(4)
  FA4_ATOMS(8)
  FA4_ATOMS(16)
  FA4_ATOMS(32)
  FA4_ATOMS(64)
  FA4_ATOMS(128)
#undef FA4_ATOMS
  return std::fclose(out) == 0 ? 0 : 1;
}
