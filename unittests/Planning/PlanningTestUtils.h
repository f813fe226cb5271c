//===- PlanningTestUtils.h - Shared helpers of the planner tests -*- C++
//-*-===//

#ifndef FA4_UNITTESTS_PLANNING_PLANNINGTESTUTILS_H
#define FA4_UNITTESTS_PLANNING_PLANNINGTESTUTILS_H

#include "fa4/Planning/Planners.h"

#include <algorithm>
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

/// The keys split-K's kvSpan must cover, counted row by row: for every work
/// item, the union of the bottom-right-aligned window ranges of the query
/// positions its rows hold, clipped to [0, seqKV); the most over the work
/// items. A work item is BM x ctaGroup rows: BM_eff x ctaGroup whole
/// positions, or under tilesHeads() BM consecutive (position, head) rows.
inline int64_t bruteForceKvSpan(const AttnProblem &problem,
                                const AttnConfig &config) {
  int64_t seqQ = problem.seqQ, seqKV = problem.seqKV;
  if (problem.mask != MaskKind::Window || problem.windowLeft < 0)
    return seqKV;
  int64_t diagonal = seqKV - seqQ;
  int64_t rowsPerItem = int64_t(config.bm) * config.ctaGroup();
  int64_t group = config.tilesHeads() ? config.group : 1;
  int64_t positionsPerItem =
      config.tilesHeads() ? 0 : int64_t(config.bmEff()) * config.ctaGroup();
  int64_t totalRows = config.tilesHeads() ? group * seqQ : seqQ;
  int64_t step = config.tilesHeads() ? rowsPerItem : positionsPerItem;
  int64_t span = 0;
  for (int64_t firstRow = 0; firstRow < totalRows; firstRow += step) {
    int64_t lastRow = std::min(firstRow + step, totalRows) - 1;
    int64_t lo = seqKV, hi = -1;
    for (int64_t i = firstRow / group; i <= lastRow / group; ++i) {
      int64_t rowLo = std::max<int64_t>(0, i + diagonal - problem.windowLeft);
      int64_t rowHi =
          problem.windowRight < 0
              ? seqKV - 1
              : std::min(seqKV - 1, i + diagonal + problem.windowRight);
      if (rowLo > rowHi)
        continue;
      lo = std::min(lo, rowLo);
      hi = std::max(hi, rowHi);
    }
    span = std::max(span, hi >= lo ? hi - lo + 1 : 0);
  }
  return span;
}

} // namespace fa4

#endif // FA4_UNITTESTS_PLANNING_PLANNINGTESTUTILS_H
