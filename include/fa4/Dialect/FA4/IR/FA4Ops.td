//===- FA4Ops.td - Ops of the fa4 kernel dialect -----------*- tablegen -*-===//

#ifndef FA4_DIALECT_FA4_IR_FA4OPS_TD
#define FA4_DIALECT_FA4_IR_FA4OPS_TD

include "fa4/Dialect/FA4/IR/FA4Types.td"
include "fa4/Dialect/Attn/IR/AttnAttrs.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def FA4_AnyTile : AnyTypeOf<[FA4_Frag, FA4_Rows]>;

//===----------------------------------------------------------------------===//
// Warp roles
//===----------------------------------------------------------------------===//

def FA4_WarpSpecializeOp : FA4_Op<"warp_specialize",
    [RecursiveMemoryEffects, NoTerminator]> {
  let summary = "Split the CTA into warpgroup roles, each with its registers";
  let description = [{
    Role `i` runs region `i` on `warpgroups[i]` consecutive warpgroups (128
    threads each), in order from warpgroup 0, after moving its threads to
    `registers[i]` registers each (`setmaxnreg`). Each region's two i32
    arguments are the warpgroup's index within its role and the thread's
    index within its warpgroup.

    The budgets redistribute the registers the CTA got at launch: ptxas
    gives every thread of a `T`-thread CTA at most 65536 / T registers
    (rounded down to 8), and `setmaxnreg.inc` waits until registers are
    free, so the verifier refuses budgets whose total exceeds that pool:
    they would hang.

    ```mlir
    fa4.warp_specialize warpgroups [1, 2] registers [24, 240] {
    ^bb0(%index: i32, %thread: i32):   // the producer
      ...
    }, {
    ^bb0(%consumer: i32, %thread: i32):
      ...
    }
    ```
  }];
  let arguments = (ins DenseI64ArrayAttr:$warpgroups,
                       DenseI64ArrayAttr:$registers);
  let regions = (region VariadicRegion<SizedRegion<1>>:$roles);
  let assemblyFormat = [{
    `warpgroups` $warpgroups `registers` $registers $roles attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Threads of the CTA: 128 per warpgroup of every role.
    int64_t getNumThreads();
    /// What ptxas gives each thread at launch: 65536 / threads, down to 8.
    int64_t getLaunchRegisters();
  }];
}

//===----------------------------------------------------------------------===//
// mbarriers and TMA
//===----------------------------------------------------------------------===//

def FA4_MBarrierGetOp : FA4_Op<"mbarrier.get", [Pure]> {
  let summary = "The mbarrier at `index` in a shared-memory barrier region";
  let description = [{
    Barriers are 8 bytes each, from byte `offset` of the kernel's dynamic
    shared memory (the `barriers` region of `#attn.smem`).
  }];
  let arguments = (ins I32:$index,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset);
  let results = (outs FA4_MBarrier:$barrier);
  let assemblyFormat = "$index `offset` $offset attr-dict";
}

def FA4_MBarrierInitOp : FA4_Op<"mbarrier.init"> {
  let summary = "Initialise an mbarrier for `count` arrivals per phase";
  let arguments = (ins FA4_MBarrier:$barrier,
                       ConfinedAttr<I64Attr, [IntPositive]>:$count);
  let assemblyFormat = "$barrier `count` $count attr-dict";
}

def FA4_FenceMBarrierInitOp : FA4_Op<"fence.mbarrier_init"> {
  let summary = "Make initialised mbarriers visible to the TMA (async) proxy";
  let description = [{
    With `cluster`, also released to the cluster's other CTAs, whose TMA
    multicasts and remote arrivals land on these barriers once a cluster
    barrier has ordered them after it.
  }];
  let arguments = (ins UnitAttr:$cluster);
  let assemblyFormat = "(`cluster` $cluster^)? attr-dict";
}

def FA4_MBarrierArriveOp : FA4_Op<"mbarrier.arrive"> {
  let summary = "Arrive on an mbarrier, this CTA's or a cluster peer's";
  let description = [{
    Without `in_cta`, a release at CTA scope on this CTA's barrier. With
    `in_cta %rank`, a release at cluster scope on the barrier at the same
    offset in CTA `rank` of the cluster (mapa, shared::cluster): how the
    softmax and correction warps of a CTA pair hand P to the pair leader's
    MMA thread, and how a consumer warp releases a K/V slot that its peer's
    TMA multicast fills. `count N` arrives N times at once (one thread of a
    warp for all of it). With `cta_scope` the peer's barrier gets a release
    at CTA scope (CUTLASS's ClusterBarrier::arrive): it orders nothing for
    the peer, which is all a slot release needs once the reads it ends were
    waited for (the tensor cores' wgmma.wait_group).
  }];
  let arguments = (ins FA4_MBarrier:$barrier, Optional<I32>:$cta,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$count,
                       UnitAttr:$ctaScope);
  let assemblyFormat = [{
    $barrier (`in_cta` $cta^)? (`count` $count^)? (`cta_scope` $ctaScope^)?
    attr-dict
  }];
  let builders = [OpBuilder<(ins "mlir::Value":$barrier), [{
    build($_builder, $_state, barrier, mlir::Value(), nullptr, false);
  }]>];
  let hasVerifier = 1;
}

def FA4_MBarrierExpectTxOp : FA4_Op<"mbarrier.expect_tx"> {
  let summary = "Arrive, and expect `bytes` of TMA transactions this phase";
  let arguments = (ins FA4_MBarrier:$barrier,
                       ConfinedAttr<I64Attr, [IntPositive]>:$bytes);
  let assemblyFormat = "$barrier `bytes` $bytes attr-dict";
}

def FA4_MBarrierWaitOp : FA4_Op<"mbarrier.wait"> {
  let summary = "Wait until the phase with parity `parity` has completed";
  let description = [{
    An acquire at CTA scope, or with `cluster` at cluster scope: the scope a
    wait needs to synchronise with arrivals released by another CTA of the
    cluster (`fa4.mbarrier.arrive ... in_cta`).
  }];
  let arguments = (ins FA4_MBarrier:$barrier, I32:$parity, UnitAttr:$cluster);
  let assemblyFormat = "$barrier `parity` $parity (`cluster` $cluster^)? attr-dict";
}

def FA4_TmaLoadOp : FA4_Op<"tma.load", [AttrSizedOperandSegments]> {
  let summary = "Load one TMA box into shared memory, completing on a barrier";
  let description = [{
    Copies the box of `tensor_map` at `coordinates` (innermost first) to
    byte `destination` of dynamic shared memory; its bytes count as
    transactions on `barrier`. Coordinates past the tensor are zero-filled.
    With `in_cta %rank` (a CTA pair, cta_group::2), the bytes count on the
    barrier at the same offset in CTA `rank` of the pair: both CTAs load
    their halves of an operand into their own shared memory and the pair
    leader's barrier counts them all. With `multicast M` the box lands at
    `destination` in every CTA of the cluster whose rank is a bit of M, and
    its bytes count on the barrier at the same offset in each: two CTAs
    that read the same K/V tiles each load half of every tile for both.
    With `l2 evict_first` or `l2 evict_last` the copy's lines take that L2
    eviction priority.
  }];
  let arguments = (ins FA4_TensorMap:$tensorMap, Variadic<I32>:$coordinates,
                       I32:$destination, FA4_MBarrier:$barrier,
                       Optional<I32>:$barrierCta,
                       OptionalAttr<I64Attr>:$multicast,
                       OptionalAttr<FA4_L2Eviction>:$l2Eviction);
  let assemblyFormat = [{
    $tensorMap `[` $coordinates `]` `to` $destination `,` $barrier
    (`in_cta` $barrierCta^)? (`multicast` $multicast^)? (`l2` $l2Eviction^)?
    attr-dict
  }];
  let builders = [OpBuilder<(ins "mlir::Value":$tensorMap,
      "mlir::ValueRange":$coordinates, "mlir::Value":$destination,
      "mlir::Value":$barrier), [{
    build($_builder, $_state, tensorMap, coordinates, destination, barrier,
          mlir::Value(), nullptr, nullptr);
  }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor maps built on the device (docs/KernelABI.md, "tensor_map_scratch")
//===----------------------------------------------------------------------===//

def FA4_TensorMapStageOp : FA4_Op<"tensor_map.stage",
    [AttrSizedOperandSegments]> {
  let summary = "Write a tiled tensor map into shared memory";
  let description = [{
    Executed by one thread (each map by a warp of its own: a field write
    takes tens of cycles and a map has 21, and lanes of one warp would take
    their branches one after another): zeroes the 128 bytes at byte
    `offset` of dynamic shared memory and writes into them, field by field
    (`tensormap.replace`), the tiled tensor map of the tensor at `base` with
    extents `dims` and byte strides `strides` (of dims 1 and up), all
    innermost first, a box of `box`, `element_bytes`-byte elements (copied
    as unsigned integers of that width: TMA moves bits, and out-of-bounds
    elements fill with zeros), `swizzle` (0, 32, 64 or 128 bytes), no
    interleave, element strides 1. What cuTensorMapEncodeTiled would encode
    from the same values, but no L2 promotion (no field sets it).
  }];
  let arguments = (ins LLVM_AnyPointer:$base, Variadic<I32>:$dims,
                       Variadic<I64>:$strides, I64Attr:$offset,
                       DenseI64ArrayAttr:$box, I64Attr:$elementBytes,
                       I64Attr:$swizzle);
  let assemblyFormat = [{
    $base `dims` `[` $dims `]` `strides` `[` $strides `]` `box` $box
    `element_bytes` $elementBytes `swizzle` $swizzle `to` $offset attr-dict
    `:` qualified(type($base))
  }];
  let hasVerifier = 1;
}

def FA4_TensorMapPublishOp : FA4_Op<"tensor_map.publish"> {
  let summary = "Copy a staged tensor map to global memory, released";
  let description = [{
    Executed by one whole warp (`.sync.aligned`), after the lanes that
    staged its maps (the warp meets first): copies the tensor map
    staged at byte `offset` of dynamic shared memory to the 128 bytes at
    `slot` in global memory, with a release of the tensormap proxy at GPU
    scope (`tensormap.cp_fenceproxy`). A thread may use it for TMA after a
    barrier with the warp and `fa4.tensor_map.acquire`.
  }];
  let arguments = (ins LLVM_AnyPointer:$slot, I64Attr:$offset);
  let assemblyFormat =
      "$slot `from` $offset attr-dict `:` qualified(type($slot))";
  let hasVerifier = 1;
}

def FA4_TensorMapAcquireOp : FA4_Op<"tensor_map.acquire"> {
  let summary = "Acquire a published tensor map for this thread's TMA";
  let description = [{
    `fence.proxy.tensormap::generic.acquire.gpu` on the 128 bytes at `slot`
    (global memory): this thread's later TMA operations through the result
    see the map that `fa4.tensor_map.publish` released there.
  }];
  let arguments = (ins LLVM_AnyPointer:$slot);
  let results = (outs FA4_TensorMap:$tensorMap);
  let assemblyFormat = "$slot attr-dict `:` qualified(type($slot))";
}

//===----------------------------------------------------------------------===//
// Boxes copied by threads (cp.async): a kernel's first tiles while its
// device-built tensor maps are not ready yet
//===----------------------------------------------------------------------===//

def FA4_CopyAsyncBoxOp : FA4_Op<"copy_async.box"> {
  let summary = "A thread's share of a box, copied as a 128B-swizzled TMA load";
  let description = [{
    Thread `thread` of `threads` threads (a multiple of 8: whole lines per
    round) copies the 16-byte chunks i, i + `threads`, ... of a box of `lines` 128-byte lines (8 chunks each)
    into dynamic shared memory at byte `destination`, where a TMA load of
    the same box with the 128-byte swizzle would put them: chunk c of line
    L at `destination` + 128 L + 16 (c xor (A / 128 mod 8)), A the line's
    byte offset (the swizzle pattern repeats every 1024 bytes of the
    1024-aligned dynamic shared memory). Line L is member L mod `group` of
    row L / `group` of the source, its bytes at `base` + row * `row_stride`
    + member * `member_stride`; its first `chunks` chunks are copied, the
    rest zero-filled, as is a whole line whose row is not below `rows`
    (TMA's out-of-bounds fill).

    By `cp.async` (16 bytes, `.cg`, zero-fill by source size): no registers
    hold the data, the copies complete later, in the generic proxy. Before
    wgmma or TMA read them, this thread waits for them (`cp.async.wait_group`,
    or an mbarrier phase that `fa4.copy_async.arrive` held open) and fences
    them (`fence.proxy.async`).
  }];
  let arguments = (ins LLVM_AnyPointer:$base, I32:$rows, I64:$rowStride,
                       I64:$memberStride, I32:$destination, I32:$thread,
                       ConfinedAttr<I64Attr, [IntPositive]>:$lines,
                       ConfinedAttr<I64Attr, [IntPositive]>:$group,
                       ConfinedAttr<I64Attr, [IntMinValue<1>,
                                              IntMaxValue<8>]>:$chunks,
                       ConfinedAttr<I64Attr, [IntPositive]>:$threads);
  let assemblyFormat = [{
    $base `rows` $rows `stride` $rowStride `group` $group `stride`
    $memberStride `lines` $lines `chunks` $chunks `to` $destination
    `thread` $thread `of` $threads attr-dict `:` qualified(type($base))
  }];
  let hasVerifier = 1;
}

def FA4_CopyAsyncArriveOp : FA4_Op<"copy_async.arrive"> {
  let summary = "Hold an mbarrier's phase open until this thread's copies land";
  let description = [{
    `cp.async.mbarrier.arrive` without `.noinc`: the barrier's pending
    arrivals rise by one now and fall by one once every `cp.async` this
    thread issued before has completed, so the current phase cannot
    complete before they do. The arrivals the barrier counts still come
    from `fa4.mbarrier.arrive` (or `fa4.mbarrier.expect_tx`); issue this
    before them (a CTA barrier between), or the phase may complete first.
  }];
  let arguments = (ins FA4_MBarrier:$barrier);
  let assemblyFormat = "$barrier attr-dict";
}

//===----------------------------------------------------------------------===//
// Tiles and MMAs
//===----------------------------------------------------------------------===//

def FA4_SmemTileOp : FA4_Op<"smem.tile", [Pure]> {
  let summary = "The tile at byte `offset` of dynamic shared memory";
  let arguments = (ins I32:$offset);
  let results = (outs FA4_SmemTile:$tile);
  let assemblyFormat = "$offset attr-dict `:` type($tile)";
}

def FA4_SplatOp : FA4_Op<"splat", [Pure]> {
  let summary = "A frag or rows value with every element `value`";
  let arguments = (ins F32:$value);
  let results = (outs FA4_AnyTile:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def FA4_MmaOp : FA4_Op<"mma", [AllTypesMatch<["acc", "result"]>]> {
  let summary = "Issue acc + A x B on a warpgroup's tiles (asynchronous)";
  let description = [{
    `A` is M x K: a K-major shared-memory tile (M rows of K) or a 16-bit frag
    (P from the softmax). `B` is a shared-memory tile, K-major with N rows of
    K (the product is then A B^T, as in Q K^T) or MN-major with K rows of N
    (as V in P V). `acc` and the result are M x N f32 frags.

    The MMA is issued, not finished: the result may be read only after an
    `fa4.mma.wait` that covers it. Each `fa4.mma` is one commit group.

    `k_extent` (a multiple of 16 up to K) says that only the first
    `k_extent` of K enter the product: A's later columns are zero (P of keys
    no row sees), so their MMA_K steps are not issued.
  }];
  let arguments = (ins AnyTypeOf<[FA4_SmemTile, FA4_Frag]>:$a,
                       FA4_SmemTile:$b, FA4_Frag:$acc,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$k_extent);
  let results = (outs FA4_Frag:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$a,
                   "::mlir::Value":$b, "::mlir::Value":$acc), [{
      build($_builder, $_state, result, a, b, acc,
            /*k_extent=*/::mlir::IntegerAttr());
    }]>
  ];
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getM() { return ::llvm::cast<FragType>(getAcc().getType()).getRows(); }
    int64_t getN() { return ::llvm::cast<FragType>(getAcc().getType()).getColumns(); }
    int64_t getK();
  }];
}

def FA4_MmaWaitOp : FA4_Op<"mma.wait"> {
  let summary = "Wait until at most `pending` MMA commit groups are in flight";
  let arguments = (ins DefaultValuedAttr<
      ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$pending);
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Softmax and epilogue
//===----------------------------------------------------------------------===//

def FA4_MaskOp : FA4_Op<"mask", [Pure, AllTypesMatch<["scores", "result"]>]> {
  let summary = "-inf for the scores of keys a query row does not see";
  let description = [{
    Element (r, c) of `scores` is the score of query row
    `first_row + r / group` with key `first_key + c` (`group` > 1 when the
    q-heads of one kv-head share the tile, row r holding head r % group). It becomes -inf if the key is at or past `skv`,
    or if `mask` (bottom-right aligned, the diagonal shifted by skv - sq)
    hides it. The lowering tests once whether the tile reaches an edge and
    leaves interior tiles untouched.
  }];
  let arguments = (ins FA4_Frag:$scores, I32:$firstKey, I32:$firstRow,
                       I32:$seqQ, I32:$seqKV, Attn_MaskAttr:$mask,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$group);
  let results = (outs FA4_Frag:$result);
  let assemblyFormat = [{
    $scores `mask` qualified($mask) `keys` $firstKey `rows` $firstRow
    `sq` $seqQ `skv` $seqKV attr-dict `:` type($scores)
  }];
  let hasVerifier = 1;
}

def FA4_SoftcapOp : FA4_Op<"softcap", [Pure,
    AllTypesMatch<["scores", "result"]>]> {
  let summary = "tanh of the scaled scores: logit softcapping's inner part";
  let description = [{
    Element-wise `tanh(scores * input_scale)`, on the special-function unit
    (`tanh.approx.f32`). With attn's `softcap` = c and scale s, the kernel
    passes `input_scale` = s / c here and c * log2(e) as the following
    `fa4.softmax`'s scale, so the softmax sees c * tanh(s * score / c)
    (FlashAttention's arrangement: no multiply by c on the scores). It goes
    before `fa4.mask`: tanh of a masked score's -inf would be -1.
  }];
  let arguments = (ins FA4_Frag:$scores, F32:$inputScale);
  let results = (outs FA4_Frag:$result);
  let assemblyFormat = [{
    $scores `scale` $inputScale attr-dict `:` type($scores)
  }];
  let hasVerifier = 1;
}

def FA4_SinkRowsOp : FA4_Op<"sink.rows", [Pure,
    AllTypesMatch<["max", "sum"]>]> {
  let summary = "Each row's softmax state holding only its attention sink";
  let description = [{
    The state a row's online softmax starts from under attention sinks: row
    r of the tile belongs to query head `head + r % group` (as in
    `fa4.epilogue`); where `holds` is true its max is `sinks[h] * log2(e)`
    (the exp2 domain) and its sum 1, the sink counted once per row however
    the chip spreads a row's sum over its threads; where false, max -inf and
    sum 0, the empty state (a split-K partition that does not carry the
    sink: each row's softmax holds its sink once). A `fa4.softmax` continued
    from it puts the sink in the row's max and denominator; O starts at 0,
    since a sink has no value row.
  }];
  let arguments = (ins LLVM_AnyPointer:$sinks, I32:$head, I1:$holds,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$group);
  let results = (outs FA4_Rows:$max, FA4_Rows:$sum);
  let assemblyFormat = [{
    $sinks `[` $head `]` `if` $holds attr-dict `:` type($max) `,`
    qualified(type($sinks))
  }];
}

def FA4_SoftmaxOp : FA4_Op<"softmax", [Pure,
    AllTypesMatch<["scores", "probs"]>,
    AllTypesMatch<["max", "sum", "newMax", "newSum", "correction"]>]> {
  let summary = "One online-softmax step over a tile of scores";
  let description = [{
    With `scale_log2` = scale * log2(e): the new row max is
    `max(max, rowmax(scores) * scale_log2)`; `probs = exp2(scores *
    scale_log2 - new_max)`; `correction = exp2(max - new_max)`; the new row
    sum is `sum * correction + rowsum(probs)`. A row whose max is still -inf
    subtracts 0 instead, so it yields zeros rather than NaN.

    The running sum may be kept partially reduced (per thread); only
    `fa4.epilogue` reads it.

    `rescale_threshold` (FA4's lazy rescale): a row keeps its old max, and
    correction 1, unless the new max exceeds it by more than the threshold
    (exp2 domain); probabilities then stay below 2^threshold, far inside f32,
    and O is rescaled far less often. `poly_exp2_period` = k > 0 computes
    every k-th exponential with a polynomial on the FMA pipe instead of the
    MUFU unit, which is the softmax bottleneck on sm_100a.

    `reduction_chains` = c reduces each row's max and sum in c interleaved
    chains, folded pairwise at the end: the same operations, a dependent
    path of about n / c + log2(c) instead of n (the f32 sum is rounded in
    another order).

    `packed_pairs` (sm_100a, one row per thread): the scores go in pairs
    through f32x2 instructions (the scale-subtract, the polynomial's steps
    on whole pairs and the row sum's chains); the polynomial then takes
    every k-th pair.
  }];
  let arguments = (ins FA4_Frag:$scores, FA4_Rows:$max, FA4_Rows:$sum,
                       F32:$scaleLog2, OptionalAttr<F64Attr>:$rescaleThreshold,
                       DefaultValuedAttr<ConfinedAttr<I64Attr,
                                         [IntNonNegative]>, "0">:$polyExp2Period,
                       DefaultValuedAttr<ConfinedAttr<I64Attr,
                                         [IntPositive]>, "1">:$reductionChains,
                       UnitAttr:$packedPairs);
  let results = (outs FA4_Frag:$probs, FA4_Rows:$newMax, FA4_Rows:$newSum,
                      FA4_Rows:$correction);
  let assemblyFormat = [{
    $scores `max` $max `sum` $sum `scale` $scaleLog2 attr-dict `:`
    type($scores) `,` type($max)
  }];
  let hasVerifier = 1;
}

def FA4_ScaleRowsOp : FA4_Op<"scale_rows", [Pure,
    AllTypesMatch<["tile", "result"]>]> {
  let summary = "Multiply each row of a frag by its factor";
  let description = [{
    `lazy` changes no value, only the code: a warp whose factors are all
    exactly 1 skips the multiplies. It pays off after a softmax with
    `rescale_threshold`, where a factor other than 1 is rare.
  }];
  let arguments = (ins FA4_Frag:$tile, FA4_Rows:$factors, UnitAttr:$lazy);
  let results = (outs FA4_Frag:$result);
  let assemblyFormat = [{
    (`lazy` $lazy^)? $tile `by` $factors attr-dict `:` type($tile) `,`
    type($factors)
  }];
  let hasVerifier = 1;
}

def FA4_TruncFOp : FA4_Op<"truncf", [Pure]> {
  let summary = "Round an f32 frag to an MMA operand frag";
  let description = [{
    To bf16/f16 by round-to-nearest-even, or on sm_100a to f8E4M3FN/f8E5M2
    (cvt.rn.satfinite: values past the type's largest finite one become it).
  }];
  let arguments = (ins FA4_Frag:$tile);
  let results = (outs FA4_Frag:$result);
  let assemblyFormat = "$tile attr-dict `:` type($tile) `to` type($result)";
  let hasVerifier = 1;
}

def FA4_EpilogueOp : FA4_Op<"epilogue", [AttrSizedOperandSegments,
    AllTypesMatch<["max", "sum"]>]> {
  let summary = "Normalise O by its row sums; store O (and LSE) in bounds";
  let description = [{
    Row r of the tile is query row `first_row + r / group` of (`batch`,
    `head + r % group`); with `group` > 1 only the first
    `(rows / group) * group` rows are stored. Stores `out / sum` for query
    rows below `sq` and the first `depth` columns, at
    `out + batch * s0 + row * s1 + head * s2 + column` (elements of the
    output type), and, with `lse`, `ln(sum) + max * ln 2` (max in the exp2
    domain) at `lse + batch * l0 + head * l1 + row`. A row with sum 0 stores
    O = 0 and LSE = -inf. `out` is a frag in registers or, on sm_100a, the
    TMEM tile O lives in (read a chunk of columns at a time). An f32
    element type writes a split-K workspace partial (see
    `fa4.splitk.workspace_combine`).
  }];
  let arguments = (ins AnyTypeOf<[FA4_Frag, FA4_TmemTile]>:$out,
                       FA4_Rows:$max, FA4_Rows:$sum,
                       LLVM_AnyPointer:$outPtr, I32:$batch, I32:$firstRow,
                       I32:$head, Variadic<I64>:$outStrides, I32:$seqQ,
                       Optional<LLVM_AnyPointer>:$lsePtr,
                       Variadic<I64>:$lseStrides, I64Attr:$depth,
                       TypeAttr:$elementType,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$group);
  let assemblyFormat = [{
    $out `,` $max `,` $sum `to` $outPtr `[` $batch `,` $firstRow `,` $head `]`
    `strides` `[` $outStrides `]` `sq` $seqQ `depth` $depth `of` $elementType
    (`lse` $lsePtr^ `strides` `[` $lseStrides `]`)?
    attr-dict `:` type($out) `,` type($max) `,` qualified(type($outPtr))
    (`,` qualified(type($lsePtr))^)?
  }];
  let hasVerifier = 1;
}

def FA4_EpilogueStageOp : FA4_Op<"epilogue.stage"> {
  let summary = "Normalise O by its row sums into shared memory for a TMA store";
  let description = [{
    Run by a warpgroup: `out` is the TMEM tile O lives in on sm_100a
    (thread r owns row r), or the O frag in registers on sm_90a (a wgmma
    fragment; `sum` holds each thread's part of its rows' sums). Writes
    `out / sum` as `elementType` into shared memory from byte
    `offset`, in boxes of 64 columns (128-byte rows, 128B-swizzled: 16-byte
    chunk c of row r at chunk c ^ (r % 8)), box b at `offset + b * rows *
    128`: the layout a TMA store of a {rows, 64} box with 128B swizzle
    reads. A row with sum 0 stores zeros. Ends with
    fence.proxy.async.shared::cta, so that a barrier after it hands the
    tile to the TMA (async) proxy.

    With `box` (sm_90a), only that 64-column box is staged, at `offset`:
    a tile can leave through one box of shared memory at a time.

    With `base` (sm_90a), the tile starts at `offset + base` bytes: a
    run-time choice of region, such as the looped kernel's Q buffer of the
    current work tile. `base` must keep the 1024-byte alignment.
  }];
  let arguments = (ins AnyTypeOf<[FA4_Frag, FA4_TmemTile]>:$out,
                       FA4_Rows:$sum,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       Optional<I32>:$base,
                       TypeAttr:$elementType,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$box);
  let assemblyFormat = [{
    $out `,` $sum `to` $offset (`plus` $base^)? `of` $elementType attr-dict
    `:` type($out) `,` type($sum)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$out, "::mlir::Value":$sum,
                   "int64_t":$offset, "::mlir::Type":$elementType), [{
      build($_builder, $_state, out, sum, offset, /*base=*/::mlir::Value(),
            elementType, /*box=*/::mlir::IntegerAttr());
    }]>
  ];
  let hasVerifier = 1;
}

def FA4_LseStoreOp : FA4_Op<"lse.store", [
    AllTypesMatch<["max", "sum"]>]> {
  let summary = "Store each row's log-sum-exp, for rows below `sq`";
  let description = [{
    `fa4.epilogue`'s LSE without its O: row r of the tile is query row
    `first_row + r` of (`batch`, `head`); stores `ln(sum) + max * ln 2` (max
    in the exp2 domain), or -inf for a row with sum 0, at `lse + batch * l0
    + head * l1 + row`.
  }];
  let arguments = (ins FA4_Rows:$max, FA4_Rows:$sum, LLVM_AnyPointer:$lsePtr,
                       I32:$batch, I32:$firstRow, I32:$head,
                       Variadic<I64>:$lseStrides, I32:$seqQ);
  let assemblyFormat = [{
    $max `,` $sum `to` $lsePtr `[` $batch `,` $firstRow `,` $head `]`
    `strides` `[` $lseStrides `]` `sq` $seqQ attr-dict `:` type($max) `,`
    qualified(type($lsePtr))
  }];
  let hasVerifier = 1;
}

def FA4_TmaStoreOp : FA4_Op<"tma.store"> {
  let summary = "Store one TMA box from shared memory (bulk async group)";
  let description = [{
    Copies the box at byte `source` of dynamic shared memory to
    `tensor_map` at `coordinates` (innermost first) and commits it as a
    bulk async-group. Parts of the box past the tensor are not written.
    The shared memory must not change until `fa4.tma.store.wait`. With
    `l2 evict_first` or `l2 evict_last` the written lines take that L2
    eviction priority.
  }];
  let arguments = (ins FA4_TensorMap:$tensorMap, Variadic<I32>:$coordinates,
                       I32:$source, OptionalAttr<FA4_L2Eviction>:$l2Eviction);
  let assemblyFormat = [{
    $tensorMap `[` $coordinates `]` `from` $source (`l2` $l2Eviction^)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def FA4_TmaStoreWaitOp : FA4_Op<"tma.store.wait"> {
  let summary = "Wait until this thread's TMA stores have read shared memory";
  let description = [{
    cp.async.bulk.wait_group.read 0: the shared memory of every store this
    thread committed may be reused, and the CTA may exit.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Split-K across a cluster
//===----------------------------------------------------------------------===//

def FA4_SplitKStageOp : FA4_Op<"splitk.stage",
    [AllTypesMatch<["max", "sum"]>]> {
  let summary = "Publish this partition's partial O and row (max, sum)";
  let description = [{
    Writes the unnormalised partial `out` (f32, rows x columns, row-major;
    a register frag on sm_90a, the O tile in TMEM on sm_100a), then the row
    maxima (exp2 domain) and the completed row sums, from byte
    `offset` of dynamic shared memory, where `fa4.splitk.combine` in every
    CTA of the cluster reads them after a `fa4.cluster.sync`. A partition
    that saw no key stages O = 0, max = -inf, sum = 0: the neutral element.
  }];
  let arguments = (ins AnyTypeOf<[FA4_Frag, FA4_TmemTile]>:$out,
                       FA4_Rows:$max, FA4_Rows:$sum,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset);
  let assemblyFormat = [{
    $out `,` $max `,` $sum `at` $offset attr-dict `:` type($out) `,`
    type($max)
  }];
  let hasVerifier = 1;
}

def FA4_ClusterSyncOp : FA4_Op<"cluster.sync"> {
  let summary = "Every thread of every CTA of the cluster meets here";
  let description = [{
    A cluster-wide barrier with release/acquire semantics on shared memory:
    what a CTA wrote before it is visible to its peers' DSMEM reads after
    it. Every thread of the CTA must reach it.
  }];
  let assemblyFormat = "attr-dict";
}

def FA4_SplitKCombineOp : FA4_Op<"splitk.combine",
    [AttrSizedOperandSegments]> {
  let summary = "Reduce-scatter the cluster's partials: store this CTA's band";
  let description = [{
    Run by one warpgroup of each of the `partitions` CTAs of a cluster after
    every CTA staged its partial (`fa4.splitk.stage` at `offset`) and a
    `fa4.cluster.sync`. The CTA of cluster rank `rank` owns depth columns
    [rank * band, min((rank + 1) * band, depth)): for each row it reads
    every partition's (max m_p, sum l_p) through DSMEM, forms
    M = max m_p, L = sum l_p 2^(m_p - M), and stores
    O = sum w_p O_p with w_p = 2^(m_p - M) / L for its columns only, reading
    each peer's slice of its band. Rank 0 also stores LSE = (M + log2 L) ln 2.
    Rows map to (query row, head) as in `fa4.epilogue`. Partitions beyond
    the depth own no band and only publish. A row no partition saw stores
    O = 0 and LSE = -inf. With `partials` > 1 each CTA staged that many
    partials back to back (its consumer warpgroups split its keys), and
    every one of them enters the sums.
  }];
  let arguments = (ins I32:$rank, LLVM_AnyPointer:$outPtr, I32:$batch,
                       I32:$firstRow, I32:$head, Variadic<I64>:$outStrides,
                       I32:$seqQ, Optional<LLVM_AnyPointer>:$lsePtr,
                       Variadic<I64>:$lseStrides,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       ConfinedAttr<I64Attr, [IntPositive]>:$partitions,
                       ConfinedAttr<I64Attr, [IntPositive]>:$band,
                       ConfinedAttr<I64Attr, [IntPositive]>:$rows,
                       ConfinedAttr<I64Attr, [IntPositive]>:$columns,
                       I64Attr:$depth, TypeAttr:$elementType,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$group,
                       DefaultValuedAttr<ConfinedAttr<I64Attr, [IntPositive]>,
                                         "1">:$partials);
  let assemblyFormat = [{
    `rank` $rank `of` $partitions `band` $band `from` $offset `rows` $rows
    `columns` $columns
    `to` $outPtr `[` $batch `,` $firstRow `,` $head `]`
    `strides` `[` $outStrides `]` `sq` $seqQ `depth` $depth `of` $elementType
    (`lse` $lsePtr^ `strides` `[` $lseStrides `]`)?
    attr-dict `:` qualified(type($outPtr)) (`,` qualified(type($lsePtr))^)?
  }];
  let hasVerifier = 1;
}

def FA4_SplitKWorkspaceCombineOp : FA4_Op<"splitk.workspace_combine",
    [AttrSizedOperandSegments]> {
  let summary = "Combine one band of an output row's f32 partials from a split-K workspace";
  let description = [{
    Run by a whole warp in the combine kernel of a workspace split-K, after
    the attention kernel wrote `partials` partials of every output row (a
    value: a split picked at launch knows its count only then; at least 1).
    Lane l combines column `column + l` of the row (`column` a multiple of
    32; a lane past the depth stores nothing), so a row of depth D takes
    ceil(D / 32) warps, which need not meet. With B = `batch_size`, Sq =
    `sq`, H = `heads` q-heads and P = `partials`, a row's partials lie side
    by side: partial s of row (b, r, h) is its normalised O_s, `depth` f32
    from element (((b * Sq + r) * H + h) * P + s) * depth of `workspace`,
    and its natural-log LSE l_s, the f32 at element P * B * Sq * H * depth +
    ((b * H + h) * P + s) * Sq + r: what `fa4.epilogue` of f32 writes with
    those strides. The warp forms
    M = max l_s and w_s = e^(l_s - M) / sum_s e^(l_s - M), stores its
    columns of O = sum_s w_s O_s at `out + batch * s0 + row * s1 + head *
    s2 + column` and, with `lse`, the warp of column 0 stores
    LSE = M + ln sum_s e^(l_s - M) at `lse + batch * l0 + head * l1 + row`.
    A row no partial saw (every l_s = -inf) stores O = 0 and LSE = -inf.
  }];
  let arguments = (ins LLVM_AnyPointer:$workspace, LLVM_AnyPointer:$outPtr,
                       I32:$batch, I32:$row, I32:$head, I32:$column,
                       Variadic<I64>:$outStrides, I32:$batchSize, I32:$seqQ,
                       Optional<LLVM_AnyPointer>:$lsePtr,
                       Variadic<I64>:$lseStrides, I32:$partials,
                       ConfinedAttr<I64Attr, [IntPositive]>:$heads,
                       ConfinedAttr<I64Attr, [IntPositive]>:$depth,
                       TypeAttr:$elementType);
  let assemblyFormat = [{
    $partials `partials` `from` $workspace `to` $outPtr
    `[` $batch `,` $row `,` $head `]` `column` $column
    `strides` `[` $outStrides `]`
    `b` $batchSize `sq` $seqQ `heads` $heads `depth` $depth `of` $elementType
    (`lse` $lsePtr^ `strides` `[` $lseStrides `]`)?
    attr-dict `:` qualified(type($workspace)) `,` qualified(type($outPtr))
    (`,` qualified(type($lsePtr))^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor memory (sm_100a)
//===----------------------------------------------------------------------===//

def FA4_TmemAllocOp : FA4_Op<"tmem.alloc"> {
  let summary = "Allocate tensor memory; its address lands in shared memory";
  let description = [{
    Run by one whole warp, which must also free it: allocates `columns`
    32-bit columns (a power of two, 32 to 512) and writes the base address at
    byte `offset` of dynamic shared memory, then gives up the right to
    allocate again so a co-resident CTA is not blocked. With `pair`
    (cta_group::2), the warps of the same index in both CTAs of a pair
    allocate together, at the same `offset`; every tcgen05 instruction of
    the kernel must then be `pair` too.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$columns,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       UnitAttr:$pair);
  let assemblyFormat = "$columns `columns` `to` $offset (`pair` $pair^)? attr-dict";
  let hasVerifier = 1;
}

def FA4_TmemDeallocOp : FA4_Op<"tmem.dealloc"> {
  let summary = "Free the tensor memory `fa4.tmem.alloc` wrote at `offset`";
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$columns,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       UnitAttr:$pair);
  let assemblyFormat = "$columns `columns` `at` $offset (`pair` $pair^)? attr-dict";
}

def FA4_TmemTileOp : FA4_Op<"tmem.tile", [Pure]> {
  let summary = "The TMEM tile at `column` of the allocation";
  let description = [{
    Reads the allocation's base address from byte `offset` of dynamic shared
    memory (after the CTA barrier that follows `fa4.tmem.alloc`) and adds
    `column`.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$offset,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$column);
  let results = (outs FA4_TmemTile:$tile);
  let assemblyFormat = "`column` $column `of` $offset attr-dict `:` type($tile)";
}

def FA4_TmemMmaOp : FA4_Op<"tmem.mma"> {
  let summary = "Issue D (+)= A x B into tensor memory (one thread)";
  let description = [{
    D is an f32 TMEM tile (M = 128 rows); A is a K-major shared-memory tile
    or a 16-bit TMEM tile (P, K = its columns); B a shared-memory tile,
    K-major with N rows (A B^T) or MN-major with K rows (A B). `accumulate`
    false overwrites D. Asynchronous: `fa4.tmem.commit` signals an mbarrier
    when every MMA this thread issued before it is done.

    `pair` (cta_group::2, issued by one thread of the pair's even CTA): one
    MMA over M = 256 rows, the 128 rows of A and D at the same addresses in
    each CTA of the pair, and B split along N: each CTA holds N / 2 of it
    (half the keys of K, half the depth columns of V). The types are each
    CTA's share: D's columns are the whole N, B's N extent is half of it.

    `issued_by %p` (a whole converged warp): every lane computes the
    descriptors, which are warp-uniform, so ptxas keeps them in uniform
    registers; only the lanes where `%p` holds (one `elect.sync` lane)
    issue. Without it, the thread that reaches the op issues it, and ptxas
    must prove its operands uniform lane by lane (an ELECT / R2UR.BROADCAST
    loop around every MMA).
  }];
  let arguments = (ins AnyTypeOf<[FA4_SmemTile, FA4_TmemTile]>:$a,
                       FA4_SmemTile:$b, FA4_TmemTile:$d, I1:$accumulate,
                       Optional<I1>:$issuer, UnitAttr:$pair);
  let assemblyFormat = [{
    $a `,` $b `into` $d `accumulate` $accumulate (`issued_by` $issuer^)?
    (`pair` $pair^)? attr-dict `:` type($a) `,` type($b) `,` type($d)
  }];
  let hasVerifier = 1;
}

def FA4_TmemCommitOp : FA4_Op<"tmem.commit"> {
  let summary = "Arrive on `barrier` once this thread's MMAs are done";
  let description = [{
    With `pair` (cta_group::2, in a cluster that is one CTA pair), the
    arrival goes to the barrier at the same offset in both CTAs
    (multicast mask 0b11): each CTA learns that the pair's MMAs reading its
    shared memory or writing its tensor memory are done. `issued_by %p`: as
    for `fa4.tmem.mma`, only the lanes where `%p` holds commit.
  }];
  let arguments = (ins FA4_MBarrier:$barrier, Optional<I1>:$issuer,
                       UnitAttr:$pair);
  let assemblyFormat =
      "$barrier (`issued_by` $issuer^)? (`pair` $pair^)? attr-dict";
}

def FA4_TmemLoadOp : FA4_Op<"tmem.load"> {
  let summary = "A warpgroup reads a TMEM tile into registers";
  let description = [{
    Row r of the tile goes to thread r of the warpgroup (warp w reads lanes
    32w..32w+31). Orders after the thread barrier that published the tile
    (tcgen05.fence::after_thread_sync) and waits for the load.
  }];
  let arguments = (ins FA4_TmemTile:$tile);
  let results = (outs FA4_Frag:$result);
  let assemblyFormat = "$tile attr-dict `:` type($tile) `->` type($result)";
  let hasVerifier = 1;
}

def FA4_TmemStoreOp : FA4_Op<"tmem.store"> {
  let summary = "A warpgroup writes registers into a TMEM tile";
  let description = [{
    The inverse of `fa4.tmem.load`; waits for the stores and orders them
    before the next thread barrier (tcgen05.fence::before_thread_sync), so an
    mbarrier arrival after it publishes the tile to the MMA thread.
  }];
  let arguments = (ins FA4_Frag:$value, FA4_TmemTile:$tile);
  let assemblyFormat = "$value `,` $tile attr-dict `:` type($value) `,` type($tile)";
  let hasVerifier = 1;
}

def FA4_TmemFenceOp : FA4_Op<"tmem.fence"> {
  let summary = "Order tensor-memory work against a thread barrier";
  let description = [{
    `after` (tcgen05.fence::after_thread_sync): tcgen05 work after it waits
    for the barrier before it, e.g. the MMA thread after an mbarrier wait.
    `before`: tcgen05 work before it is done before the next barrier.
  }];
  let arguments = (ins BoolAttr:$after);
  let assemblyFormat = "attr-dict";
}

def FA4_TmemScaleRowsOp : FA4_Op<"tmem.scale_rows"> {
  let summary = "Multiply each row of a TMEM tile by its factor, in place";
  let description = [{
    Run by a warpgroup (thread r owns row r), a chunk of columns at a time,
    between the MMA that last wrote the tile and the next one; a warp whose
    32 factors are all 1 skips its rows (the lazy rescale's point).
  }];
  let arguments = (ins FA4_TmemTile:$tile, FA4_Rows:$factors);
  let assemblyFormat = "$tile `by` $factors attr-dict `:` type($tile) `,` type($factors)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Rows through shared memory
//===----------------------------------------------------------------------===//

def FA4_RowsStoreOp : FA4_Op<"rows.store"> {
  let summary = "Write one f32 per row at byte `offset + 4 * row`";
  let description = [{
    How one role hands per-row values (rescale factors, final max and sum)
    to another: the writer stores, arrives on an mbarrier; the reader waits
    and loads with `fa4.rows.load`.
  }];
  let arguments = (ins FA4_Rows:$value,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$offset);
  let assemblyFormat = "$value `at` $offset attr-dict `:` type($value)";
}

def FA4_RowsLoadOp : FA4_Op<"rows.load"> {
  let summary = "Read one f32 per row from byte `offset + 4 * row`";
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$offset);
  let results = (outs FA4_Rows:$value);
  let assemblyFormat = "$offset attr-dict `:` type($value)";
}

#endif // FA4_DIALECT_FA4_IR_FA4OPS_TD
