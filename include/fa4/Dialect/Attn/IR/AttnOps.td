//===- AttnOps.td - attn dialect ops -----------------------*- tablegen -*-===//

#ifndef FA4_DIALECT_ATTN_IR_ATTNOPS_TD
#define FA4_DIALECT_ATTN_IR_ATTNOPS_TD

include "fa4/Dialect/Attn/IR/AttnDialect.td"
include "fa4/Dialect/Attn/IR/AttnAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def Attn_AttentionOp : Attn_Op<"attention", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
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

  let arguments = (ins
    AnyTypeOf<[AnyRankedTensor, AnyMemRef]>:$query,
    AnyTypeOf<[AnyRankedTensor, AnyMemRef]>:$key,
    AnyTypeOf<[AnyRankedTensor, AnyMemRef]>:$value,
    Variadic<AnyMemRef>:$outputs,
    OptionalAttr<F32Attr>:$scale,
    DefaultValuedAttr<Attn_MaskAttr, "::fa4::attn::MaskKind::None">:$mask,
    // Decisions of the planning passes, each written by its own pass.
    OptionalAttr<Attn_ConfigAttr>:$config,
    OptionalAttr<Attn_SplitKAttr>:$splitk,
    OptionalAttr<Attn_TmemAttr>:$tmem,
    OptionalAttr<Attn_SwizzleAttr>:$swizzle,
    OptionalAttr<Attn_SmemAttr>:$smem,
    // The looped twin's own plan where it differs from the kernel's
    // (attn-select-config decides; the swizzle and shared-memory passes
    // follow): on sm_90a the twin that serves Skv <= 2048 keeps two
    // consumers when the kernel takes three.
    OptionalAttr<Attn_ConfigAttr>:$twin_config,
    OptionalAttr<Attn_SwizzleAttr>:$twin_swizzle,
    OptionalAttr<Attn_SmemAttr>:$twin_smem
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);

  let assemblyFormat = [{
    $query `,` $key `,` $value (`outs` `(` $outputs^ `:` type($outputs) `)`)?
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
    /// LSE when requested, else null.
    ::mlir::Value getLse();
    /// The scale the kernel applies: the attribute or 1/sqrt(Dqk).
    double getEffectiveScale();

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

    /// The planners' view of this op; hints stand in for dynamic sizes in
    /// performance decisions only.
    ::fa4::AttnProblem getProblem(int64_t batchHint = ::fa4::kDynamic,
                                  int64_t seqQHint = ::fa4::kDynamic,
                                  int64_t seqKVHint = ::fa4::kDynamic);
  }];
}

#endif // FA4_DIALECT_ATTN_IR_ATTNOPS_TD
