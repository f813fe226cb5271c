//===- AttnDialect.td - The attn dialect -------------------*- tablegen -*-===//
//
// The semantic attention dialect: target-independent, the input of fa4.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_DIALECT_ATTN_IR_ATTNDIALECT_TD
#define FA4_DIALECT_ATTN_IR_ATTNDIALECT_TD

include "mlir/IR/OpBase.td"

def Attn_Dialect : Dialect {
  let name = "attn";
  let cppNamespace = "::fa4::attn";
  let summary = "Scaled dot-product attention as one semantic op";
  let description = [{
    The `attn` dialect holds `attn.attention`, the op that fa4 compiles into
    FlashAttention-4-class kernels, and the attributes in which the planning
    passes record their decisions (configuration, split-K, TMEM, swizzle and
    shared-memory plans).
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
  private:
    void registerAttributes();
  public:
  }];
}

class Attn_Op<string mnemonic, list<Trait> traits = []>
    : Op<Attn_Dialect, mnemonic, traits>;

#endif // FA4_DIALECT_ATTN_IR_ATTNDIALECT_TD
