//===- FA4Types.td - Types of the fa4 kernel dialect -------*- tablegen -*-===//

#ifndef FA4_DIALECT_FA4_IR_FA4TYPES_TD
#define FA4_DIALECT_FA4_IR_FA4TYPES_TD

include "fa4/Dialect/FA4/IR/FA4Dialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def FA4_Major : I32EnumAttr<"Major", "the contiguous dimension of an MMA operand", [
  I32EnumAttrCase<"K", 0, "k_major">,
  I32EnumAttrCase<"MN", 1, "mn_major">
]> {
  let cppNamespace = "::fa4::kernel";
  let genSpecializedAttr = 0;
}

// The L2 eviction priority a TMA copy asks for (its `.L2::cache_hint`
// operand): what a kernel reads again (K and V, read by every row block
// of a head) can outlive what it touches once (Q, O).
def FA4_L2Eviction : I32EnumAttr<"L2Eviction",
    "the L2 eviction priority of a TMA copy", [
  I32EnumAttrCase<"First", 0, "evict_first">,
  I32EnumAttrCase<"Last", 1, "evict_last">
]> {
  let cppNamespace = "::fa4::kernel";
}

class FA4_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<FA4_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def FA4_TensorMap : FA4_Type<"TensorMap", "tensor_map"> {
  let summary = "A TMA tensor map passed as a kernel parameter";
  let description = [{
    A 128-byte CUtensorMap: one that the runtime encodes from the manifest
    and passes by value (`__grid_constant__`), which TMA reads in parameter
    space, or one the kernel built in global memory
    (`fa4.tensor_map.acquire`).
  }];
}

def FA4_MBarrier : FA4_Type<"MBarrier", "mbarrier"> {
  let summary = "An mbarrier in the kernel's shared memory";
}

def FA4_SmemTile : FA4_Type<"SmemTile", "smem_tile"> {
  let summary = "A rows x columns tile in shared memory, as TMA wrote it";
  let description = [{
    `!fa4.smem_tile<176x128xbf16, k_major>`: 176 rows of 128 elements,
    stored as boxes of 64 columns whose rows are their swizzle's width: 128
    bytes with the 128-byte swizzle for 16-bit elements, 64 bytes with the
    64-byte swizzle for 8-bit ones (the planner's rule for 1-byte types);
    box b at `b * rows * row bytes`. An MMA reads it
    as a K-major operand (rows = M or N, columns = K) or an MN-major one
    (rows = K, columns = N).
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$columns,
                        "::mlir::Type":$elementType,
                        "::fa4::kernel::Major":$major);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def FA4_Frag : FA4_Type<"Frag", "frag"> {
  let summary = "A tile spread over the threads of one warpgroup";
  let description = [{
    `!fa4.frag<64x176xf32>`: an MMA accumulator or operand tile owned by one
    warpgroup. f32 frags are accumulators; 16-bit frags are the A operand of
    a later MMA (P of P V). The layout is the target's: wgmma's accumulator
    registers on sm_90a, TMEM columns on sm_100a.
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$columns,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def FA4_Rows : FA4_Type<"Rows", "rows"> {
  let summary = "One value per row of a frag (row max, row sum, correction)";
  let parameters = (ins "int64_t":$rows, "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def FA4_TmemTile : FA4_Type<"TmemTile", "tmem_tile"> {
  let summary = "A rows x columns tile of tensor memory (sm_100a)";
  let description = [{
    `!fa4.tmem_tile<128x128xf32>`: TMEM lanes 0..rows-1 (one per row) and
    `columns` 32-bit columns of f32; a 16-bit tile packs two elements per
    column (`<128x128xbf16>` is 64 columns), an 8-bit one four. MMAs write and read it
    asynchronously; warpgroups move it to and from registers with
    `fa4.tmem.load` / `fa4.tmem.store`, each warp reaching its 32 lanes.
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$columns,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// 32-bit TMEM columns the tile spans.
    int64_t getTmemColumns() const {
      return getColumns() * getElementType().getIntOrFloatBitWidth() / 32;
    }
  }];
}

#endif // FA4_DIALECT_FA4_IR_FA4TYPES_TD
