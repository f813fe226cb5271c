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
  int64_t seqDim() const { return rank() == 4 ? (bshd ? 1 : 2) : rank() - 2; }
  int64_t seq() const { return type().getDimSize(seqDim()); }
  int64_t depth() const { return type().getDimSize(rank() - 1); }
  bool staticHeadsAndDepth() const {
    std::optional<int64_t> dim = headsDim();
    return (!dim || !type().isDynamicDim(*dim)) &&
           !type().isDynamicDim(rank() - 1);
  }
};

/// A size a model computes with: `coefficient` times the size of `tensor`'s
/// dim `dim`.
struct SizeTerm {
  mlir::Value tensor;
  int64_t dim;
  int64_t coefficient;
};

/// An integer combination of a mask's loop indices (query, key), a
/// constant and sizes.
struct SizeExpr {
  int64_t query = 0, key = 0, constant = 0;
  llvm::SmallVector<SizeTerm> sizes;
  /// Whether computing it overflowed 64 bits (then it is no bound).
  bool overflowed = false;

  SizeExpr operator+(const SizeExpr &other) const;
  SizeExpr operator-(const SizeExpr &other) const;
  SizeExpr scaled(int64_t factor) const;
  bool isConstant() const;
  /// `tensor`'s size in `dim` (a constant where static), the same size
  /// through transposes and reshapes that keep the dim whole.
  static SizeExpr size(mlir::Value tensor, int64_t dim);
};

/// A mask computed from sizes when the model runs: key <= query + upper,
/// key >= query + lower (RaiseComputedMask.cpp).
struct ComputedMask {
  std::optional<SizeExpr> upper, lower;
};

/// One attention found: its operands and what it computes.
struct Match {
  Operand query, key, value;
  double scale = 1.0;
  MaskAttr mask;
  /// A mask the model computes from sizes, resolved against Q and K.
  std::optional<ComputedMask> computedMask;
  /// The value the attention replaces: [B, H, Sq, Dv], or without a batch
  /// [H, Sq, Dv] or [Sq, Dv].
  mlir::Value result;
};

/// A scalar of a splat float constant.
std::optional<double> splatConstant(mlir::Value value);

/// The [B, S, H, D] or [B, H, S, D] value whose seq and heads dims `value`
/// swaps (a linalg.transpose or tosa.transpose with permutation
/// [0, 2, 1, 3]), or null.
mlir::Value seqHeadsSwapSource(mlir::Value value);

/// `bhsd` as an Operand: its BSHD source where it is that source's
/// transpose.
Operand asOperand(mlir::Value bhsd);

/// fa4's mask keeping, in row i, the keys within `left` before and `right`
/// past its bottom-right diagonal (nullopt: unbounded on that side).
MaskAttr maskFromBounds(mlir::MLIRContext *context, std::optional<int64_t> left,
                        std::optional<int64_t> right);

/// Whether adding or selecting `value` hides a key: -inf, or the lowest
/// finite value of its type, which models use as -inf
/// (torch.finfo(dtype).min in transformers): once the row's maximum is
/// subtracted its exp is 0 as -inf's is, for scores within a quarter of
/// the type's range (f16: 16376), and fa4's masks keep a key in every row.
bool hidesKey(const llvm::APFloat &value);

/// Whether `value` is a splat constant that hides a key.
bool isHidingSplat(mlir::Value value);

/// The keys an additive [Sq, Skv] constant mask keeps (0) and hides
/// (hidesKey); nullopt for any other value (a bias, not a mask).
std::optional<llvm::SmallVector<bool>>
keptByAdditive(mlir::DenseFPElementsAttr mask);

/// What a [rows, cols] keep pattern expresses, bottom-right aligned: none
/// (all kept), causal, or a window; nullopt for anything else.
std::optional<MaskAttr> classifyMask(mlir::MLIRContext *context,
                                     mlir::ShapedType type,
                                     llvm::ArrayRef<bool> keep);

/// The mask a boolean [Sq, Skv] `condition` computed from its indices
/// keeps (where it holds if `keepWhere`, else where it does not), or
/// nullopt.
std::optional<ComputedMask> computedMask(mlir::Value condition, bool keepWhere);

/// `mask` as fa4's bottom-right mask of `query` and `key`: its bounds the
/// diagonal `query + Skv - Sq` plus constants; nullopt otherwise.
std::optional<MaskAttr> resolveComputedMask(const ComputedMask &mask,
                                            const Operand &query,
                                            const Operand &key);

/// The attention whose P.V is `pv`, as torch-mlir's TOSA backend writes it
/// (RaiseTosa.cpp); nullopt where it is none.
std::optional<Match> matchTosaAttention(mlir::tosa::MatMulOp pv);

} // namespace fa4::attn::raise

#endif // LIB_DIALECT_ATTN_TRANSFORMS_RAISE_H
