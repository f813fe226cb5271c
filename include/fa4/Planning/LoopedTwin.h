//===- LoopedTwin.h - Where the sm_90a looped twin runs ---------*- C++ -*-===//
//
// The planner's rule for the looped (persistent) twin of an sm_90a prefill
// kernel: whether a plan gets one, and up to how many keys it runs. Both
// attn-select-config (the twin's own plan) and attn-plan-smem (its staging)
// read it, so it sits below both.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_LOOPEDTWIN_H
#define FA4_PLANNING_LOOPEDTWIN_H

#include "fa4/Planning/AttnProblem.h"
#include "fa4/Planning/Config.h"
#include "fa4/Planning/SplitKPlan.h"

#include <cstdint>

namespace fa4 {

/// sm_90a prefill runs on persistent CTAs, a looped twin of its kernel, up
/// to this many keys by the planner's rule (D-12).
constexpr int64_t kLoopedTwinMaxSeqKV = 2048;
/// Without a mask at Dv <= kThreeConsumerMaxDepth the twin (two consumers)
/// runs only up to this many keys: at 2048 the plain kernel's three
/// consumers measured +2.4% / +3.0% at the sustained clock, where under a
/// causal mask they lose 4-9% (D-12).
constexpr int64_t kUnmaskedShallowTwinMaxSeqKV = 1024;
/// A looped twin past Dv = 128 (d = 256) needs tiles of at most this many
/// keys: its O (Dv / 2 registers a thread) and its O staging past the plan
/// leave no room at the plain kernel's 80. It runs up to
/// kDeepTwinMaxSeqKV keys: against the plain kernel it measured +3% / +9%
/// (none / causal) at 512 keys, 0 to -5% at 1024 and -5 to -8% at 2048,
/// where it spills (D-19).
constexpr int64_t kDeepTwinMaxBN = 64;
constexpr int64_t kDeepTwinMaxSeqKV = 512;
/// Past this (padded) Dv a looped twin is deep: kDeepTwinMaxBN and
/// kDeepTwinMaxSeqKV apply.
constexpr int64_t kShallowTwinMaxOvDepth = 128;
/// Past kThreeConsumerMaxDepth (Config.h), up to kShallowTwinMaxOvDepth,
/// the looped twin runs up to this many keys: at d = 128 and 4096 keys it
/// measured +2.2% (non-causal) and +4.6% (causal) over the plain kernel,
/// whose every new CTA waits for its Q, and -1.4% / +2.2% at 8192
/// (D-12). At Dv <= 64 the plain kernel
/// has three consumers past 2048 keys, which the twin's two do not match.
constexpr int64_t kMidDepthTwinMaxSeqKV = 4096;

/// Whether the planner's rule builds a looped twin for this plan: sm_90a
/// prefill (no split-K, no fused GQA) with Dv <= 128 (past it at BN <=
/// kDeepTwinMaxBN) and no window mask, whose Skv is dynamic (a hint does
/// not count: the twin serves the short runs) or at most the twin's bound
/// (loopedTwinMaxSeqKV).
bool plansLoopedTwin(const AttnProblem &problem, const AttnConfig &config,
                     const SplitKPlan &splitK);

/// The Skv up to which the looped twin planned as `twinConfig` runs under
/// `mask`: up to kThreeConsumerMaxDepth kLoopedTwinMaxSeqKV, or
/// kUnmaskedShallowTwinMaxSeqKV without a mask; kMidDepthTwinMaxSeqKV up
/// to kShallowTwinMaxOvDepth, kDeepTwinMaxSeqKV past it.
int64_t loopedTwinMaxSeqKV(const AttnConfig &twinConfig, MaskKind mask);

/// The shallow twin's bound (Dv <= kThreeConsumerMaxDepth) under `mask`:
/// kUnmaskedShallowTwinMaxSeqKV without a mask, else kLoopedTwinMaxSeqKV.
int64_t shallowTwinMaxSeqKV(MaskKind mask);

} // namespace fa4

#endif // FA4_PLANNING_LOOPEDTWIN_H
