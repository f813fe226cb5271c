//===- TmemPlan.cpp - Tensor-memory column map (sm_100a) ------------------===//
//
// FA4's map (docs/Design.md): S0 = 0, S1 = S0 + S, O0 = S1 + S, O1 = O0 + O,
// where an f32 accumulator of N columns takes N / mPack TMEM columns (32-bit
// cells, one row per lane, two rows per lane when 64-row tiles are packed). The
// softmax warpgroup reads its whole S row into registers and writes P back
// over the upper part of the same columns, P0 = S0 + S - P: P packs
// 32 / bits(P) elements per column, so a 16-bit P takes the upper half of S.
// O1 is absent in singleO mode. tcgen05.alloc then takes the next power of
// two >= the columns used, at least 32.
//
//===----------------------------------------------------------------------===//

#include "fa4/Planning/TmemPlan.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace fa4;

/// TMEM cells are 32 bits wide.
static constexpr int kTmemCellBits = 32;

llvm::FailureOr<TmemPlan> fa4::planTmem(const AttnProblem &problem,
                                        const AttnConfig &config,
                                        const TargetInfo &target,
                                        llvm::raw_ostream &whyNot) {
  TmemPlan plan;
  if (!target.hasTmem)
    return plan;

  int packedBits = kTmemCellBits * config.mPack;
  plan.hasTmem = true;
  plan.sColumns = config.bn / config.mPack;
  plan.oColumns = config.paddedOvDepth / config.mPack;
  // P is the MMA operand type: the input element type (FA4 keeps P in the
  // same precision as V for the P@V MMA kind).
  plan.pColumns = config.bn * int(elementBits(config.elementType)) / packedBits;
  int numO = config.singleO ? 1 : 2;
  plan.tmemUsed = 2 * plan.sColumns + numO * plan.oColumns;
  if (plan.tmemUsed > target.tmemColumns) {
    whyNot << "TMEM plan needs " << plan.tmemUsed << " columns (S0,S1 = 2x"
           << plan.sColumns << ", " << (numO == 2 ? "O0,O1 = 2x" : "O0 = ")
           << plan.oColumns << ") but " << chipName(target.chip) << " has "
           << target.tmemColumns;
    return llvm::failure();
  }
  plan.tmemS0 = 0;
  plan.tmemS1 = plan.tmemS0 + plan.sColumns;
  plan.tmemO0 = plan.tmemS1 + plan.sColumns;
  plan.tmemO1 = config.singleO ? -1 : plan.tmemO0 + plan.oColumns;
  plan.tmemP0 = plan.tmemS0 + plan.sColumns - plan.pColumns;
  plan.tmemP1 = plan.tmemS1 + plan.sColumns - plan.pColumns;
  plan.tmemAllocColumns =
      std::max<int>(target.tmemMinAllocColumns,
                    int(llvm::PowerOf2Ceil(uint64_t(plan.tmemUsed))));
  return plan;
}

void fa4::explain(const TmemPlan &plan, const AttnConfig &config,
                  llvm::raw_ostream &os) {
  if (!plan.hasTmem) {
    os << "tmem: none; " << chipName(config.chip)
       << " keeps S and O in registers\n";
    return;
  }
  const TargetInfo &target = getTargetInfo(config.chip);
  os << "tmem: S0 = " << plan.tmemS0 << ", S1 = " << plan.tmemS1
     << ", O0 = " << plan.tmemO0;
  if (plan.tmemO1 >= 0)
    os << ", O1 = " << plan.tmemO1;
  os << ", P0 = " << plan.tmemP0 << ", P1 = " << plan.tmemP1 << "\n";
  os << "  S tiles take BN";
  if (config.mPack > 1)
    os << " / " << config.mPack;
  os << " = " << plan.sColumns << " columns and O tiles Dv";
  if (config.mPack > 1)
    os << " / " << config.mPack << " (64-row tiles packed two rows per lane)";
  os << " = " << plan.oColumns << "; "
     << (config.singleO ? "singleO: one O tile" : "one O tile per Q tile")
     << "\n";
  os << "  P (" << elementTypeName(config.elementType) << ", "
     << kTmemCellBits / elementBits(config.elementType)
     << " per 32-bit column) overwrites the upper " << plan.pColumns
     << " columns of its S tile after softmax has read S\n";
  os << "  used " << plan.tmemUsed << " of " << target.tmemColumns
     << " columns; tcgen05.alloc " << plan.tmemAllocColumns
     << " (a power of two in [" << target.tmemMinAllocColumns << ", "
     << target.tmemMaxAllocColumns << "])\n";
}
