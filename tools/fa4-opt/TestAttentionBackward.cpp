//===- TestAttentionBackward.cpp - The autodiff link, under test ----------===//
//
// -test-attention-backward: for each attn.attention on tensors in a
// func.func, the function takes dO (O's type) as a new last argument and
// also returns dQ, dK and dV, built by AttentionOp::buildBackward (the op
// made to return LSE first, withLse), and an op with sinks their gradient
// (buildSinksGradient). The lit tests of the link
// (test/Dialect/Attn/build-backward.mlir) run it; attn-decompose then
// gives the whole function's meaning.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "fa4/Dialect/Attn/IR/Attn.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestAttentionBackwardPass
    : PassWrapper<TestAttentionBackwardPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAttentionBackwardPass)
  StringRef getArgument() const final { return "test-attention-backward"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    // buildSinksGradient's generic.
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    math::MathDialect, tensor::TensorDialect>();
  }
  StringRef getDescription() const final {
    return "Append each attn.attention's backward pass to its function "
           "(AttentionOp::buildBackward)";
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<fa4::attn::AttentionOp> ops;
    func.walk([&](fa4::attn::AttentionOp op) {
      if (!op.hasBufferSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(func.getContext());
    auto returnOp = cast<func::ReturnOp>(func.getBody().back().getTerminator());
    SmallVector<Value> gradients;
    for (fa4::attn::AttentionOp op : ops) {
      fa4::attn::AttentionOp forward = op.withLse(rewriter);
      Type gradType = forward.getOutput().getType();
      if (failed(func.insertArgument(func.getNumArguments(), gradType, {},
                                     forward.getLoc())))
        return signalPassFailure();
      rewriter.setInsertionPointAfter(forward);
      FailureOr<fa4::attn::AttentionBackwardOp> backward =
          forward.buildBackward(rewriter, func.getArguments().back());
      if (failed(backward))
        return signalPassFailure();
      llvm::append_range(gradients, backward->getResults());
      if (forward.getSinks()) {
        FailureOr<Value> sinksGradient =
            forward.buildSinksGradient(rewriter, func.getArguments().back());
        if (failed(sinksGradient))
          return signalPassFailure();
        gradients.push_back(*sinksGradient);
      }
    }
    // The returned values as they are now (withLse moved O's uses).
    SmallVector<Value> results(returnOp.getOperands());
    llvm::append_range(results, gradients);
    rewriter.setInsertionPoint(returnOp);
    func::ReturnOp::create(rewriter, returnOp.getLoc(), results);
    rewriter.eraseOp(returnOp);
    func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                   ValueRange(results).getTypes()));
  }
};
} // namespace

void fa4::registerTestPasses() {
  PassRegistration<TestAttentionBackwardPass>();
}
