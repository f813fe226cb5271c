//===- Planners.h - All planning decisions for one attention op -*- C++ -*-===//
//
// The planners run in pipeline order, each reading only the plans before it:
// config -> split-K -> TMEM -> swizzle -> shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_PLANNERS_H
#define FA4_PLANNING_PLANNERS_H

#include "fa4/Planning/Config.h"
#include "fa4/Planning/SmemPlan.h"
#include "fa4/Planning/SplitKPlan.h"
#include "fa4/Planning/SwizzlePlan.h"
#include "fa4/Planning/TmemPlan.h"

namespace fa4 {

struct FullPlan {
  AttnConfig config;
  SplitKPlan splitK;
  TmemPlan tmem;
  SwizzlePlan swizzle;
  SmemPlan smem;
};

llvm::FailureOr<FullPlan> planAll(const AttnProblem &problem,
                                  const TargetInfo &target,
                                  llvm::raw_ostream &whyNot);

void explain(const FullPlan &plan, llvm::raw_ostream &os);

} // namespace fa4

#endif // FA4_PLANNING_PLANNERS_H
