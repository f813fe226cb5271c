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

#endif // FA4_DIALECT_ATTN_IR_ATTNATTRS_TD
