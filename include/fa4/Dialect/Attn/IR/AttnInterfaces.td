//===- AttnInterfaces.td - attn dialect interfaces ---------*- tablegen -*-===//

#ifndef FA4_DIALECT_ATTN_IR_ATTNINTERFACES_TD
#define FA4_DIALECT_ATTN_IR_ATTNINTERFACES_TD

include "mlir/IR/OpBase.td"

def Attn_PlannedAttentionOpInterface
    : OpInterface<"PlannedAttentionOpInterface"> {
  let cppNamespace = "::fa4::attn";
  let description = [{
    An attention op the planning passes plan: `attn.attention` and the
    serving forms (`attn.varlen_attention`, `attn.paged_attention`). Each
    gives the planners its problem (fa4::AttnProblem); the plan attributes
    (`config`, `splitk`, `tmem`, `swizzle`, `smem` and the looped twin's)
    have the same names and types on every such op.
  }];
  let methods = [
    InterfaceMethod<[{
        The planners' view of the op; hints stand in for dynamic sizes in
        performance decisions only.
      }], "::fa4::AttnProblem", "getProblem",
      (ins "int64_t":$batchHint, "int64_t":$seqQHint, "int64_t":$seqKVHint)>,
    InterfaceMethod<"Which keys each query sees.", "::fa4::attn::MaskAttr",
      "getMask">,
    InterfaceMethod<"The scale the kernel applies: the attribute or "
                    "1/sqrt(Dqk).", "double", "getEffectiveScale">,
    InterfaceMethod<"Logit softcapping's c, if any: each scaled score s "
                    "becomes c * tanh(s / c) before the mask.",
      "std::optional<::llvm::APFloat>", "getSoftcap">,
    InterfaceMethod<"The attention sinks, f32 [Hq], if any: one logit per "
                    "query head in each row's softmax, with no value row.",
      "::mlir::Value", "getSinks">,
    InterfaceMethod<"Whether `scale` was given (else 1/sqrt(Dqk)).", "bool",
      "hasExplicitScale", (ins), [{ return $_op.getScale().has_value(); }]>,
  ];
  let extraClassDeclaration = [{
    ::fa4::AttnProblem getProblem() {
      return getProblem(::fa4::kDynamic, ::fa4::kDynamic, ::fa4::kDynamic);
    }
    // The plan attributes, by their shared names.
#define FA4_PLAN_ATTR(ATTR, NAME, KEY)                                         \
    ATTR get##NAME##Attr() {                                                   \
      return ::llvm::dyn_cast_or_null<ATTR>((*this)->getAttr(KEY));            \
    }                                                                          \
    void set##NAME##Attr(ATTR attr) { (*this)->setAttr(KEY, attr); }           \
    void remove##NAME##Attr() { (*this)->removeAttr(KEY); }
    FA4_PLAN_ATTR(::fa4::attn::ConfigAttr, Config, "config")
    FA4_PLAN_ATTR(::fa4::attn::SplitKAttr, Splitk, "splitk")
    FA4_PLAN_ATTR(::fa4::attn::TmemAttr, Tmem, "tmem")
    FA4_PLAN_ATTR(::fa4::attn::SwizzleAttr, Swizzle, "swizzle")
    FA4_PLAN_ATTR(::fa4::attn::SmemAttr, Smem, "smem")
    FA4_PLAN_ATTR(::fa4::attn::ConfigAttr, TwinConfig, "twin_config")
    FA4_PLAN_ATTR(::fa4::attn::SwizzleAttr, TwinSwizzle, "twin_swizzle")
    FA4_PLAN_ATTR(::fa4::attn::SmemAttr, TwinSmem, "twin_smem")
#undef FA4_PLAN_ATTR
  }];
}

#endif // FA4_DIALECT_ATTN_IR_ATTNINTERFACES_TD
