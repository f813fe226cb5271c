//===- Passes.td - fa4 conversion passes -------------------*- tablegen -*-===//

#ifndef FA4_CONVERSION_PASSES_TD
#define FA4_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

// An option only one chip's kernel builder reads. Set away from its default
// for a kernel of the other chip, the pass refuses it: it would do nothing.
// The pipeline offers the groups (cmake/gen-pass-options.py), and the
// builders take their chip's group (lib/Conversion/AttnToFA4/Kernels.h).
class KernelOption<string chipName, string varName, string arg,
                   string valueType, string default, string desc>
    : Option<varName, arg, valueType, default, desc> {
  string kernelChip = chipName;
}

def ConvertAttnToReferenceKernel
    : Pass<"convert-attn-to-reference-kernel", "mlir::ModuleOp"> {
  let summary = "Lower attn.attention to the SIMT reference kernel";
  let description = [{
    Builds one kernel per attn.attention, each in its own gpu.module for the
    chip (so that each serializes to its own PTX): a warp per (batch, query head, query row), online softmax
    in f32 (exp2, scale folded with log2(e)), every mask, GQA, Dqk != Dv and
    LSE. No tensor cores: this is the correctness baseline and the first
    client of the kernel ABI. The op records its kernel and ABI (symbol,
    parameters, grid, block, cluster, shared memory, alignment) in `fa4.abi`
    for the manifest writer. The chip comes from #attn.config when present.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_100a\"",
           "Target chip when the op has no #attn.config">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::LLVM::LLVMDialect", "mlir::math::MathDialect",
    "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect",
    "fa4::kernel::FA4Dialect"
  ];
}

def ConvertAttnToFA4 : Pass<"convert-attn-to-fa4", "mlir::ModuleOp"> {
  let summary = "Write each planned attn.attention as a kernel in the fa4 dialect";
  let description = [{
    Reads #attn.config, #attn.swizzle and #attn.smem and builds, in its own
    gpu.module, a `gpu.func` kernel in the fa4 kernel dialect with the FA3
    structure: `fa4.warp_specialize` into a producer warpgroup (TMA loads of
    Q and of K/V tiles into a ring of mbarrier-guarded slots, setmaxnreg
    down) and `num_q` consumer warpgroups (setmaxnreg up), each with a
    64-row Q tile: `fa4.mma` for S = Q K^T, `fa4.mask` on edge tiles,
    `fa4.softmax`, and `fa4.mma` with P from the softmax for O += P V, one
    tile behind; then `fa4.epilogue`. Work decoding, the K/V loop and the
    ping-pong turns are scf/arith; nothing in the kernel names a target
    instruction. Records the kernel ABI in `fa4.abi`.

    The op's plan picks the builder: the Hopper kernel for sm_90a plans, the
    Blackwell kernel for sm_100a ones. An option of one chip's builder
    (KernelOption) set away from its default on an op of the other chip is
    an error.
  }];
  let options = [
    KernelOption<"sm_90a", "pingPong", "ping-pong", "bool", /*default=*/"true",
           "Hopper: order the consumers' GEMM turns with named barriers "
           "(FA3's ping-pong), so one's softmax runs under the others' "
           "GEMMs (D-1)">,
    KernelOption<"sm_90a", "intraWgOverlap", "intra-wg-overlap", "bool", /*default=*/"true",
           "Hopper prefill without a window mask: within a consumer, the "
           "softmax of tile t runs while the P V of tile t - 1 is in flight "
           "(FA3's intra-warpgroup overlap; D-2)">,
    KernelOption<"sm_90a", "lazyRescale", "lazy-rescale", "bool", /*default=*/"true",
           "Hopper, Dv >= 128: FA4's lazy rescale (a row keeps its max until "
           "it grows by more than 2^8; a warp whose rows all kept theirs "
           "skips the rescale of O; D-3). The Blackwell kernel always has "
           "it">,
    KernelOption<"sm_90a", "tmaStoreO", "tma-store-o", "bool", /*default=*/"true",
           "Hopper prefill: O leaves through shared memory and TMA stores "
           "instead of from registers (D-4). The Blackwell kernel always "
           "stores prefill O by TMA (its epilogue warp)">,
    Option<"l2SectionBytes", "l2-section-bytes", "int64_t",
           /*default=*/"33554432",
           "Prefill under a causal or window mask (both chips): work tiles "
           "go heaviest first within sections of (batch, head) pairs whose "
           "K and V take at most this many bytes, so the CTAs of a wave "
           "share K and V in L2; 0: heaviest first over all pairs (D-5)">,
    KernelOption<"sm_90a", "pairRowBlocks", "pair-row-blocks", "bool", /*default=*/"true",
           "Hopper looped twin under a causal mask: row blocks R - 1 - k and "
           "k of a (batch, head) pair go to one CTA in consecutive strides "
           "(WorkOrder.h, pairedSlot); 0: the L2 sections (D-6)">,
    KernelOption<"sm_90a", "loopProducerRegisters", "loop-producer-registers", "int64_t",
           /*default=*/"40",
           "Hopper looped prefill kernel with two consumers at a padded Dv "
           "up to 128: setmaxnreg's budget for the producer, a multiple of 8 "
           "from 24 (FA3's split) to 64; the consumers keep the rest of the "
           "pool (D-7)">,
    KernelOption<"sm_90a", "kvMulticast", "kv-multicast", "bool", /*default=*/"true",
           "Hopper prefill without a mask at Dv >= 128, in the kernel with "
           "one work tile per CTA: clusters of two CTAs on adjacent row "
           "blocks of a head, each loading every other 64-column box of "
           "every K and V tile into both (TMA multicast; D-8). The looped "
           "twin pairs with kv-multicast-twin, a causal kernel with "
           "kv-multicast-causal">,
    KernelOption<"sm_90a", "kvMulticastTwin", "kv-multicast-twin", "bool",
           /*default=*/"true",
           "With kv-multicast, the looped twins in pairs of CTAs too (their "
           "own launch in clusters of two, the pair walking one work list; "
           "D-9)">,
    KernelOption<"sm_90a", "kvMulticastCausal", "kv-multicast-causal", "bool",
           /*default=*/"true",
           "With kv-multicast, under a causal mask too, in a kernel without "
           "a work loop that only runs at kv-multicast-causal-min-seq-kv "
           "keys or more: the pair loads the K/V tiles of its last row and "
           "each consumer runs its GEMMs to its own diagonal (D-10)">,
    KernelOption<"sm_90a", "kvMulticastCausalMinSeqKV", "kv-multicast-causal-min-seq-kv",
           "int64_t", /*default=*/"2048",
           "kv-multicast-causal pairs a kernel only where every launch it "
           "serves has at least this many keys: a static Skv, or the kernel "
           "without a work loop above its looped twin's bound; 0: every "
           "causal kernel that can pair (D-11)">,
    KernelOption<"sm_90a", "trace", "trace", "bool", /*default=*/"false",
           "Hopper prefill kernel with an LSE output, for profiling only: "
           "each consumer writes its work tiles' phase times (globaltimer) "
           "and its SM over its first LSE rows instead of their LSE "
           "(bench/trace_phases.py reads them)">,
    KernelOption<"sm_90a", "persistent", "persistent", "bool", /*default=*/"false",
           "Prefill: always run persistent CTAs (one per SM, each looping "
           "over work tiles; causal: heaviest first)">,
    KernelOption<"sm_90a", "persistentMaxSeqKV", "persistent-max-seq-kv", "int64_t",
           /*default=*/"-1",
           "Prefill: next to the kernel, a looped twin that the runtime runs "
           "on one CTA per SM when the launch's Skv is at most this; above "
           "it the kernel runs one CTA per work tile (0: never; a static "
           "Skv builds one kernel; -1: the planner's bounds, "
           "fa4::loopedTwinMaxSeqKV, D-12)">,
    KernelOption<"sm_90a", "persistentDecode", "persistent-decode", "bool",
           /*default=*/"true",
           "Decode plans without a split (large batches): persistent CTAs, "
           "one per SM, each looping over work items (D-13)">,
    Option<"deviceTensorMaps", "device-tensor-maps", "bool",
           /*default=*/"false",
           "Kernels any launcher can call: Q, K, V (and O) by pointer and "
           "strides, their TMA tensor maps built by each CTA in a global "
           "scratch the launch passes (docs/KernelABI.md, "
           "\"tensor_map_scratch\"), instead of CUtensorMap parameters "
           "that only libfa4rt encodes (D-48)">,
    Option<"referenceFallback", "reference-fallback", "bool",
           /*default=*/"false",
           "Leave an sm_100a op whose plan the Blackwell kernel does not "
           "implement (an MLA plan) for convert-attn-to-reference-kernel, "
           "with a remark that names why, instead of failing">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect",
    "mlir::scf::SCFDialect", "fa4::kernel::FA4Dialect"
  ];
}

def ConvertFA4ToNVVM : Pass<"convert-fa4-to-nvvm", "mlir::ModuleOp"> {
  let summary = "Lower fa4 kernels to NVVM and LLVM for one chip";
  let description = [{
    sm_90a: frags become the wgmma accumulator registers of each thread
    (64 x N f32: N / 2 floats; 16-bit frags: pairs packed in i32, the A
    fragment of wgmma's register form), `fa4.mma` a fenced, committed group
    of `wgmma.mma_async` k16 steps over 128B-swizzled shared-memory
    descriptors, `fa4.warp_specialize` a warpgroup dispatch with
    `setmaxnreg`, the mbarrier and TMA ops their NVVM counterparts, and the
    `gpu.func` an `llvm.func` whose tensor maps are 128-byte
    `__grid_constant__` parameters. Loop- and branch-carried frags are
    split with the structural SCF type conversion.

    sm_100a: a 128 x N frag is one row per thread of a warpgroup (the
    layout of tcgen05.ld/st 32x32b), `fa4.tmem.*` become tcgen05.alloc /
    mma (kind::f16, cta_group::1) / commit / ld / st / fence, the softmax
    needs no shuffles, and the epilogue reads O from TMEM 16 columns at a
    time.

    The chip is each kernel module's: the one its `#nvvm.target` names
    (convert-attn-to-fa4 attaches the plan's). A module without one, or
    naming another chip, is refused.
  }];
  let options = [
    KernelOption<"sm_90a", "foldKeyBound", "fold-key-bound", "bool", /*default=*/"true",
           "Hopper fa4.mask: test key <= min(upper diagonal, Skv - 1), one "
           "compare per register of a masked tile instead of two (causal "
           "and right-bounded windows; D-14); 0 keeps both compares">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect",
    "mlir::scf::SCFDialect"
  ];
}

#endif // FA4_CONVERSION_PASSES_TD
