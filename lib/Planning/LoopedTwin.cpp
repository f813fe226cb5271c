//===- LoopedTwin.cpp - Where the sm_90a looped twin runs -----------------===//

#include "fa4/Planning/LoopedTwin.h"

using namespace fa4;

bool fa4::plansLoopedTwin(const AttnProblem &problem, const AttnConfig &config,
                          const SplitKPlan &splitK) {
  // As the lowering: a dynamic Skv, whatever its hint, gets the twin for
  // the short runs and the plain kernel for the long ones.
  int64_t seqKV = problem.seqKV;
  // Past Dv = 128 only at tiles narrow enough (its own plan,
  // fa4::twinProblem) to leave the twin registers and room to stage O.
  // Not for packed or paged sequences (fa4::twinProblem).
  return config.chip == Chip::SM90a && splitK.partitions <= 1 &&
         problem.sequences == SequenceLayout::Dense && !config.fuseGqa &&
         (config.paddedOvDepth <= kShallowTwinMaxOvDepth ||
          config.bn <= kDeepTwinMaxBN) &&
         problem.mask != MaskKind::Window &&
         (seqKV == kDynamic ||
          seqKV <= loopedTwinMaxSeqKV(config, problem.mask));
}

int64_t fa4::loopedTwinMaxSeqKV(const AttnConfig &twinConfig, MaskKind mask) {
  if (twinConfig.paddedOvDepth > kShallowTwinMaxOvDepth)
    return kDeepTwinMaxSeqKV;
  if (twinConfig.paddedOvDepth > kThreeConsumerMaxDepth)
    return kMidDepthTwinMaxSeqKV;
  return shallowTwinMaxSeqKV(mask);
}

int64_t fa4::shallowTwinMaxSeqKV(MaskKind mask) {
  return mask == MaskKind::None ? kUnmaskedShallowTwinMaxSeqKV
                                : kLoopedTwinMaxSeqKV;
}
