//===- Passes.td - attn planning passes --------------------*- tablegen -*-===//
//
// Each pass is a thin shell around one planner of fa4/Planning: it reads the
// attributes earlier passes wrote on attn.attention, calls the planner, and
// writes its own attribute or emits the planner's diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_DIALECT_ATTN_TRANSFORMS_PASSES_TD
#define FA4_DIALECT_ATTN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttnSelectConfig : Pass<"attn-select-config"> {
  let summary = "Choose the kernel configuration (#attn.config)";
  let description = [{
    Picks tile sizes, Q tiles, GQA fusion, CTA pairs and depths for every
    attn.attention from the shapes and the target chip's facts. The hints
    stand in for dynamic sizes in performance decisions (GQA fusion, split-K)
    only; the kernel stays correct for every run-time size.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_100a\"",
           "Target chip: sm_100a (Blackwell) or sm_90a (Hopper)">,
    Option<"batchHint", "batch-hint", "int64_t", /*default=*/"-1",
           "Expected batch size when it is dynamic (-1: none)">,
    Option<"seqQHint", "seq-q-hint", "int64_t", /*default=*/"-1",
           "Expected query length when it is dynamic (-1: none)">,
    Option<"seqKVHint", "seq-kv-hint", "int64_t", /*default=*/"-1",
           "Expected key/value length when it is dynamic (-1: none)">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"0",
           "Keys per KV tile in place of the planner's choice (0: the "
           "planner's; else a multiple of 16 no larger than what the chip's "
           "registers, TMEM and shared memory allow)">,
    Option<"causalBlockN", "causal-block-n", "int64_t",
           /*default=*/"::fa4::kDefaultCausalBlockN",
           "sm_90a, causal mask: at most this many keys per KV tile (0: no "
           "cap; default 128, which lines the tiles up with the 128-row "
           "blocks, so no key past a block's diagonal tile is multiplied: "
           "+8-21% at S <= 2048 for d = 64 and 128 (D-15))">,
    Option<"consumerWarpgroups", "consumer-warpgroups", "int64_t",
           /*default=*/"0",
           "sm_90a prefill: consumer warpgroups of 64 rows each, 2 (BM = "
           "128, 384 threads) or 3 (BM = 192, 512 threads at 160 registers "
           "a consumer, FA3's tile at d = 64; Dv <= 128); fused GQA and "
           "decode tiles keep two. 0: the planner's: three at depths up to "
           "64 without a window mask where the kernel runs only past the "
           "looped twin's 2048 keys (a static Skv past it, or a dynamic one, "
           "whose twin then gets its own plan of two, twin_config) and Sq is "
           "past 2048 or unknown (+7-13% from 4096 keys on the H200, "
           "D-16), else two">
  ];
}

def AttnPlanSplitK : Pass<"attn-plan-splitk"> {
  let summary = "Plan split-K partitions and the combine mode (#attn.splitk)";
  let description = [{
    Splits the keys of each work item over P = floor(SMs / work-item CTAs)
    CTAs (one wave) when that gives P >= 2 and every partition keeps enough
    KV tiles to stream; combines through the cluster DSMEM
    reduce-scatter when the partitions fit one cluster, else through a
    workspace and a combine kernel. Needs #attn.config.
  }];
  let options = [
    Option<"batchHint", "batch-hint", "int64_t", /*default=*/"-1",
           "Expected batch size when it is dynamic (-1: none)">,
    Option<"seqQHint", "seq-q-hint", "int64_t", /*default=*/"-1",
           "Expected query length when it is dynamic (-1: none)">,
    Option<"seqKVHint", "seq-kv-hint", "int64_t", /*default=*/"-1",
           "Expected key/value length when it is dynamic (-1: none)">,
    Option<"splitKPartitions", "split-k-partitions", "int64_t",
           /*default=*/"0",
           "Partitions per work item in place of the planner's rule (0: the "
           "planner's; 1: no split; else 2 or more, each with at least one "
           "KV tile)">,
    Option<"splitKWorkspace", "split-k-workspace", "bool", /*default=*/"false",
           "Combine through the global workspace even when the partitions "
           "fit a cluster">
  ];
}

def AttnPlanTmem : Pass<"attn-plan-tmem"> {
  let summary = "Place S, O and P in tensor memory (#attn.tmem, sm_100a)";
  let description = [{
    Maps S0, S1, O0, O1 and P (aliased inside S) to TMEM columns and sizes
    the tcgen05.alloc. sm_90a has no TMEM: no attribute is written. Needs
    #attn.config.
  }];
}

def AttnSelectSwizzle : Pass<"attn-select-swizzle"> {
  let summary = "Choose TMA boxes and shared-memory swizzles (#attn.swizzle)";
  let description = [{
    For Q, K, V and O: the widest of 128B/64B/32B swizzle that the box's row
    allows, 64B at most for 8-bit types, none for boxes under 8 rows. Needs
    #attn.config.
  }];
}

def AttnPlanSmem : Pass<"attn-plan-smem"> {
  let summary = "Lay out shared memory and choose stage counts (#attn.smem)";
  let description = [{
    Places Q, the K/V rings, O staging, split-K staging and the mbarriers
    within the chip's carveout, with as many KV stages as fit (capped).
    Needs #attn.config, #attn.splitk, #attn.swizzle and, on sm_100a,
    #attn.tmem.
  }];
  let options = [
    Option<"maxKvStages", "max-kv-stages", "int64_t", /*default=*/"0",
           "At most this many K/V ring slots (0: as many as fit, up to the "
           "chip's cap; else at least the kernel's minimum: 1 per ring, 2 "
           "in a shared K/V ring)">
  ];
}

def AttnDecodeVariants : Pass<"attn-decode-variants", "::mlir::ModuleOp"> {
  let summary = "Give a kernel of unknown query length a decode variant";
  let description = [{
    A kernel whose query length is dynamic and unhinted is planned for
    prefill: 128-row tiles of one head, no split of the keys. Run at
    decode shapes (a few query rows) it streams K and V once per q-head
    on a handful of CTAs. For each such attn.attention this pass adds a
    private function `<name>_decode` (`<name>` its function's; renamed on a
    clash) that holds a clone of the op, its operands the arguments and its
    results returned, with `attn.seq_q_hint` set to 1, so the planners give
    the clone a decode plan (fused GQA heads, and a split-K whose partition
    count the runtime picks when batch and Skv are dynamic). The two are
    linked: `attn.decode_variant = @<name>_decode` on the original op,
    `attn.decode_variant_of = @<name>` on the clone. The artifact writer
    puts both kernels beside each other and the variant's manifest under
    the original's `decode`; the runtime launches the variant when the
    query length is at most its work item's rows. Ops with a window bounded
    on the left (their keys' span is not Skv) and ops with a query-length
    hint are left alone. The serving forms get variants too where their
    queries are packed (each sequence its own length) or dense of unknown
    length.
  }];
}

def AttnRaise : Pass<"attn-raise"> {
  let summary = "Raise attention lowered to linalg on tensors or tosa to "
                "attn.attention";
  let description = [{
    Finds scaled dot-product attention in the linalg-on-tensors form that
    frontends produce (torch-mlir, as IREE's ONNX and torch importers run
    it): BHSD Q, K, V flattened to `[B*H, S, D]` for `linalg.batch_matmul`,
    or without a batch `[H, S, D]` operands of `linalg.batch_matmul` as
    they are and one head's `[S, D]` of `linalg.matmul` (given unit dims
    for the op by `tensor.expand_shape`, its O collapsed back), K
    transposed by `linalg.transpose`; scores scaled by a constant (a
    multiply or divide, or split over Q and K^T as torch.onnx exports it);
    an optional constant `[Sq, Skv]` mask read at (query, key) (additive 0
    and -inf, or a select of the scores and -inf over booleans), or a select
    over booleans the model computes from the loop indices and its lengths
    (Trilu's lowering, or comparisons of the indices) where its bounds are
    fa4's diagonal `query + Skv - Sq` plus constants; a softmax
    over the keys as
    generics (max, subtract, exp, sum, divide) or `linalg.softmax`; precision
    casts between them. Each match becomes `attn.attention` on BSHD
    transposes of the operands (or the BSHD tensors themselves, where the
    model transposed them to BHSD), its O transposed back (or not, where the
    model does). The mask becomes `#attn.mask` (none, causal or a window,
    bottom-right aligned), the scale an attribute where it is not
    `1/sqrt(D)`. GQA, where K and V reach the products broadcast over the
    query heads of their group, takes the unbroadcast K and V. f16/bf16
    only. -inf may also be the type's lowest finite value, as transformers
    writes masks (`torch.finfo(dtype).min`). What it cannot express (a mask
    that is no 0/-inf interval per row, a bias, other dtypes, and what
    `attn.attention` does not take: sizes past a kernel's limits, a scale
    that is not finite and > 0) it leaves alone, and it erases only what it
    replaced.

    The same attention in tosa, as torch-mlir's TOSA backend writes it
    (static shapes): `tosa.matmul` on operands reshaped to `[B*H, S, D]`
    (or `[H, S, D]` as they are, `[S, D]` given a unit batch), K^T by
    `tosa.transpose`, a scale by a splat constant or its reciprocal on the
    scores or split over Q and K^T, an optional constant mask (`tosa.add` of
    0/-inf, or `tosa.select` of the scores and -inf) with unit leading dims,
    a softmax of `reduce_max`, `sub`, `exp`, `reduce_sum`, `reciprocal` and
    `mul` over the last dim, float casts between them, and GQA as K and V
    reshaped to `[B, Hkv, 1, S, D]` and tiled over their group. The
    rewrite is the one above (linalg transposes and reshapes around the
    op), so the tosa it replaced is gone and the rest stays tosa.

    The products may also be `linalg.matmul` / `linalg.batch_matmul` that
    read K transposed by their indexing maps, or generic contractions; the
    softmax may run on the flattened `[B*H, Sq, Skv]` scores; the scale may
    sit on Q, on K or on the scores. Nothing is raised on its shape alone:
    each product must start from 0, the softmax's sum from 0 and its max
    from -inf (or the lowest finite value), each body must read its inputs
    and not its init. Where an attention-shaped computation fails one of
    these, a remark on its P.V product says which.
  }];
  let dependentDialects = ["::fa4::attn::AttnDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AttnDecompose : Pass<"attn-decompose"> {
  let summary = "Rewrite attn.attention on tensors into linalg (its meaning)";
  let description = [{
    Replaces each `attn.attention` on tensors by the computation it means,
    in linalg on tensors with the softmax in f32: the scores `Q.K^T` (query
    head `h` reading key/value head `h / (Hq / Hkv)`), scaled and masked
    (bottom-right aligned, a hidden key's score -inf), the row max, `exp`
    of the shifted scores, the row sum, `P.V` divided by the sum and
    rounded to the operands' type, and LSE (`max + log(sum)`) where asked
    for. A row that sees no key gives `O = 0` and `LSE = -inf`. It is the
    reference that raised IR is checked against on the CPU
    (`tools/raise-oracle.py`), and a CPU path for an embedding compiler.
    Ops on memrefs are left alone.

    The serving forms too: `attn.varlen_attention` as one sequence of all
    tokens where a query sees only keys of its own sequence (found from
    `cu_seqlens_q`), within `seqused_k`, under the mask aligned to its
    sequence's corner; `attn.paged_attention` over the
    cache gathered by its block table (entries past a sequence's keys are
    not read), each sequence's keys counted by `seqlens_k`. A paged cache
    with packed queries is one batch of all query tokens over every
    sequence's gathered keys laid end to end.

    And `attn.attention_backward`: P recomputed from the scores and the
    given LSE, then dV = P^T dO, dP = dO V^T, D = rowsum(dO * O), dS =
    P (dP - D) (times the softcap's slope) times the scale, dQ = dS K and
    dK = dS^T Q, in f32, summed over each key/value head's query heads and
    rounded to the operands' type.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def AttnExplain : Pass<"attn-explain"> {
  let summary = "Print every planning decision and the rule behind it";
  let description = [{
    For each attn.attention, prints the plans found on it (like
    FA4Config.description()) to stdout.
  }];
}

#endif // FA4_DIALECT_ATTN_TRANSFORMS_PASSES_TD
