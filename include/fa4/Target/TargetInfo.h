//===- TargetInfo.h - Hardware facts of the fa4 targets ---------*- C++ -*-===//
//
// The facts the planners read about sm_90a and sm_100a, in one place, each
// with its source. Nothing here is a tuning choice: choices live in the
// planners (lib/Planning) and say there which fact they lean on.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_TARGET_TARGETINFO_H
#define FA4_TARGET_TARGETINFO_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace fa4 {

enum class Chip { SM90a, SM100a };

struct TargetInfo {
  Chip chip;
  /// Streaming multiprocessors of the reference part (H100/H200 SXM, B200).
  int numSMs;
  /// Dynamic shared memory one block may use.
  int64_t smemCarveoutBytes;
  /// Tensor memory (tcgen05), absent before sm_100.
  bool hasTmem;
  int tmemColumns;
  int tmemLanes;
  /// tcgen05.alloc takes a power-of-two column count in this range.
  int tmemMinAllocColumns;
  int tmemMaxAllocColumns;
  /// Thread-block cluster sizes: the portable limit every launch may use and
  /// the limit reachable with cudaFuncAttributeNonPortableClusterSizeAllowed.
  int portableClusterSize;
  int nonPortableClusterSize;
  /// The most partitions a split-K cluster gets: a measured preference at or
  /// below the non-portable limit (a larger cluster needs that many free SMs
  /// in one GPC, so fewer of them run at once).
  int splitKClusterSize;
  /// The most stages a separate K or V ring gets (a shared K/V ring gets
  /// twice as many slots): what keeps enough bytes in flight for this
  /// chip's memory latency with small tiles, where shared memory allows.
  int maxKvStagesPerRing;
  int maxThreadsPerBlock;
  /// Threads of the fa4 kernel shape on this chip (docs/Design.md, "Kernel
  /// shape").
  int kernelThreads;
  /// Bytes of one mbarrier object (a 64-bit word).
  int mbarrierBytes;
  /// Largest TMA box extent per dimension (cuTensorMapEncodeTiled).
  int maxTmaBoxRows;
  /// cuTensorMapEncodeTiled: the inner box extent times the element size is
  /// a multiple of 16 bytes.
  int tmaRowGranuleBytes;
  /// Rows of the accumulator tile one warpgroup's MMA produces: wgmma's
  /// M = 64 (two rows a thread), tcgen05's M = 128 (a row a thread).
  int mmaTileRows;

  /// MMA K extent of one tensor-core instruction for an operand of
  /// `elementBits` bits: 32 bytes of K per instruction on both chips.
  int mmaK(unsigned elementBits) const { return elementBits == 8 ? 32 : 16; }
};

const TargetInfo &getTargetInfo(Chip chip);

/// setmaxnreg's split, per thread, of the registers an sm_90a CTA of one
/// producer and `numConsumers` consumer warpgroups launches with at one CTA
/// per SM: the planner sizes tiles by the consumer's share, and the kernel
/// asks for both.
struct WarpgroupRegisters {
  int producer, consumer;
};
WarpgroupRegisters hopperWarpgroupRegisters(int numConsumers);
std::optional<Chip> parseChip(llvm::StringRef name);
llvm::StringRef chipName(Chip chip);

} // namespace fa4

#endif // FA4_TARGET_TARGETINFO_H
