//===- FA4Dialect.td - The fa4 kernel dialect --------------*- tablegen -*-===//
//
// The kernel IR between the planned attn.attention and NVVM: warp roles,
// mbarrier pipelines, TMA loads, warpgroup MMAs on tiles, the online softmax
// and the epilogue, written once for both targets.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_DIALECT_FA4_IR_FA4DIALECT_TD
#define FA4_DIALECT_FA4_IR_FA4DIALECT_TD

include "mlir/IR/OpBase.td"

def FA4_Dialect : Dialect {
  let name = "fa4";
  let cppNamespace = "::fa4::kernel";
  let summary = "Attention kernels as warp roles, pipelines and tile ops";
  let description = [{
    `convert-attn-to-fa4` writes each planned `attn.attention` as a kernel in
    this dialect, and `convert-fa4-to-nvvm` lowers it for its module's chip.
    The dialect says *what* a kernel does at the granularity the two targets
    share: which warpgroups play which role with which register budget, which
    TMA loads complete on which mbarrier, which tile MMAs run on which
    shared-memory tiles, and the online-softmax steps on the accumulators.
    *Where* a tile lives is the lowering's business: on sm_90a a
    `!fa4.frag` is the wgmma accumulator spread over a warpgroup's registers;
    on sm_100a it is a block of TMEM columns.

    Control flow (the work loop, the K/V loop, ping-pong turns) stays in `scf`,
    integer arithmetic in `arith`, thread and block ids in `gpu`, and named
    barriers in `nvvm` (the same instruction on both chips).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // `fa4.abi` on an attn.attention (FA4Attrs.td).
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::fa4::attn::AttnDialect"];
  let extraClassDeclaration = [{
    /// The attribute naming an attn.attention's kernel ABI.
    static constexpr ::llvm::StringLiteral kKernelABIAttrName = "fa4.abi";
    /// The gpu.func attribute naming the tensor maps a kernel builds, in
    /// the order of its scratch (a #fa4.tensor_map_scratch).
    static constexpr ::llvm::StringLiteral kDeviceTensorMapsAttrName =
        "fa4.device_tensor_maps";
  private:
    void registerTypes();
    void registerAttributes();
  public:
  }];
}

class FA4_Op<string mnemonic, list<Trait> traits = []>
    : Op<FA4_Dialect, mnemonic, traits>;

#endif // FA4_DIALECT_FA4_IR_FA4DIALECT_TD
