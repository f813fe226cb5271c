//===- FA4Attrs.td - The kernel ABI record -----------------*- tablegen -*-===//
//
// `fa4.abi` on a lowered attn.attention: how the runtime launches its
// kernels (docs/KernelABI.md). The lowering writes it, the manifest writer
// (Artifacts.cpp) and embed-abi-records read it; the fa4 dialect verifies it
// against the op it sits on.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_DIALECT_FA4_IR_FA4ATTRS_TD
#define FA4_DIALECT_FA4_IR_FA4ATTRS_TD

include "fa4/Dialect/FA4/IR/FA4Dialect.td"
include "mlir/IR/AttrTypeBase.td"

class FA4_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<FA4_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Kernel parameters
//===----------------------------------------------------------------------===//

def FA4_TensorMapAttr : FA4_Attr<"TensorMap", "tensor_map"> {
  let summary = "A TMA tensor map of one tensor: its box and swizzle";
  let description = [{
    The box is outermost first (BSHD: batch, length, heads, depth); the
    swizzle in bytes, 0 for none. As a kernel parameter the runtime encodes
    it and passes it by value; inside `#fa4.tensor_map_scratch` the kernel
    builds it in global memory.
  }];
  let parameters = (ins StringRefParameter<"the tensor">:$tensor,
                        ArrayRefParameter<"int64_t">:$box,
                        "int64_t":$swizzle);
  let assemblyFormat = "`<` $tensor `,` `[` $box `]` `,` `swizzle` `=` $swizzle `>`";
  let genVerifyDecl = 1;
}

def FA4_PointerParamAttr : FA4_Attr<"PointerParam", "pointer"> {
  let summary = "A kernel parameter: the base address of a tensor";
  let parameters = (ins StringRefParameter<"the tensor">:$tensor);
  let assemblyFormat = "`<` $tensor `>`";
}

def FA4_WorkspaceParamAttr : FA4_Attr<"WorkspaceParam", "workspace"> {
  let summary = "A kernel parameter: the split-K workspace the runtime allocates";
}

def FA4_ScalarParamAttr : FA4_Attr<"ScalarParam", "scalar"> {
  let summary = "A kernel parameter: a size, a stride or the scale";
  let description = [{
    `type` is i32, i64 or f32; `value` a size symbol (`b`, `sq`, `skv`,
    `splits`), a stride (`o.stride.1`: the tensor, then its dimension) or
    `scale_log2`.
  }];
  let parameters = (ins "::mlir::Type":$type,
                        StringRefParameter<"what the runtime passes">:$value);
  let assemblyFormat = "`<` $type `,` $value `>`";
  let genVerifyDecl = 1;
}

def FA4_TensorMapScratchParamAttr
    : FA4_Attr<"TensorMapScratchParam", "tensor_map_scratch"> {
  let summary = "A kernel parameter: scratch for the tensor maps the kernel builds";
  let parameters = (ins ArrayRefParameter<"TensorMapAttr">:$maps);
  let assemblyFormat = "`<` `[` $maps `]` `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

def FA4_CeilDivAttr : FA4_Attr<"CeilDiv", "ceil_div"> {
  let summary = "A grid factor: a size symbol divided by a constant, rounded up";
  let parameters = (ins StringRefParameter<"the size symbol">:$symbol,
                        "int64_t":$divisor);
  let assemblyFormat = "`<` $symbol `,` $divisor `>`";
  let genVerifyDecl = 1;
}

def FA4_LaunchAttr : FA4_Attr<"Launch", "launch"> {
  let summary = "One kernel's parameters and launch shape";
  let description = [{
    `params`: one `#fa4.pointer`, `#fa4.workspace`, `#fa4.scalar`,
    `#fa4.tensor_map` or `#fa4.tensor_map_scratch` per kernel argument.
    `grid`: x, y and z, each a product of factors: an i64 constant, a size
    symbol (`b`, `sq`, `skv`, `hq`, `hkv`, `splits`) or a `#fa4.ceil_div`.
  }];
  let parameters = (ins "::mlir::ArrayAttr":$params,
                        "::mlir::ArrayAttr":$grid,
                        ArrayRefParameter<"int64_t">:$block,
                        ArrayRefParameter<"int64_t">:$cluster,
                        "int64_t":$dynamic_smem_bytes);
  let assemblyFormat = [{
    `<` `params` `=` $params `,` `grid` `=` $grid `,`
        `block` `=` `[` $block `]` `,` `cluster` `=` `[` $cluster `]` `,`
        `dynamic_smem_bytes` `=` $dynamic_smem_bytes `>`
  }];
  let genVerifyDecl = 1;
}

def FA4_AlignmentAttr : FA4_Attr<"Alignment", "alignment"> {
  let summary = "The base and stride alignment a tensor's accesses need";
  let parameters = (ins "int64_t":$base_bytes, "int64_t":$stride_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def FA4_PersistentAttr : FA4_Attr<"Persistent", "persistent"> {
  let summary = "A persistent launch rule";
  let description = [{
    When the launch's Skv is at most `max_seq_kv`, the runtime caps grid x
    at `ctas_per_sm` CTAs per SM and launches `kernel` (the looped twin, in
    the same module), with `launch` where the twin's plan differs; above
    it, the main kernel on one CTA per work tile. Without `kernel` the main
    kernel walks its work tiles itself.
  }];
  let parameters = (ins "int64_t":$ctas_per_sm, "int64_t":$max_seq_kv,
                        OptionalParameter<"::mlir::SymbolRefAttr">:$kernel,
                        OptionalParameter<"LaunchAttr">:$launch);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def FA4_SplitAtLaunchAttr : FA4_Attr<"SplitAtLaunch", "split_at_launch"> {
  let summary = "A workspace split-K whose partition count the runtime picks";
  let description = [{
    docs/KernelABI.md gives the rule; the count binds the size symbol
    `splits`.
  }];
  let parameters = (ins "int64_t":$max_partitions,
                        "int64_t":$min_keys_per_partition,
                        "int64_t":$key_tile, "int64_t":$min_partitions);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def FA4_CombineAttr : FA4_Attr<"Combine", "combine"> {
  let summary = "A workspace split-K: the workspace and its combine kernel";
  let description = [{
    The runtime allocates `workspace_bytes` (a product of grid factors) for
    the f32 partials, passes it as `#fa4.workspace`, and launches `kernel`
    after the attention kernel on the same stream.
  }];
  let parameters = (ins "::mlir::SymbolRefAttr":$kernel,
                        "::mlir::ArrayAttr":$workspace_bytes,
                        "LaunchAttr":$launch,
                        OptionalParameter<"SplitAtLaunchAttr">:$split_at_launch);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def FA4_KernelABIAttr : FA4_Attr<"KernelABI", "abi"> {
  let summary = "How the runtime launches an attn.attention's kernels";
  let description = [{
    Set by the lowerings as `fa4.abi` on the attn.attention they lowered:
    the kernel (`@module::@func`), its launch, the alignment each tensor
    needs (`q`, `k`, `v`, `o` and `lse` where the op has it), and the
    optional programmatic dependent launch, persistent rule and workspace
    combine. The dialect checks it against the op: every tensor it names is
    one of the op's, and every size symbol one the runtime binds.
  }];
  let parameters = (ins
    "::mlir::SymbolRefAttr":$kernel, "LaunchAttr":$launch,
    "::mlir::DictionaryAttr":$alignment,
    DefaultValuedParameter<"bool", "false">:$programmatic_dependent_launch,
    OptionalParameter<"PersistentAttr">:$persistent,
    OptionalParameter<"CombineAttr">:$combine
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // FA4_DIALECT_FA4_IR_FA4ATTRS_TD
