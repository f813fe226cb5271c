//===- AttnProblem.h - What an attn.attention op asks for -------*- C++ -*-===//
//
// The planners' view of one attention op: shapes, types and mask, with no MLIR
// types, so gtests can build problems directly.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PLANNING_ATTNPROBLEM_H
#define FA4_PLANNING_ATTNPROBLEM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace fa4 {

/// A size known only at run time (batch, sequence lengths).
constexpr int64_t kDynamic = -1;

/// sm_90a's default cap on keys per KV tile under a causal mask: a 128-row
/// block's causal range ends on a 128-key boundary, so no key past its
/// diagonal tile is multiplied (D-15).
constexpr int64_t kDefaultCausalBlockN = 128;
/// The cap applies up to this Skv (or when Skv is unknown); past it the
/// masked keys are under 2% of the work and the wider tile is faster.
constexpr int64_t kCausalBlockNMaxSeqKV = 8192;

enum class ElementType { BF16, F16, F8E4M3FN };

unsigned elementBits(ElementType type);
unsigned elementBytes(ElementType type);
llvm::StringRef elementTypeName(ElementType type);

enum class MaskKind { None, Causal, Window };

llvm::StringRef maskKindName(MaskKind mask);

/// How a batch's sequences are laid out: one Sq and Skv for every sequence
/// (BSHD), packed along one token dimension with per-sequence offsets
/// (attn.varlen_attention), or K and V in a paged cache
/// (attn.paged_attention).
enum class SequenceLayout { Dense, Packed, Paged };

llvm::StringRef sequenceLayoutName(SequenceLayout layout);

/// Shapes follow docs/Design.md (BSHD): Q [batch, seqQ, numQHeads, qkDepth],
/// K [batch, seqKV, numKVHeads, qkDepth], V [batch, seqKV, numKVHeads,
/// ovDepth], O [batch, seqQ, numQHeads, ovDepth], LSE [batch, numQHeads, seqQ].
struct AttnProblem {
  /// Q, K and V share one element type; O may differ (f8 inputs write bf16).
  ElementType elementType = ElementType::BF16;
  ElementType outputElementType = ElementType::BF16;
  int64_t batch = 1;
  int64_t seqQ = 1;
  int64_t seqKV = 1;
  int numQHeads = 1;
  int numKVHeads = 1;
  int qkDepth = 128;
  int ovDepth = 128;
  MaskKind mask = MaskKind::None;
  /// Window half-widths around the bottom-right diagonal; -1 is unbounded.
  int64_t windowLeft = -1;
  int64_t windowRight = -1;
  bool hasLse = false;
  /// Keys per KV page; 0 means contiguous K/V.
  int pageSize = 0;
  /// Packed and paged problems have no one Sq and Skv: seqQ and seqKV are
  /// kDynamic and their hints stand for a typical sequence.
  SequenceLayout sequences = SequenceLayout::Dense;

  /// Sizes the kernel is expected to see most often, used in place of a
  /// dynamic batch/seqQ/seqKV by performance decisions only (GQA fusion and
  /// split-K); the kernel stays correct for every run-time size. kDynamic
  /// means no hint: those decisions then take their conservative side (no
  /// fusion, no split).
  int64_t batchHint = kDynamic;
  int64_t seqQHint = kDynamic;
  int64_t seqKVHint = kDynamic;
  /// Keys per KV tile asked for by the user (a tuning override); 0 lets the
  /// planner choose. It must be one the planner could have chosen: a
  /// multiple of the MMA N granule within the chip's limits.
  int64_t blockN = 0;
  /// sm_90a under a causal mask: at most this many keys per KV tile when
  /// the planner would choose more (0: no cap).
  int64_t causalBlockN = kDefaultCausalBlockN;
  /// sm_90a prefill: consumer warpgroups of 64 rows each, 2 (BM = 128) or 3
  /// (BM = 192, FA3's tile at d = 64); 0 lets the planner choose.
  int64_t consumerWarpgroups = 0;
  /// At most this many K/V ring slots (0: as many as fit, up to the chip's
  /// cap): frees shared memory for what a lowering stages past the plan.
  int64_t maxKvStages = 0;
  /// Split-K tuning overrides: how many partitions (0: the planner's rule)
  /// and whether they combine through the global workspace even when they
  /// fit a cluster. They apply where the planner has the sizes to split.
  int64_t splitKPartitions = 0;
  bool splitKWorkspace = false;

  /// Q heads per KV head.
  int group() const { return numQHeads / numKVHeads; }
  /// The static size, else the hint, else kDynamic.
  int64_t plannedBatch() const { return batch != kDynamic ? batch : batchHint; }
  int64_t plannedSeqQ() const { return seqQ != kDynamic ? seqQ : seqQHint; }
  int64_t plannedSeqKV() const { return seqKV != kDynamic ? seqKV : seqKVHint; }
};

/// Checks the sizes and hints every planner that reads them relies on: a
/// static size is >= 1 or kDynamic, a hint is kDynamic (-1, none) or >= 1.
/// Each planner that reads sizes calls it itself, since a pass may run it
/// alone (attn-plan-splitk with batch-hint=0 must not divide by zero).
llvm::LogicalResult validateSizes(const AttnProblem &problem,
                                  llvm::raw_ostream &whyNot);

} // namespace fa4

#endif // FA4_PLANNING_ATTNPROBLEM_H
