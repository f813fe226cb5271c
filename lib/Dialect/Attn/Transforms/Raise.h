//===- Raise.h - attn-raise's matches, shared by its front ends -*- C++ -*-===//
//
// What attn-raise finds, whichever dialect it found it in (linalg in
// Raise.cpp, tosa in RaiseTosa.cpp): the operands, scale, mask and result
// of one attention, and the mask classification both front ends share.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_ATTN_TRANSFORMS_RAISE_H
#define LIB_DIALECT_ATTN_TRANSFORMS_RAISE_H

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace fa4::attn::raise {

/// An operand of the attention: a BHSD value, the BSHD value a model that
/// keeps [batch, seq, heads, dim] transposed to BHSD (used as it is), or,
/// without a batch, [H, S, D] (a batched product of the operands
/// themselves) or one head's [S, D].
struct Operand {
  mlir::Value value;
  bool bshd = false;

  mlir::RankedTensorType type() const {
    return mlir::cast<mlir::RankedTensorType>(value.getType());
  }
  int64_t rank() const { return type().getRank(); }
  /// The heads' dim; none for one head's [S, D].
  std::optional<int64_t> headsDim() const {
    if (rank() == 2)
      return std::nullopt;
    return rank() == 3 ? 0 : bshd ? 2 : 1;
  }
  int64_t heads() const {
    std::optional<int64_t> dim = headsDim();
    return dim ? type().getDimSize(*dim) : 1;
  }
  /// The batch size (1 without a batch dim), dynamic or not.
  int64_t batch() const { return rank() == 4 ? type().getDimSize(0) : 1; }
  int64_t seq() const {
    int64_t dim = rank() == 4 ? (bshd ? 1 : 2) : rank() - 2;
    return type().getDimSize(dim);
  }
  int64_t depth() const { return type().getDimSize(rank() - 1); }
  bool staticHeadsAndDepth() const {
    std::optional<int64_t> dim = headsDim();
    return (!dim || !type().isDynamicDim(*dim)) &&
           !type().isDynamicDim(rank() - 1);
  }
};

/// One attention found: its operands and what it computes.
struct Match {
  Operand query, key, value;
  double scale = 1.0;
  MaskAttr mask;
  /// The value the attention replaces: [B, H, Sq, Dv], or without a batch
  /// [H, Sq, Dv] or [Sq, Dv].
  mlir::Value result;
};

/// A scalar of a splat float constant.
std::optional<double> splatConstant(mlir::Value value);

/// The keys an additive [Sq, Skv] constant mask keeps (0) and hides
/// (-inf); nullopt for any other value (a bias, not a mask).
std::optional<llvm::SmallVector<bool>>
keptByAdditive(mlir::DenseFPElementsAttr mask);

/// What a [rows, cols] keep pattern expresses, bottom-right aligned: none
/// (all kept), causal, or a window; nullopt for anything else.
std::optional<MaskAttr> classifyMask(mlir::MLIRContext *context,
                                     mlir::ShapedType type,
                                     llvm::ArrayRef<bool> keep);

/// The attention whose P.V is `pv`, as torch-mlir's TOSA backend writes it
/// (RaiseTosa.cpp); nullopt where it is none.
std::optional<Match> matchTosaAttention(mlir::tosa::MatMulOp pv);

} // namespace fa4::attn::raise

#endif // LIB_DIALECT_ATTN_TRANSFORMS_RAISE_H
