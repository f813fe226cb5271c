//===- AttnAttrs.td - attn dialect attributes --------------*- tablegen -*-===//

#ifndef FA4_DIALECT_ATTN_IR_ATTNATTRS_TD
#define FA4_DIALECT_ATTN_IR_ATTNATTRS_TD

include "fa4/Dialect/Attn/IR/AttnDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Attn_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Attn_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Attn_MaskKind : I32EnumAttr<"MaskKind", "attention mask kind", [
  I32EnumAttrCase<"None", 0, "none">,
  I32EnumAttrCase<"Causal", 1, "causal">,
  I32EnumAttrCase<"Window", 2, "window">
]> {
  let cppNamespace = "::fa4::attn";
  let genSpecializedAttr = 0;
}

def Attn_MaskAttr : Attn_Attr<"Mask", "mask"> {
  let summary = "Which keys each query sees";
  let description = [{
    All masks are aligned to the bottom-right corner of the score matrix, the
    convention of FlashAttention 2 and later: with `d = Skv - Sq`, query `i`
    sees key `j` iff

    - `none`: always;
    - `causal`: `j <= i + d`;
    - `window(left, right)`: `i + d - left <= j <= i + d + right`, where a
      bound of -1 leaves that side unbounded.

    A query row that sees no key produces `O = 0` and `LSE = -inf`.

    ```mlir
    #attn.mask<none>
    #attn.mask<causal>
    #attn.mask<window(128, 0)>
    ```
  }];
  let parameters = (ins
    EnumParameter<Attn_MaskKind>:$kind,
    DefaultValuedParameter<"int64_t", "-1">:$left,
    DefaultValuedParameter<"int64_t", "-1">:$right
  );
  let builders = [
    AttrBuilder<(ins "MaskKind":$kind), [{
      return $_get($_ctxt, kind, -1, -1);
    }]>
  ];
  let constBuilderCall = "::fa4::attn::MaskAttr::get($_builder.getContext(), $0)";
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isNone() const { return getKind() == MaskKind::None; }
  }];
}

//===----------------------------------------------------------------------===//
// Plan attributes: each planning pass records its decision in one of these.
// They mirror the plan structs of fa4/Planning one to one (toPlan/get), so
// lit tests read the same fields the gtests check.
//===----------------------------------------------------------------------===//

// The chip is fa4::Chip (fa4/Target/TargetInfo.h), the one enum every
// layer reads, spelled as its name: `chip = sm_100a`.
def Attn_ChipParameter : AttrParameter<"::fa4::Chip", "target chip"> {
  let parser = [{ ::fa4::attn::parseChipParameter($_parser) }];
  let printer = [{ $_printer << ::fa4::chipName($_self) }];
}

def Attn_ConfigAttr : Attn_Attr<"Config", "config"> {
  let summary = "The kernel configuration (the FA4Config analogue)";
  let description = [{
    Written by `attn-select-config`. Field meanings follow FA4Config:
    `bm` Q rows per CTA over its `num_q` Q tiles, `bn` keys per KV tile,
    `bk0`/`bk1` the K extents of one QK^T / P@V step, `mma_m`/`mma_k` one
    tensor-core instruction, `m_pack` rows per TMEM lane, padded depths the
    MMA-aligned depths, `fuse_gqa` when the q-heads of one kv-head share an M
    tile, `pair_cta` for tcgen05 cta_group::2, `single_o` for one O
    accumulator, `page_size` 0 for contiguous K/V.
  }];
  let parameters = (ins
    Attn_ChipParameter:$chip,
    "int64_t":$mma_m, "int64_t":$mma_k, "int64_t":$m_pack,
    "int64_t":$bm, "int64_t":$bn, "int64_t":$bk0, "int64_t":$bk1,
    "int64_t":$qk_depth, "int64_t":$padded_qk_depth,
    "int64_t":$ov_depth, "int64_t":$padded_ov_depth,
    "int64_t":$nope_depth, "int64_t":$padded_nope_depth,
    "int64_t":$group, "int64_t":$num_q_heads, "int64_t":$num_kv_heads,
    "int64_t":$num_q, "bool":$fuse_gqa, "bool":$use_shared_kv,
    "bool":$pair_cta, "bool":$single_o, "int64_t":$page_size, "bool":$is_mla,
    "int64_t":$num_threads
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    static ConfigAttr get(::mlir::MLIRContext *context,
                          const ::fa4::AttnConfig &config);
    /// The plan struct; element types come from the op (see getProblem).
    ::fa4::AttnConfig toPlan(const ::fa4::AttnProblem &problem) const;
  }];
}

def Attn_SplitKMode : I32EnumAttr<"SplitKMode", "split-K combine mode", [
  I32EnumAttrCase<"None", 0, "none">,
  I32EnumAttrCase<"ClusterDsmem", 1, "cluster_dsmem">,
  I32EnumAttrCase<"Workspace", 2, "workspace">
]> {
  let cppNamespace = "::fa4::attn";
  let genSpecializedAttr = 0;
}

def Attn_SplitKReason : I32EnumAttr<"SplitKReason", "why split-K splits or not", [
  I32EnumAttrCase<"Split", 0, "split">,
  I32EnumAttrCase<"EnoughWork", 1, "enough_work">,
  I32EnumAttrCase<"UnknownSizes", 2, "unknown_sizes">,
  I32EnumAttrCase<"ShortKV", 3, "short_kv">,
  I32EnumAttrCase<"Override", 4, "override">,
  I32EnumAttrCase<"AtLaunch", 5, "at_launch">,
  I32EnumAttrCase<"TwoQTiles", 6, "two_q_tiles">
]> {
  let cppNamespace = "::fa4::attn";
  let genSpecializedAttr = 0;
}

def Attn_SplitKAttr : Attn_Attr<"SplitK", "splitk"> {
  let summary = "The split-K plan";
  let description = [{
    Written by `attn-plan-splitk`: `partitions` CTAs share one work item,
    each over `kv_per_partition` keys; `cluster_dsmem` combines them with the
    cluster reduce-scatter (each owning `band_columns` depth columns),
    `workspace` through f32 partials and a combine kernel. With reason
    `at_launch` (a decode whose batch or key count is unknown at compile
    time) the runtime picks the count per launch, at most `partitions`, so
    that each partition streams at least `kv_per_partition` keys; the
    kernel reads it from gridDim.x.
  }];
  let parameters = (ins
    EnumParameter<Attn_SplitKMode>:$mode,
    EnumParameter<Attn_SplitKReason>:$reason,
    "int64_t":$partitions, "int64_t":$cluster_size,
    "int64_t":$kv_per_partition, "int64_t":$kv_span,
    "int64_t":$work_items, "int64_t":$ctas,
    "int64_t":$band_columns, "int64_t":$partitions_with_band
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    static SplitKAttr get(::mlir::MLIRContext *context,
                          const ::fa4::SplitKPlan &plan);
    ::fa4::SplitKPlan toPlan() const;
  }];
}

def Attn_TmemAttr : Attn_Attr<"Tmem", "tmem"> {
  let summary = "The tensor-memory column map (sm_100a)";
  let description = [{
    Written by `attn-plan-tmem` on sm_100a only (sm_90a keeps S and O in
    registers and gets no TMEM plan). First columns of S0, S1, O0, O1 and of
    P0/P1 (aliased inside S), -1 where absent; `used` columns and the
    power-of-two `alloc` that `tcgen05.alloc` requests.
  }];
  let parameters = (ins
    "int64_t":$s0, "int64_t":$s1, "int64_t":$o0, "int64_t":$o1,
    "int64_t":$p0, "int64_t":$p1,
    "int64_t":$s_columns, "int64_t":$o_columns, "int64_t":$p_columns,
    "int64_t":$used, "int64_t":$alloc
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    static TmemAttr get(::mlir::MLIRContext *context,
                        const ::fa4::TmemPlan &plan);
    ::fa4::TmemPlan toPlan() const;
  }];
}

def Attn_TmaBoxAttr : Attn_Attr<"TmaBox", "box"> {
  let summary = "One TMA box and its shared-memory swizzle";
  let parameters = (ins "int64_t":$rows, "int64_t":$columns,
                        "int64_t":$swizzle);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Attn_KvPath : I32EnumAttr<"KvPath", "how K and V reach shared memory", [
  I32EnumAttrCase<"Contiguous", 0, "contiguous">,
  I32EnumAttrCase<"PageBoxes", 1, "page_boxes">,
  I32EnumAttrCase<"GatherCpAsync", 2, "gather_cp_async">,
  I32EnumAttrCase<"Gather4", 3, "gather4">
]> {
  let cppNamespace = "::fa4::attn";
  let genSpecializedAttr = 0;
}

class Attn_DefaultKvPath<string unused = ""> : EnumParameter<Attn_KvPath> {
  let defaultValue = "::fa4::attn::KvPath::Contiguous";
}

def Attn_SwizzleAttr : Attn_Attr<"Swizzle", "swizzle"> {
  let summary = "Shared-memory swizzle and TMA box per operand";
  let description = [{
    Written by `attn-select-swizzle`: for Q, K, V and O, the TMA box (rows x
    columns of elements) and its swizzle in bytes (128, 64, 32; 0 = none);
    for a paged cache, `kv_path`: `page_boxes` (boxes of at most a page's
    rows, each from the page the block table names), `gather_cp_async` or
    `gather4` (each key row copied from its page, on sm_90a and sm_100a).
    Omitted, it is `contiguous`.
  }];
  let parameters = (ins "TmaBoxAttr":$q, "TmaBoxAttr":$k, "TmaBoxAttr":$v,
                        "TmaBoxAttr":$o, Attn_DefaultKvPath<>:$kv_path);
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    static SwizzleAttr get(::mlir::MLIRContext *context,
                           const ::fa4::SwizzlePlan &plan);
    ::fa4::SwizzlePlan toPlan(const ::fa4::AttnProblem &problem) const;
  }];
}

def Attn_SmemAttr : Attn_Attr<"Smem", "smem"> {
  let summary = "The shared-memory plan";
  let description = [{
    Written by `attn-plan-smem`: stage counts, the bytes of one K and V ring
    slot, the barrier count, the dynamic shared memory to launch with, and
    each region as `name = [offset, bytes, alignment]`. Regions that reuse
    another's bytes (O staging in Q, split-K staging in the K ring) overlap
    it on purpose.
  }];
  let parameters = (ins
    "int64_t":$kv_stages, "int64_t":$qk_stages, "int64_t":$pv_stages,
    "int64_t":$k_stage_bytes, "int64_t":$v_stage_bytes,
    "int64_t":$rope_buffers, "int64_t":$barriers, "int64_t":$smem_used,
    "::mlir::DictionaryAttr":$regions
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    static SmemAttr get(::mlir::MLIRContext *context,
                        const ::fa4::SmemPlan &plan);
    ::fa4::SmemPlan toPlan() const;
  }];
}

#endif // FA4_DIALECT_ATTN_IR_ATTNATTRS_TD
