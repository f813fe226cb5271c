//===- Compile.h - attn.attention to PTX/cubin and a manifest ---*- C++ -*-===//
//
// The whole compiler as one pipeline for embedding compilers, and the final
// step that writes the artifacts (PTX, cubin, manifest.json) the runtime
// loads.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_PIPELINES_COMPILE_H
#define FA4_PIPELINES_COMPILE_H

#include "fa4/Dialect/Attn/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace fa4 {

/// Which lowering builds the kernel.
enum class KernelKind { Auto, FA3, FA4, Reference };

/// The planning options (chip, size hints) and the lowering's.
struct CompileOptions : public attn::PlanOptionsBase<CompileOptions> {
  Option<KernelKind> kernel{
      *this, "kernel",
      llvm::cl::desc("Kernel to lower to (sm_100a uses the reference kernel "
                     "until the tcgen05 lowering lands)"),
      llvm::cl::init(KernelKind::Auto),
      llvm::cl::values(clEnumValN(KernelKind::Auto, "auto",
                                  "fa3 on sm_90a, reference elsewhere"),
                       clEnumValN(KernelKind::FA3, "fa3",
                                  "TMA + wgmma in the FA3 structure (sm_90a)"),
                       clEnumValN(KernelKind::FA4, "fa4",
                                  "tcgen05 + TMEM in the FA4 structure "
                                  "(sm_100a; not yet run on hardware)"),
                       clEnumValN(KernelKind::Reference, "reference",
                                  "the SIMT correctness baseline (any chip)"))};
  Option<bool> pingPong{
      *this, "ping-pong",
      llvm::cl::desc("fa3 kernel: order the consumers' GEMM turns with named "
                     "barriers (FA3 ping-pong)"),
      llvm::cl::init(true)};
  Option<bool> intraWgOverlap{
      *this, "intra-wg-overlap",
      llvm::cl::desc("fa3 prefill kernel: the softmax of tile t runs while "
                     "the P V of tile t - 1 is in flight"),
      llvm::cl::init(true)};
  Option<bool> lazyRescale{
      *this, "lazy-rescale",
      llvm::cl::desc(
          "fa3 kernel: a row keeps its max until it grows by more "
          "than 2^8, and O is rescaled only when one did (Dv >= 128)"),
      llvm::cl::init(true)};
  Option<bool> tmaStoreO{
      *this, "tma-store-o",
      llvm::cl::desc("fa3 prefill kernel without a work loop: O leaves "
                     "through shared memory and TMA stores"),
      llvm::cl::init(true)};
  Option<bool> fuseWorkTiles{
      *this, "fuse-work-tiles",
      llvm::cl::desc("fa3 prefill kernel with a work loop: the next work "
                     "tile's first Q K^T is issued with this tile's last "
                     "P V, and O is written while it runs (measured slower; "
                     "off)"),
      llvm::cl::init(false)};
  Option<bool> narrowLastPV{
      *this, "narrow-last-pv",
      llvm::cl::desc("fa3 kernel: a work tile's last P V issues only the "
                     "MMA_K steps with keys the consumer's rows see "
                     "(measured no faster; off)"),
      llvm::cl::init(false)};
  Option<int64_t> loopProducerRegisters{
      *this, "loop-producer-registers",
      llvm::cl::desc("fa3 looped prefill kernel at Dv <= 128: the "
                     "producer's setmaxnreg budget (24: FA3's split; 32: 0.7% "
                     "faster; 40, the default: another 0.2-1.1%)"),
      llvm::cl::init(40)};
  Option<bool> twinOwnTiles{
      *this, "twin-own-tiles",
      llvm::cl::desc("fa3 looped twin, causal: each consumer's GEMMs stop at "
                     "its own last K/V tile (measured slower from boost and "
                     "at the sustained clock; off)"),
      llvm::cl::init(false)};
  Option<bool> l2EvictionHints{
      *this, "l2-eviction-hints",
      llvm::cl::desc("fa3 prefill: TMA loads of K and V evict last, of Q "
                     "and the O stores evict first (measured no faster; "
                     "off)"),
      llvm::cl::init(false)};
  Option<bool> kvMulticast{
      *this, "kv-multicast",
      llvm::cl::desc("fa3 prefill without a mask at Dv >= 128: pairs of CTAs "
                     "(clusters of two) multicast each K/V tile, half each "
                     "(on: +1% on average, a third fewer L2 reads)"),
      llvm::cl::init(true)};
  Option<bool> kvMulticastTwin{
      *this, "kv-multicast-twin",
      llvm::cl::desc("with kv-multicast, the looped twins in pairs of CTAs "
                     "too (on: 1.6% faster at d = 128, 5-6% at d = 256 "
                     "and 512 keys)"),
      llvm::cl::init(true)};
  Option<bool> kvMulticastCausal{
      *this, "kv-multicast-causal",
      llvm::cl::desc("with kv-multicast, the causal kernel without a work "
                     "loop in pairs too, each consumer stopping at its own "
                     "diagonal, where it only runs at "
                     "kv-multicast-causal-min-seq-kv keys or more (on: "
                     "2.3-3.4% faster from 8192 keys)"),
      llvm::cl::init(true)};
  Option<int64_t> kvMulticastCausalMinSeqKV{
      *this, "kv-multicast-causal-min-seq-kv",
      llvm::cl::desc("kv-multicast-causal pairs a kernel whose every launch "
                     "has at least this many keys (a static Skv, or above "
                     "the looped twin's bound; 0: every causal kernel)"),
      llvm::cl::init(2048)};
  Option<int64_t> polyExp2Period{
      *this, "poly-exp2-period",
      llvm::cl::desc("fa3 kernel: one exp2 of the softmax in this many on "
                     "the FMA pipe (0: every exp2 on MUFU; measured "
                     "slower on the H200)"),
      llvm::cl::init(0)};
  Option<int64_t> softmaxReductionChains{
      *this, "softmax-reduction-chains",
      llvm::cl::desc("fa3 kernel: each softmax row's max and sum reduced in "
                     "this many interleaved chains (1, the default: one "
                     "chain; four measured no faster on the H200)"),
      llvm::cl::init(1)};
  Option<int64_t> l2SectionBytes{
      *this, "l2-section-bytes",
      llvm::cl::desc("prefill under a causal or window mask: heaviest "
                     "work tiles first within sections of heads whose K "
                     "and V fit this L2 budget (0: over every head)"),
      llvm::cl::init(33554432)};
  Option<bool> pairRowBlocks{
      *this, "pair-row-blocks",
      llvm::cl::desc("fa3 looped twin under a causal mask: row blocks "
                     "R - 1 - k and k of a head to one CTA, for an even "
                     "static stride (0: the L2 sections)"),
      llvm::cl::init(true)};
  Option<bool> foldKeyBound{
      *this, "fold-key-bound",
      llvm::cl::desc("fa3 kernel: a masked tile tests key <= min(upper "
                     "diagonal, Skv - 1), one compare per score (measured "
                     "faster; 0 keeps both compares)"),
      llvm::cl::init(true)};
  Option<bool> trace{
      *this, "trace",
      llvm::cl::desc("fa3 prefill kernel with LSE, profiling only: phase "
                     "times over the LSE rows (bench/trace_phases.py)"),
      llvm::cl::init(false)};
  Option<bool> persistent{
      *this, "persistent",
      llvm::cl::desc("fa3 prefill kernel: persistent CTAs (one per SM, "
                     "looping over work tiles) at every Skv"),
      llvm::cl::init(false)};
  Option<int64_t> persistentMaxSeqKV{
      *this, "persistent-max-seq-kv",
      llvm::cl::desc("fa3 prefill kernel: persistent CTAs (a looped twin "
                     "kernel) up to this Skv, one CTA per work tile above "
                     "(0: never; -1: without a window mask 2048 for Dv <= "
                     "64, 4096 for Dv <= 128, 512 for Dv = 256 at 64-key "
                     "tiles and, under a causal mask at Dv > 64, only where "
                     "the twin stores O by TMA too)"),
      llvm::cl::init(-1)};
  Option<bool> persistentDecode{
      *this, "persistent-decode",
      llvm::cl::desc("fa3 decode kernel without a split (large batches): "
                     "persistent CTAs, one per SM, looping over work items"),
      llvm::cl::init(true)};
  Option<bool> decodeVariants{
      *this, "decode-variants",
      llvm::cl::desc("fa3/fa4 kernels of unknown, unhinted query length: "
                     "also compile a variant planned for one query row "
                     "(attn-decode-variants), which the runtime launches "
                     "at decode shapes"),
      llvm::cl::init(true)};
};

/// The compile pipeline's planning: decode variants (attn-decode-variants,
/// where `decode-variants` asks for them) and the attn planning passes.
void buildCompilePlanning(mlir::OpPassManager &pm,
                          const CompileOptions &options);

/// Plans every attn.attention, lowers it to a kernel in a gpu.module, and
/// serializes that module to PTX (a gpu.binary, format=isa: no CUDA needed).
void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options);

/// Registers `fa4-compile` with the pass registry.
void registerCompilePipeline();

/// What writeArtifacts wrote, per kernel.
struct KernelArtifacts {
  std::string kernel;
  std::string ptxPath;
  /// Empty when no ptxas was found.
  std::string cubinPath;
  std::string manifestPath;
  /// ptxas -v's resource report (registers, spills, shared memory).
  std::string ptxasReport;
};

/// After buildCompilePipeline: for every attn.attention, writes
/// `<dir>/<kernel>/{<kernel>.ptx, <kernel>.cubin, manifest.json}`. The cubin
/// is assembled with `ptxasPath` when it is non-empty.
mlir::FailureOr<llvm::SmallVector<KernelArtifacts>>
writeArtifacts(mlir::ModuleOp module, llvm::StringRef outputDir,
               llvm::StringRef ptxasPath);

} // namespace fa4

#endif // FA4_PIPELINES_COMPILE_H
