//===- PlanningTestUtils.h - Shared helpers of the planner tests -*- C++
//-*-===//

#ifndef FA4_UNITTESTS_PLANNING_PLANNINGTESTUTILS_H
#define FA4_UNITTESTS_PLANNING_PLANNINGTESTUTILS_H

#include "fa4/Planning/Planners.h"

#include <string>

namespace fa4 {

/// A BSHD problem: `numQHeads` q-heads over `numKVHeads` kv-heads.
inline AttnProblem makeProblem(int64_t batch, int64_t seqQ, int64_t seqKV,
                               int numQHeads, int numKVHeads, int qkDepth,
                               int ovDepth,
                               ElementType type = ElementType::BF16) {
  AttnProblem problem;
  problem.elementType = type;
  problem.batch = batch;
  problem.seqQ = seqQ;
  problem.seqKV = seqKV;
  problem.numQHeads = numQHeads;
  problem.numKVHeads = numKVHeads;
  problem.qkDepth = qkDepth;
  problem.ovDepth = ovDepth;
  return problem;
}

/// Runs every planner; on failure returns the diagnostic in `whyNot`.
inline llvm::FailureOr<FullPlan> planFor(const AttnProblem &problem, Chip chip,
                                         std::string &whyNot) {
  whyNot.clear();
  llvm::raw_string_ostream os(whyNot);
  return planAll(problem, getTargetInfo(chip), os);
}

} // namespace fa4

#endif // FA4_UNITTESTS_PLANNING_PLANNINGTESTUTILS_H
