//===- Passes.td - fa4 conversion passes -------------------*- tablegen -*-===//

#ifndef FA4_CONVERSION_PASSES_TD
#define FA4_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    "mlir::NVVM::NVVMDialect", "mlir::scf::SCFDialect"
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
  }];
  let options = [
    Option<"pingPong", "ping-pong", "bool", /*default=*/"true",
           "Order the two consumers' GEMM turns with named barriers (FA3 "
           "ping-pong), so one's softmax runs under the other's GEMMs">,
    Option<"intraWgOverlap", "intra-wg-overlap", "bool",
           /*default=*/"true",
           "Within a consumer, run the softmax of tile t while the P V of "
           "tile t - 1 is in flight (FA3's intra-warpgroup overlap); wait "
           "for it only before rescaling O. Prefill plans without a window "
           "mask only (+1-3% on the H200, bench/RESULTS.md); decode and "
           "window kernels keep the plain schedule">,
    Option<"lazyRescale", "lazy-rescale", "bool", /*default=*/"true",
           "fa3: FA4's lazy rescale (a row keeps its max until it grows by "
           "more than 2^8; a warp whose rows all kept theirs skips the "
           "rescale of O), for Dv >= 128, where it measured +2-8% "
           "(bench/RESULTS.md). The sm_100a structure always has it">,
    Option<"tmaStoreO", "tma-store-o", "bool", /*default=*/"true",
           "fa3 prefill kernel without a work loop: O leaves through "
           "shared memory (over Q) and TMA stores, one warpgroup's tile at "
           "a time, instead of from registers. The sm_100a structure "
           "always stores prefill O by TMA (its epilogue warp)">,
    Option<"fuseWorkTiles", "fuse-work-tiles", "bool", /*default=*/"false",
           "fa3 prefill kernel with a work loop: a consumer issues the next "
           "work tile's first Q K^T in the same GEMM turn as this tile's "
           "last P V, and writes this tile's O while it runs, instead of "
           "draining before the next tile starts. Measured 0-4% slower on "
           "the H200 (bench/RESULTS.md, session 8): the ping-pong hides one "
           "turn's worth of softmax per turn, and the fused turn leaves the "
           "epilogue and the next softmax in one gap">,
    Option<"l2SectionBytes", "l2-section-bytes", "int64_t",
           /*default=*/"33554432",
           "Prefill under a causal or window mask (both chips): the work "
           "tiles go heaviest first within sections of (batch, head) pairs "
           "whose K and V take at most this many bytes (32 MiB: two thirds "
           "of the H100/H200's 50 MB L2, as FA3's scheduler), so the CTAs "
           "of a wave share K and V in L2; 0: heaviest first over all "
           "pairs, where every CTA of a wave streams another head from HBM. "
           "Measured on sm_90a: +7-13% at d = 128 and +20-37% at d = 256 "
           "causal for S <= 2048 (bench/RESULTS.md, session 11)">,
    Option<"pairRowBlocks", "pair-row-blocks", "bool", /*default=*/"true",
           "fa3 looped twin under a causal mask: row blocks R - 1 - k and k "
           "of a (batch, head) pair go to one CTA in consecutive strides "
           "(WorkOrder.h, pairedSlot), so every CTA gets the same work under "
           "its static stride and a wave holds fewer heads than the L2 "
           "sections give. Measured on the H200 against the sections: "
           "+11-13% at d = 128 and +0-4% at d = 64 causal for S <= 2048 "
           "(bench/RESULTS.md, session 12); 0: the L2 sections">,
    Option<"polyExp2Period", "poly-exp2-period", "int64_t", /*default=*/"0",
           "fa3: one exp2 of the softmax in this many on the FMA pipe (a "
           "degree-3 polynomial, FA4's relief of the MUFU pipe); 0, the "
           "default: every exp2 on MUFU. Measured 3-15% slower on the "
           "H200 at d = 64 and 128 (bench/RESULTS.md, session 10), and "
           "1-9% slower without XU conversions (session 18, MUFU then 56% "
           "busy): there the consumer's softmax latency and issue slots, "
           "not MUFU throughput, bound it">,
    Option<"softmaxReductionChains", "softmax-reduction-chains", "int64_t",
           /*default=*/"1",
           "fa3: each softmax row's max and sum reduced in this many "
           "interleaved chains (fa4.softmax reduction_chains), so a row's "
           "max does not wait on one chain of FMNMX latencies before its "
           "exponentials. 1, the default: one chain; four measured -4.5 "
           "to +3% on the H200 (bench/RESULTS.md, session 18): the "
           "ping-pong hides the chain">,
    Option<"narrowLastPV", "narrow-last-pv", "bool", /*default=*/"false",
           "fa3: a work tile's last P V issues only the MMA_K steps that "
           "hold keys the consumer's rows see (Skv not a multiple of BN, a "
           "causal diagonal mid-tile; P is 0 past them), one variant per "
           "step count behind a jump table. Off: measured -0.6 to +0.7% up "
           "to 4096 keys and -3 to -10% at 8192-16384 on the H200 "
           "(bench/RESULTS.md, session 9): the last P V is 0.3-0.5 us of a "
           "26-96 us work tile, and only the second consumer's is on the "
           "critical path">,
    Option<"loopProducerRegisters", "loop-producer-registers", "int64_t",
           /*default=*/"40",
           "fa3 looped prefill kernel with two consumer warpgroups at a "
           "padded Dv up to 128: setmaxnreg's budget for the producer, "
           "whose work list (and a pair's peer) spilled at FA3's 24 (28 B "
           "in the d = 128 twin in pairs, 8 B at 32, none at 40); the "
           "consumers keep the rest of the pool, rounded down to a multiple "
           "of 8 (232 at 32 and 40). 32 measured 0.7% faster than 24 on "
           "average (12 readings, -1.8 to +0.1%) in the twins at d = 64 and "
           "128 (session 25), 40 another 0.2-1.1% on four rows (session 26; "
           "bench/RESULTS.md); the d = 256 twin, whose consumers need their "
           "240, keeps FA3's split. A multiple of 8 from 24 (FA3's split) "
           "to 64">,
    Option<"twinOwnTiles", "twin-own-tiles", "bool", /*default=*/"false",
           "fa3 looped twin under a causal mask (or a window's right "
           "bound): each consumer runs its GEMMs only to the last K/V tile "
           "its own rows see and keeps its turns for the rest, as the plain "
           "kernel does. Off: from boost it cost 2.4-3.8% where no count "
           "changes and -2.6% at d = 256, 512 keys, with 10% fewer GEMM "
           "steps (bench/RESULTS.md, session 15); at the sustained clock "
           "-3.6% there and -1.7 to -3.8% at d = 64 and 128 (session 18)">,
    Option<"l2EvictionHints", "l2-eviction-hints", "bool",
           /*default=*/"false",
           "fa3 prefill: TMA copies carry an L2 eviction priority, evict_last "
           "for K and V (every row block of a head reads them) and "
           "evict_first for Q and O (touched once), so that K and V outlive "
           "a round of work tiles in L2. Off: at d = 256 causal, 512 keys, "
           "where the kernel moves 19% more DRAM bytes than Q, K, V and O, "
           "it read 7.5% fewer and ran no faster, and other rows lost 0-6% "
           "(Nsight Compute and timings, bench/RESULTS.md, sessions 17-18)">,
    Option<"kvMulticast", "kv-multicast", "bool", /*default=*/"true",
           "fa3 prefill without a mask at Dv >= 128, in the kernel with one "
           "work tile per CTA: clusters of two CTAs on adjacent row blocks "
           "of a head, each loading every other 64-column box of every K and "
           "V tile into both (TMA multicast), so that each tile leaves L2 "
           "once per pair (FA3's cluster of two at d >= 128); a slot is "
           "refilled once both CTAs released it. The looped twin pairs with "
           "kv-multicast-twin, a causal kernel with kv-multicast-causal. "
           "Measured +0.95% on average (-1.9 "
           "to +3.5% a row, 15 of 18 paired readings up) with a third fewer "
           "L2 reads at d = 128 and 256 (bench/RESULTS.md, session 24); "
           "with the peer's slot released at cluster scope it had lost 27%">,
    Option<"kvMulticastTwin", "kv-multicast-twin", "bool",
           /*default=*/"true",
           "with kv-multicast, the looped twins in pairs of CTAs too (their "
           "own launch in clusters of two, the pair walking one work list, "
           "the persistent cap in whole clusters). Timed against one CTA "
           "per work item in alternating rounds of one process: 1.6% faster "
           "at d = 128, 512-4096 keys, and 5-6% at d = 256, 512 keys, "
           "though the pairs spill (28 B in the d = 128 producer, 40 B at "
           "d = 256, some in the consumers; bench/RESULTS.md, session 25)">,
    Option<"kvMulticastCausal", "kv-multicast-causal", "bool",
           /*default=*/"true",
           "with kv-multicast, under a causal mask too, in a kernel that "
           "only runs at kv-multicast-causal-min-seq-kv keys or more: the "
           "kernel without a work loop (and a looped twin with "
           "twin-own-tiles) runs in pairs on adjacent row blocks, loading "
           "the K/V tiles of the pair's last row; each consumer runs its "
           "GEMMs to its own diagonal and keeps its turns and releases for "
           "the pair's rest. Timed against one CTA per work tile in "
           "alternating rounds: 2.3-3.4% faster from 8192 keys at d = 128 "
           "and 256 and from 4096 at d = 256, even at 2048-4096 and 2.0-3.8% "
           "slower at d = 256 1024 keys, where the shorter block idles for "
           "the union's last tiles; the looped twins in pairs 1.4-5.3% slower "
           "at 512-2048 keys (bench/RESULTS.md, session 26)">,
    Option<"kvMulticastCausalMinSeqKV", "kv-multicast-causal-min-seq-kv",
           "int64_t", /*default=*/"2048",
           "kv-multicast-causal pairs a kernel only where every launch it "
           "serves has at least this many keys: a static Skv, or the kernel "
           "without a work loop above its looped twin's bound (d = 128: "
           "from 2049 keys; d = 256, whose twin stops at 512, stays alone). "
           "0: every causal kernel that can pair">,
    Option<"trace", "trace", "bool", /*default=*/"false",
           "fa3 prefill kernel with an LSE output, for profiling only: each "
           "consumer writes its work tiles' phase times (globaltimer) and "
           "its SM over its first LSE rows instead of their LSE "
           "(bench/trace_phases.py reads them)">,
    Option<"persistent", "persistent", "bool", /*default=*/"false",
           "Prefill: always run persistent CTAs (one per SM, each looping "
           "over work tiles; causal: heaviest first)">,
    Option<"persistentMaxSeqKV", "persistent-max-seq-kv", "int64_t",
           /*default=*/"-1",
           "Prefill: next to the kernel, a twin with the work-tile loop that "
           "the runtime runs on one CTA per SM when the launch's Skv is at "
           "most this; above it the kernel runs one CTA per work tile (0: "
           "never; a static Skv builds one kernel; -1: without a window "
           "mask 2048 for Dv <= 64, 4096 for Dv <= 128 and 512 for Dv = 256 "
           "(at 64-key tiles), and under a causal mask at Dv > 64 only "
           "where the twin stores O by TMA too (the plan left room), else "
           "never). Measured at 2048: +14-27% "
           "at S = 512 and unchanged above the bound for Dv <= 128; at "
           "d = 128 +2-5% at 4096 (bench/RESULTS.md, session 14)">,
    Option<"persistentDecode", "persistent-decode", "bool",
           /*default=*/"true",
           "Decode plans without a split (large batches): persistent CTAs, "
           "one per SM, each looping over work items, so that the next "
           "item's Q and first K/V tiles load under this one's last tiles "
           "(+2% at B = 64, Skv = 8192 on the H200, bench/RESULTS.md)">,
    Option<"structure", "structure", "std::string", /*default=*/"\"auto\"",
           "Kernel structure: fa3 (sm_90a plans), fa4 (sm_100a plans), or "
           "auto (the plan's chip decides)">
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
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target chip: sm_90a or sm_100a">,
    Option<"foldKeyBound", "fold-key-bound", "bool", /*default=*/"true",
           "sm_90a fa4.mask: test key <= min(upper diagonal, Skv - 1), one "
           "compare per register of a masked tile instead of two (causal "
           "and right-bounded windows). Measured +1.4-5.9% at d = 64 causal "
           "and +0.1-0.9% at d = 128 (bench/RESULTS.md, session 10); 0 "
           "keeps both compares">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
    "mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect",
    "mlir::scf::SCFDialect"
  ];
}

#endif // FA4_CONVERSION_PASSES_TD
