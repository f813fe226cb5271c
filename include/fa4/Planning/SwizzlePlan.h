//===- SwizzlePlan.h - TMA boxes and swizzle per operand --------*- C++ -*-===//
//
// The TMA box of every shared-memory operand and the swizzle it is stored
// with, so the MMA descriptors, the TMA loads and the launch manifest agree.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_SWIZZLEPLAN_H
#define FA4_PLANNING_SWIZZLEPLAN_H

#include "fa4/Planning/Config.h"
#include "fa4/Target/HardwareConstants.h"

namespace fa4 {

struct OperandTile {
  /// One TMA box: rows of `boxColumns` contiguous elements.
  int boxRows = 0;
  int boxColumns = 0;
  int elementBytes = 0;
  /// 128, 64, 32, or 0 for no swizzle (TMA SWIZZLE_128B/64B/32B/NONE).
  int swizzleBytes = 0;

  int rowBytes() const { return boxColumns * elementBytes; }
};

/// How K and V reach shared memory. Every path writes the same swizzled
/// boxes, so the MMA descriptors do not depend on it.
enum class KvPath {
  /// One tensor map over contiguous K and V.
  Contiguous,
  /// A paged cache whose pages hold whole TMA boxes: boxes of at most a
  /// page's rows, each loaded from the page the block table names.
  PageBoxes,
  /// Pages too small for a box each: each key row is copied from its page
  /// by cp.async, 16 bytes a thread (sm_90a).
  GatherCpAsync,
  /// Pages too small for a box each: TMA tile::gather4, four rows of any
  /// pages per instruction (sm_100a).
  Gather4,
};

llvm::StringRef kvPathName(KvPath path);

/// P has no entry: it stays in TMEM (sm_100a) or registers (sm_90a, wgmma
/// with A from registers), never in shared memory.
struct SwizzlePlan {
  OperandTile q;
  OperandTile k;
  OperandTile v;
  OperandTile o;
  KvPath kvPath = KvPath::Contiguous;
};

/// A swizzle atom is 8 rows of the swizzle width (PTX ISA, "Shared memory
/// layout and swizzling"); its pattern repeats every atom.
constexpr int kSwizzleAtomRows = 8;

/// The rule for one box. cuTensorMapEncodeTiled (CUDA 13.0 cuda.h): "When
/// interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and swizzle is not
/// CU_TENSOR_MAP_SWIZZLE_NONE, the bounding box inner dimension (computed as
/// boxDim[0] multiplied by element size derived from tensorDataType) must be
/// less than or equal to the swizzle size" (32, 64 or 128 bytes). A box row
/// narrower than the span is legal for TMA but does not fill the 8-row x
/// span swizzle atom the MMA descriptors' swizzled layouts assume, so the
/// swizzle is the one whose span EQUALS the row: 32B, 64B or 128B for rows
/// of exactly 32, 64 or 128 bytes, else none (e.g. a 96-byte row). Boxes of
/// fewer than 8 rows cannot fill an atom and get none. A row wider than
/// maxSwizzleBytes(elementBytes) fits no swizzle span: that is a failure,
/// since the planner cuts depth into boxes of one span.
llvm::FailureOr<int> selectSwizzleBytes(int boxRows, int rowBytes,
                                        int elementBytes);

llvm::FailureOr<SwizzlePlan> selectSwizzle(const AttnProblem &problem,
                                           const AttnConfig &config,
                                           const TargetInfo &target,
                                           llvm::raw_ostream &whyNot);

void explain(const SwizzlePlan &plan, const AttnConfig &config,
             llvm::raw_ostream &os);

} // namespace fa4

#endif // FA4_PLANNING_SWIZZLEPLAN_H
