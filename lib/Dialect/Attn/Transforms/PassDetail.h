//===- PassDetail.h - Shared pieces of the planning passes ------*- C++ -*-===//

#ifndef LIB_DIALECT_ATTN_TRANSFORMS_PASSDETAIL_H
#define LIB_DIALECT_ATTN_TRANSFORMS_PASSDETAIL_H

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace fa4::attn {

/// Runs `plan` on every attn.attention under `root`, in order, and stops at
/// the first one that fails (it has emitted its diagnostic).
inline mlir::LogicalResult
forEachAttention(mlir::Operation *root,
                 llvm::function_ref<mlir::LogicalResult(AttentionOp)> plan) {
  // The serving forms verify, but no planner takes them yet: refused by
  // name rather than left unlowered.
  mlir::WalkResult serving = root->walk([](mlir::Operation *op) {
    if (!mlir::isa<VarlenAttentionOp, PagedAttentionOp>(op))
      return mlir::WalkResult::advance();
    op->emitOpError() << "is not planned yet: fa4's kernels take the dense "
                         "attn.attention (one Sq and Skv per launch)";
    return mlir::WalkResult::interrupt();
  });
  if (serving.wasInterrupted())
    return mlir::failure();
  mlir::WalkResult result = root->walk([&](AttentionOp op) {
    return mlir::failed(plan(op)) ? mlir::WalkResult::interrupt()
                                  : mlir::WalkResult::advance();
  });
  return mlir::failure(result.wasInterrupted());
}

/// Returns `attr` or reports that `pass` needs the attribute `name`, which
/// `producer` writes.
template <typename AttrT>
mlir::FailureOr<AttrT> requirePlan(AttentionOp op, AttrT attr,
                                   llvm::StringRef pass, llvm::StringRef name,
                                   llvm::StringRef producer) {
  if (attr)
    return attr;
  op.emitOpError() << pass << " needs #attn." << name << "; run " << producer
                   << " first";
  return mlir::failure();
}

/// The op's #attn.config as the planners' struct for `problem`, or the report
/// that `pass` needs attn-select-config to have run.
inline mlir::FailureOr<fa4::AttnConfig>
requireConfig(AttentionOp op, llvm::StringRef pass,
              const fa4::AttnProblem &problem) {
  mlir::FailureOr<ConfigAttr> config =
      requirePlan(op, op.getConfigAttr(), pass, "config", "attn-select-config");
  if (mlir::failed(config))
    return mlir::failure();
  return config->toPlan(problem);
}

/// Runs a planner that reports why it failed on a raw_ostream, and turns that
/// report into an error on `op`.
template <typename PlanT, typename PlannerT>
mlir::FailureOr<PlanT> runPlanner(AttentionOp op, PlannerT &&planner) {
  std::string whyNot;
  llvm::raw_string_ostream whyNotStream(whyNot);
  llvm::FailureOr<PlanT> plan = planner(whyNotStream);
  if (failed(plan))
    op.emitOpError() << whyNot;
  return plan;
}

} // namespace fa4::attn

#endif // LIB_DIALECT_ATTN_TRANSFORMS_PASSDETAIL_H
