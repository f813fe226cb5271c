//===- AttnOps.td - attn dialect ops -----------------------*- tablegen -*-===//

#ifndef FA4_DIALECT_ATTN_IR_ATTNOPS_TD
#define FA4_DIALECT_ATTN_IR_ATTNOPS_TD

include "fa4/Dialect/Attn/IR/AttnDialect.td"
include "fa4/Dialect/Attn/IR/AttnAttrs.td"
include "fa4/Dialect/Attn/IR/AttnInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

// Decisions of the planning passes, each written by its own pass. The
// looped twin's own plan where it differs from the kernel's
// (attn-select-config decides; the swizzle and shared-memory passes
// follow): on sm_90a the twin that serves Skv <= 2048 keeps two consumers
// when the kernel takes three.
defvar Attn_PlanArguments = (ins
  OptionalAttr<Attn_ConfigAttr>:$config,
  OptionalAttr<Attn_SplitKAttr>:$splitk,
  OptionalAttr<Attn_TmemAttr>:$tmem,
  OptionalAttr<Attn_SwizzleAttr>:$swizzle,
  OptionalAttr<Attn_SmemAttr>:$smem,
  OptionalAttr<Attn_ConfigAttr>:$twin_config,
  OptionalAttr<Attn_SwizzleAttr>:$twin_swizzle,
  OptionalAttr<Attn_SmemAttr>:$twin_smem
);

def Attn_AttentionOp : Attn_Op<"attention", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<Attn_PlannedAttentionOpInterface>]> {
  let summary = "Scaled dot-product attention in BSHD layout";
  let description = [{
    `O = softmax(scale * Q K^T + mask) V`, per batch and query head, with the
    softmax in f32. Shapes (BSHD):

    - Q `[B, Sq, Hq, Dqk]`, K `[B, Skv, Hkv, Dqk]`, V `[B, Skv, Hkv, Dv]`;
    - O `[B, Sq, Hq, Dv]` and the optional log-sum-exp LSE `[B, Hq, Sq]` (f32,
      natural log).

    B, Sq and Skv may be dynamic; the head counts and depths are static.
    `Hq % Hkv == 0`: query head `h` reads key/value head `h / (Hq / Hkv)`
    (MHA, GQA and MQA). `scale` defaults to `1/sqrt(Dqk)`. The mask is
    bottom-right aligned (see `#attn.mask`).

    With `softcap` = c (logit softcapping, Gemma 2/3; FlashAttention's
    `softcap`), each scaled score s becomes `c * tanh(s / c)` before the
    mask: `O = softmax(c * tanh(scale * Q K^T / c) + mask) V`. c is finite
    and > 0. The serving forms take it with the same meaning.

    With `sinks` (attention sinks, gpt-oss's `s_aux`; FlashAttention's
    learnable sink), an f32 `[Hq]` of one logit per query head: each row's
    softmax has one more term, `exp(sinks[h])`, in its denominator (and
    its max), with no value row: `O = sum_j exp(s_j - m) V_j / (sum_j
    exp(s_j - m) + exp(sinks[h] - m))`, `LSE` the log of the whole sum. A
    row that sees no key gives O = 0 and LSE = sinks[h]. The serving forms
    take it too; every kernel starts each row's softmax from its sink
    (`fa4.sink.rows`), and `attn-decompose` gives its meaning.

    FP8 (FlashAttention 3's FP8 forward): Q, K and V may be `f8E4M3FN`, all
    three (O then bf16 or f16), or K and V alone under a bf16 or f16 Q of
    O's type (an FP8 KV cache). Each FP8 operand may take its descale,
    `q_descale` / `k_descale` / `v_descale`: f32, one value for the tensor
    (rank 0) or one per batch and key/value head (`[B, Hkv]`, FlashAttention
    3's layout; query head h reads entry h / (Hq / Hkv)); the op computes
    with `descale * x` in place of each FP8 operand x, and without a
    descale with x itself. No kernel lowers FP8 yet: the kernel paths
    refuse such an op by name; `attn-decompose` gives its meaning.

    With tensor operands the op returns O and, when asked for, LSE. With
    memref operands it is in destination style: O and the optional LSE are
    passed in `outs` and written.

    ```mlir
    %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
        : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>,
          tensor<?x?x8x128xbf16>
        -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>

    attn.attention %q, %k, %v outs(%o : memref<2x113x8x64xf16>)
        : memref<2x113x8x64xf16>, memref<2x203x8x64xf16>,
          memref<2x203x8x64xf16>
    ```
  }];

  let arguments = !con((ins
    AnyTypeOf<[AnyRankedTensor, AnyMemRef]>:$query,
    AnyTypeOf<[AnyRankedTensor, AnyMemRef]>:$key,
    AnyTypeOf<[AnyRankedTensor, AnyMemRef]>:$value,
    Optional<AnyTypeOf<[AnyRankedTensor, AnyMemRef]>>:$sinks,
    Optional<AnyTypeOf<[AnyRankedTensor, AnyMemRef]>>:$q_descale,
    Optional<AnyTypeOf<[AnyRankedTensor, AnyMemRef]>>:$k_descale,
    Optional<AnyTypeOf<[AnyRankedTensor, AnyMemRef]>>:$v_descale,
    Variadic<AnyMemRef>:$outputs,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_MaskAttr, "::fa4::attn::MaskKind::None">:$mask,
    OptionalAttr<F32Attr>:$softcap
  ), Attn_PlanArguments);
  let results = (outs Variadic<AnyRankedTensor>:$results);

  let assemblyFormat = [{
    $query `,` $key `,` $value (`sinks` `(` $sinks^ `:` type($sinks) `)`)?
    (`q_descale` `(` $q_descale^ `:` type($q_descale) `)`)?
    (`k_descale` `(` $k_descale^ `:` type($k_descale) `)`)?
    (`v_descale` `(` $v_descale^ `:` type($v_descale) `)`)?
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value)
    (`->` type($results)^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// True when the operands are memrefs (destination style).
    bool hasBufferSemantics() {
      return ::llvm::isa<::mlir::MemRefType>(getQuery().getType());
    }
    /// O: the first result (tensor form) or the first `outs` operand.
    ::mlir::Value getOutput();

    /// The autodiff link (issue 63): this op's backward pass of
    /// `gradOutput` (dO, O's type), built at `builder`'s insertion point
    /// from this op's Q, K, V, O and LSE with its scale, mask and softcap:
    /// an `attn.attention_backward` whose results are dQ, dK and dV. Fails
    /// with a diagnostic on this op where it has no backward pass: memrefs,
    /// FP8, or no LSE (`withLse` gives an op that returns it). With sinks,
    /// dQ, dK and dV hold as they are (LSE holds the sinks); the sinks'
    /// own gradient is `buildSinksGradient`'s.
    ::llvm::FailureOr<AttentionBackwardOp>
    buildBackward(::mlir::OpBuilder &builder, ::mlir::Value gradOutput);
    /// The gradient of this op's sinks (f32 [Hq]) for `gradOutput`: minus
    /// the sum over batches and rows of exp(sink - LSE) * rowsum(dO * O),
    /// one linalg.generic. Fails as buildBackward does, where the op has
    /// no sinks, and where arith, linalg, math or tensor is not loaded
    /// (the calling pass declares them).
    ::llvm::FailureOr<::mlir::Value>
    buildSinksGradient(::mlir::OpBuilder &builder, ::mlir::Value gradOutput);
    /// This op if it returns LSE, else an op on tensors that also returns
    /// it, in its place (O's uses move to the new op).
    AttentionOp withLse(::mlir::RewriterBase &rewriter);
    /// LSE when requested, else null.
    ::mlir::Value getLse();

    ::mlir::ShapedType getQueryType() {
      return ::llvm::cast<::mlir::ShapedType>(getQuery().getType());
    }
    ::mlir::ShapedType getKeyType() {
      return ::llvm::cast<::mlir::ShapedType>(getKey().getType());
    }
    ::mlir::ShapedType getValueType() {
      return ::llvm::cast<::mlir::ShapedType>(getValue().getType());
    }
    int64_t getNumQueryHeads() { return getQueryType().getDimSize(2); }
    int64_t getNumKVHeads() { return getKeyType().getDimSize(2); }
    int64_t getQKDepth() { return getQueryType().getDimSize(3); }
    int64_t getOVDepth() { return getValueType().getDimSize(3); }

    /// The planners' view of this op with no hints
    /// (PlannedAttentionOpInterface::getProblem takes them).
    ::fa4::AttnProblem getProblem() {
      return getProblem(::fa4::kDynamic, ::fa4::kDynamic, ::fa4::kDynamic);
    }
  }];
}

//===----------------------------------------------------------------------===//
// The backward pass
//===----------------------------------------------------------------------===//

def Attn_AttentionBackwardOp : Attn_Op<"attention_backward", [Pure]> {
  let summary = "The gradients of attn.attention: dQ, dK and dV";
  let description = [{
    The backward pass of `attn.attention` (issue 63), FlashAttention's: from
    the forward's inputs Q `[B, Sq, Hq, Dqk]`, K `[B, Skv, Hkv, Dqk]`, V
    `[B, Skv, Hkv, Dv]`, its output O `[B, Sq, Hq, Dv]` and log-sum-exp LSE
    `[B, Hq, Sq]` (f32), and the output's gradient dO (O's shape), the
    gradients dQ, dK and dV of the inputs' shapes and element type (bf16
    or f16). `scale`, `mask` and `softcap` mean what they mean on the
    forward op whose O and LSE these are. With P = exp(S - LSE) for S the
    forward's scaled, softcapped and masked scores (0 where masked, and in
    a row that saw no key):

    - dV = P^T dO, dP = dO V^T, D = rowsum(dO * O),
    - dS = P * (dP - D), times 1 - (s / c)^2 under a softcap c (s the
      capped score), times `scale`;
    - dQ = dS K, dK = dS^T Q.

    Under GQA/MQA (Hq a multiple of Hkv) dK and dV sum over the query heads
    of each key/value head. `deterministic` asks that the result not
    depend on the order work runs in (FlashAttention's deterministic
    mode): bitwise the same on every run. No kernel lowers it yet;
    `attn-decompose` gives its meaning.

    ```mlir
    %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse
        {mask = #attn.mask<causal>}
        : tensor<2x128x8x64xbf16>, tensor<2x128x8x64xbf16>,
          tensor<2x128x2x64xbf16>, tensor<2x128x2x64xbf16>,
          tensor<2x128x8x64xbf16>, tensor<2x8x128xf32>
        -> tensor<2x128x8x64xbf16>, tensor<2x128x2x64xbf16>,
           tensor<2x128x2x64xbf16>
    ```
  }];
  let arguments = (ins
    AnyRankedTensor:$grad_output, AnyRankedTensor:$query,
    AnyRankedTensor:$key, AnyRankedTensor:$value, AnyRankedTensor:$output,
    AnyRankedTensor:$lse,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_MaskAttr, "::fa4::attn::MaskKind::None">:$mask,
    OptionalAttr<F32Attr>:$softcap,
    UnitAttr:$deterministic
  );
  let results = (outs AnyRankedTensor:$grad_query, AnyRankedTensor:$grad_key,
                      AnyRankedTensor:$grad_value);
  let assemblyFormat = [{
    $grad_output `,` $query `,` $key `,` $value `,` $output `,` $lse
    attr-dict `:` type($grad_output) `,` type($query) `,` type($key) `,`
    type($value) `,` type($output) `,` type($lse) `->` type($grad_query) `,`
    type($grad_key) `,` type($grad_value)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `scale`, or 1/sqrt(Dqk) where absent (as the forward's).
    double getEffectiveScale();
  }];
}

//===----------------------------------------------------------------------===//
// Serving forms: sequences of different lengths in one op
//===----------------------------------------------------------------------===//

def Attn_VarlenAttentionOp : Attn_Op<"varlen_attention", [Pure,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Attn_PlannedAttentionOpInterface>]> {
  let summary = "Attention over packed sequences of different lengths";
  let description = [{
    FlashAttention's `flash_attn_varlen_func`: the batch's sequences packed
    along one token dimension, without padding.

    - Q `[Tq, Hq, Dqk]`, K `[Tk, Hkv, Dqk]`, V `[Tk, Hkv, Dv]`; O
      `[Tq, Hq, Dv]` and the optional LSE `[Hq, Tq]` (f32, natural log);
    - `cu_seqlens_q`, `cu_seqlens_k`: i32 `[B + 1]`, the first token of each
      sequence and the total last (monotone, from 0);
    - `seqused_k` (optional): i32 `[B]`, the keys of each sequence that
      count, a prefix of its `cu_seqlens_k` span.

    Each sequence is its own problem: the mask is bottom-right aligned per
    sequence (its Sq and Skv), as `attn.attention`'s. A sequence with no
    query token is skipped; a query row that sees no key gives O = 0 and
    LSE = -inf. The values of `cu_seqlens_*` and `seqused_k` are runtime
    data: the verifier checks their types and what static sizes show.

    ```mlir
    %o = attn.varlen_attention %q, %k, %v
        cu_seqlens(%cq, %ck : tensor<9xi32>, tensor<9xi32>)
        {mask = #attn.mask<causal>}
        : tensor<?x32x128xbf16>, tensor<?x8x128xbf16>, tensor<?x8x128xbf16>
        -> tensor<?x32x128xbf16>
    ```
  }];
  let arguments = !con((ins
    AnyRankedTensor:$query, AnyRankedTensor:$key, AnyRankedTensor:$value,
    RankedTensorOf<[I32]>:$cu_seqlens_q, RankedTensorOf<[I32]>:$cu_seqlens_k,
    Optional<RankedTensorOf<[I32]>>:$seqused_k,
    Optional<AnyRankedTensor>:$sinks,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_MaskAttr, "::fa4::attn::MaskKind::None">:$mask,
    OptionalAttr<F32Attr>:$softcap
  ), Attn_PlanArguments);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $query `,` $key `,` $value
    `cu_seqlens` `(` $cu_seqlens_q `,` $cu_seqlens_k `:` type($cu_seqlens_q)
      `,` type($cu_seqlens_k) `)`
    (`seqused_k` `(` $seqused_k^ `:` type($seqused_k) `)`)?
    (`sinks` `(` $sinks^ `:` type($sinks) `)`)?
    attr-dict `:` type($query) `,` type($key) `,` type($value)
    `->` type($results)
  }];
  let hasVerifier = 1;
}

def Attn_PagedAttentionOp : Attn_Op<"paged_attention", [Pure,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<Attn_PlannedAttentionOpInterface>]> {
  let summary = "Attention over a paged key/value cache";
  let description = [{
    FlashAttention's `flash_attn_with_kvcache` with a `block_table` (vLLM's
    paged cache): K and V live in fixed-size pages that a block table maps
    to each sequence.

    - K cache `[P, page_size, Hkv, Dqk]`, V cache `[P, page_size, Hkv, Dv]`
      (P pages; `page_size` static);
    - `block_table`: i32 `[B, max_pages]`, sequence b's key `j` is token
      `j % page_size` of page `block_table[b, j / page_size]`;
    - `seqlens_k`: i32 `[B]`, the keys of each sequence;
    - Q dense `[B, Sq, Hq, Dqk]` (O `[B, Sq, Hq, Dv]`, LSE `[B, Hq, Sq]`),
      or packed `[Tq, Hq, Dqk]` with `cu_seqlens_q` (i32 `[B + 1]`; O
      `[Tq, Hq, Dv]`, LSE `[Hq, Tq]`).

    The mask is bottom-right aligned per sequence. Block-table entries past
    a sequence's pages are not read; entries outside `[0, P)` within them are
    undefined behaviour, as in FlashAttention.

    ```mlir
    %o = attn.paged_attention %q, %kc, %vc
        block_table(%bt : tensor<8x512xi32>) seqlens_k(%sk : tensor<8xi32>)
        : tensor<8x1x32x128xbf16>, tensor<?x64x8x128xbf16>,
          tensor<?x64x8x128xbf16> -> tensor<8x1x32x128xbf16>
    ```
  }];
  let arguments = !con((ins
    AnyRankedTensor:$query, AnyRankedTensor:$key_cache,
    AnyRankedTensor:$value_cache, RankedTensorOf<[I32]>:$block_table,
    RankedTensorOf<[I32]>:$seqlens_k,
    Optional<RankedTensorOf<[I32]>>:$cu_seqlens_q,
    Optional<AnyRankedTensor>:$sinks,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_MaskAttr, "::fa4::attn::MaskKind::None">:$mask,
    OptionalAttr<F32Attr>:$softcap
  ), Attn_PlanArguments);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $query `,` $key_cache `,` $value_cache
    `block_table` `(` $block_table `:` type($block_table) `)`
    `seqlens_k` `(` $seqlens_k `:` type($seqlens_k) `)`
    (`cu_seqlens_q` `(` $cu_seqlens_q^ `:` type($cu_seqlens_q) `)`)?
    (`sinks` `(` $sinks^ `:` type($sinks) `)`)?
    attr-dict `:` type($query) `,` type($key_cache) `,` type($value_cache)
    `->` type($results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tokens of one page of the cache.
    int64_t getPageSize() {
      return ::llvm::cast<::mlir::ShapedType>(getKeyCache().getType())
          .getDimSize(1);
    }
  }];
}

#endif // FA4_DIALECT_ATTN_IR_ATTNOPS_TD
