//===- TmemPlan.h - Tensor-memory column map (sm_100a) ----------*- C++ -*-===//
//
// Where S, P and O live in the 512 TMEM columns of a CTA (FA4Config.TMEM_*).
// sm_90a has no TMEM: S and O stay in registers and the plan is empty.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_TMEMPLAN_H
#define FA4_PLANNING_TMEMPLAN_H

#include "fa4/Planning/Config.h"

namespace fa4 {

struct TmemPlan {
  bool hasTmem = false;
  /// First column of each accumulator; -1 where absent (O1 under singleO,
  /// everything without TMEM).
  int tmemS0 = -1;
  int tmemS1 = -1;
  int tmemO0 = -1;
  int tmemO1 = -1;
  /// P (the softmax output) overwrites the upper columns of its S tile.
  int tmemP0 = -1;
  int tmemP1 = -1;
  /// Columns of one S, O and P tile.
  int sColumns = 0;
  int oColumns = 0;
  int pColumns = 0;
  /// Columns the map uses and the power of two tcgen05.alloc requests.
  int tmemUsed = 0;
  int tmemAllocColumns = 0;
};

llvm::FailureOr<TmemPlan> planTmem(const AttnProblem &problem,
                                   const AttnConfig &config,
                                   const TargetInfo &target,
                                   llvm::raw_ostream &whyNot);

/// Prints the map; for a plan without TMEM (sm_90a, or a default TmemPlan)
/// the one line "tmem: none; <chip> keeps S and O in registers", which
/// attn-explain prints too when the op has no #attn.tmem.
void explain(const TmemPlan &plan, const AttnConfig &config,
             llvm::raw_ostream &os);

} // namespace fa4

#endif // FA4_PLANNING_TMEMPLAN_H
