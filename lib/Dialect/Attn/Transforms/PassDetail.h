//===- PassDetail.h - Shared pieces of the planning passes ------*- C++ -*-===//

#ifndef LIB_DIALECT_ATTN_TRANSFORMS_PASSDETAIL_H
#define LIB_DIALECT_ATTN_TRANSFORMS_PASSDETAIL_H

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace fa4::attn {

/// Runs `plan` on every attention op under `root` (attn.attention and the
/// serving forms), in order, and stops at the first one that fails (it has
/// emitted its diagnostic).
inline mlir::LogicalResult forEachAttention(
    mlir::Operation *root,
    llvm::function_ref<mlir::LogicalResult(PlannedAttentionOpInterface)> plan) {
  mlir::WalkResult result = root->walk([&](PlannedAttentionOpInterface op) {
    return mlir::failed(plan(op)) ? mlir::WalkResult::interrupt()
                                  : mlir::WalkResult::advance();
  });
  return mlir::failure(result.wasInterrupted());
}

/// Returns `attr` or reports that `pass` needs the attribute `name`, which
/// `producer` writes.
template <typename AttrT>
mlir::FailureOr<AttrT> requirePlan(PlannedAttentionOpInterface op, AttrT attr,
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
requireConfig(PlannedAttentionOpInterface op, llvm::StringRef pass,
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
mlir::FailureOr<PlanT> runPlanner(PlannedAttentionOpInterface op,
                                  PlannerT &&planner) {
  std::string whyNot;
  llvm::raw_string_ostream whyNotStream(whyNot);
  llvm::FailureOr<PlanT> plan = planner(whyNotStream);
  if (failed(plan))
    op.emitOpError() << whyNot;
  return plan;
}

} // namespace fa4::attn

#endif // LIB_DIALECT_ATTN_TRANSFORMS_PASSDETAIL_H
