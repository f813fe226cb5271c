//===- TestPasses.h - fa4-opt's passes for lit tests ------------*- C++ -*-===//
//
// Passes that exercise an API from lit, registered by fa4-opt alone (not
// part of fa4's pipelines or libraries).
//
//===----------------------------------------------------------------------===//

#ifndef FA4_TOOLS_FA4_OPT_TESTPASSES_H
#define FA4_TOOLS_FA4_OPT_TESTPASSES_H

namespace fa4 {
void registerTestPasses();
} // namespace fa4

#endif // FA4_TOOLS_FA4_OPT_TESTPASSES_H
