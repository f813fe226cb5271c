//===- InitAll.h - Register everything fa4 provides -------------*- C++ -*-===//
//
// One place for tools and embedding compilers: the dialects fa4 emits and
// lowers through, and every fa4 pass and pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_INITALL_H
#define FA4_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace fa4 {
/// attn plus the upstream dialects (and their extensions and translation
/// interfaces) that the pipeline lowers through.
void registerAllDialects(mlir::DialectRegistry &registry);
/// fa4's passes and pipelines, and the upstream passes they compose.
void registerAllPasses();
} // namespace fa4

#endif // FA4_INITALL_H
