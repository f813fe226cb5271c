//===- PtxTest.cpp - The PTX subset, parsed -------------------------------===//

#include "Ptx.h"

#include <gtest/gtest.h>

using namespace fa4::emu::ptx;

namespace {

const char *kKernel = R"(
.version 8.6
.target sm_90a
.address_size 64
.visible .global .align 1 .b8 record[5] = {104, 105};
.extern .shared .align 1024 .b8 smem[];
.visible .entry k(
	.param .u64 .ptr .global .align 1 k_param_0,
	.param .align 64 .b8 k_param_1[128],
	.param .u32 k_param_2
)
.maxntid 128, 1, 1
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<3>;
	ld.param.b64 	%rd1, [k_param_0];
	@!%p1 bra 	$L__BB0_2;
	{
	.reg .pred P1;
	LAB_WAIT:
	mbarrier.try_wait.parity.shared.b64 P1, [smem+8], 0, 10000000;
	@P1 bra.uni DONE;
	bra.uni LAB_WAIT;
	DONE:
	}
	{
	.reg .pred P1;
	DONE:
	setp.lt.s32 	P1|%p0, %r1, -3;
	}
$L__BB0_2:
	st.shared.v2.b32 	[%rd2+-16], {%r1, %r2};
	mov.b32 	%r3, 0fBF800000;
	ret;
}
)";

TEST(PtxTest, ParsesAKernel) {
  Module module = parse(kKernel);
  EXPECT_EQ(module.target, "sm_90a");
  ASSERT_EQ(module.globals.size(), 2u);
  EXPECT_EQ(module.globals[0].name, "record");
  EXPECT_EQ(module.globals[0].count, 5);
  EXPECT_EQ(module.globals[0].init, (std::vector<uint8_t>{104, 105}));
  EXPECT_TRUE(module.globals[1].external);
  ASSERT_EQ(module.entries.size(), 1u);
  const Entry &entry = module.entries[0];
  EXPECT_EQ(entry.maxThreads[0], 128);
  ASSERT_EQ(entry.params.size(), 3u);
  // .align after .ptr is the pointee's: the parameter aligns to its type.
  EXPECT_EQ(entry.params[0].align, 8);
  EXPECT_EQ(entry.params[1].align, 64);
  EXPECT_EQ(entry.params[1].bytes, 128);
}

TEST(PtxTest, RenamesScopedRegistersAndLabels) {
  Module module = parse(kKernel);
  std::vector<std::string> labels, guards;
  for (const Statement &statement : module.entries[0].body) {
    if (statement.isLabel)
      labels.push_back(statement.label);
    else if (!statement.instruction.guard.empty())
      guards.push_back(statement.instruction.guard);
  }
  // The two inline blocks' DONE labels and P1 registers stay apart.
  EXPECT_EQ(labels, (std::vector<std::string>{"LAB_WAIT#1", "DONE#1", "DONE#2",
                                              "$L__BB0_2"}));
  EXPECT_EQ(guards, (std::vector<std::string>{"%p1", "P1#1"}));
}

TEST(PtxTest, ReadsOperands) {
  Module module = parse(kKernel);
  const auto &body = module.entries[0].body;
  const Instruction *store = nullptr, *setp = nullptr, *mov = nullptr;
  for (const Statement &statement : body) {
    const std::string &opcode = statement.instruction.opcode;
    if (opcode == "st.shared.v2.b32")
      store = &statement.instruction;
    if (opcode == "setp.lt.s32")
      setp = &statement.instruction;
    if (opcode == "mov.b32")
      mov = &statement.instruction;
  }
  ASSERT_TRUE(store && setp && mov);
  EXPECT_EQ(store->operands[0].kind, Operand::Kind::Address);
  EXPECT_EQ(store->operands[0].offset, -16);
  EXPECT_EQ(store->operands[1].elements.size(), 2u);
  ASSERT_EQ(setp->operands[0].kind, Operand::Kind::Vector);
  EXPECT_EQ(setp->operands[0].elements[0].name, "P1#2");
  EXPECT_EQ(setp->operands[2].bits, uint64_t(-3));
  EXPECT_TRUE(mov->operands[1].isFloat);
  EXPECT_EQ(mov->operands[1].bits, 0xBF800000u);
}

std::string parseError(const std::string &text) {
  try {
    parse(text);
  } catch (const Error &error) {
    return error.what();
  }
  return "no error";
}

TEST(PtxTest, NamesTheLineOfAnError) {
  EXPECT_EQ(parseError(".version 8.6\n.target sm_90a\n.entry k()\n{\n"
                       "  add.s32 %r1, %r2, 1;\n}\n"),
            "line 5: undeclared register '%r1'");
  EXPECT_EQ(parseError(".version 8.6\n.func f()\n{\n}\n"),
            "line 2: .func is not supported (fa4 kernels have no calls)");
  EXPECT_EQ(parseError(".entry k()\n{\n  ret;\n"),
            "line 4: unterminated entry body");
  EXPECT_EQ(parseError(".entry k()\n{\n  ret # 1;\n}\n"),
            "line 3: unexpected character '#'");
}

// Mutated sizes are refused naming their line, not wrapped or obeyed: an
// alignment past 2^32 once divided by zero, and a billion registers took a
// minute and 3.6 GB to load.
TEST(PtxTest, RefusesAbsurdSizes) {
  EXPECT_EQ(parseError(".shared .align 4294967296 .b8 buf[16];\n"),
            "line 1: .align 4294967296 is not a power of two from 1 to "
            "16777216");
  EXPECT_EQ(parseError("\n.global .align 3 .b8 buf[16];\n"),
            "line 2: .align 3 is not a power of two from 1 to 16777216");
  EXPECT_EQ(parseError(".shared .b8 buf[-4];\n"),
            "line 1: array of -4 elements: not 1 to 1099511627776 bytes");
  EXPECT_EQ(parseError(".global .b64 buf[9223372036854775807];\n"),
            "line 1: array of 9223372036854775807 elements: not 1 to "
            "1099511627776 bytes");
  EXPECT_EQ(parseError(".entry k(.param .b8 p[-1])\n{\n  ret;\n}\n"),
            "line 1: array of -1 elements: not 1 to 1099511627776 bytes");
  EXPECT_EQ(parseError(".entry k()\n{\n  .reg .b32 %r<1000000000>;\n"
                       "  ret;\n}\n"),
            "line 3: register range %r<1000000000>: not 0 to 262144");
  EXPECT_EQ(parseError(".entry k()\n{\n  .reg .b32 %r<200000>;\n"
                       "  .reg .b64 %rd<200000>;\n  ret;\n}\n"),
            "line 4: more than 262144 registers declared in k");
  EXPECT_EQ(parseError(".entry k()\n.maxntid 4294967297, 1, 1\n{\n"
                       "  ret;\n}\n"),
            "line 2: .maxntid: more than 1024 threads or an extent below 1");
  EXPECT_EQ(parseError(".entry k()\n.reqntid 64, 32, 1\n{\n  ret;\n}\n"),
            "line 2: .reqntid: more than 1024 threads or an extent below 1");
}

} // namespace
