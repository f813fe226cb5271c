//===- ExecTest.cpp - Kernels on fa4-emu, right and deliberately wrong ----===//
//
// Small hand-written kernels: what they compute, and that each class of
// synchronization bug (a missing fence.proxy.async, a wrong mbarrier parity,
// a wrong transaction count, a missing barrier arrival) and each memory
// fault is reported as an error naming the rule, not hidden.
//
//===----------------------------------------------------------------------===//

#include "Emulator.h"
#include "Layouts.h"
#include "Numerics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

using namespace fa4::emu;

namespace {

const char *kHeader = ".version 8.6\n.target sm_90a\n.address_size 64\n";

/// `find` replaced by `replacement` in `text` (once).
std::string with(std::string text, const std::string &find,
                 const std::string &replacement) {
  size_t at = text.find(find);
  EXPECT_NE(at, std::string::npos) << find;
  if (at != std::string::npos)
    text.replace(at, find.size(), replacement);
  return text;
}

class ExecTest : public ::testing::Test {
protected:
  Memory memory;
  /// LaunchOptions::laggardWarp of every run.
  int laggardWarp = -1;
  /// FA4_EMU_SCHEDULE of every run (parseSchedule).
  std::string schedule = "random";

  struct Outcome {
    std::string error; // empty on success
    std::vector<uint32_t> out;
  };

  /// Of the schedules of seeds 1 to 8, how many `runWithSeed` failed with
  /// an error containing `error`; every other one must pass.
  template <typename RunWithSeed>
  int schedulesCaught(RunWithSeed runWithSeed, const std::string &error) {
    int caught = 0;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      Outcome outcome = runWithSeed(seed);
      if (outcome.error.find(error) != std::string::npos)
        ++caught;
      else
        EXPECT_EQ(outcome.error, "") << "seed " << seed;
    }
    return caught;
  }

  /// Runs entry `k` of `body` with `threads` threads; its parameters are
  /// `prefix` (e.g. a tensor map), then a pointer to `words` output words
  /// (poisoned first), then the u32 `extra`.
  Outcome run(const std::string &body, uint32_t threads, size_t words,
              std::vector<uint8_t> prefix = {}, uint32_t extra = 0,
              uint64_t seed = 1, uint32_t smem = 0, bool tcgen05Lenient = false,
              uint32_t cluster = 1) {
    Module module(std::string(kHeader) + body, memory);
    const Kernel *kernel = module.kernel("k");
    EXPECT_NE(kernel, nullptr);
    uint64_t out = memory.allocate(words * 4);
    std::memset(reinterpret_cast<void *>(out), 0xff, words * 4);
    std::vector<uint8_t> params = std::move(prefix);
    append(params, out);
    append(params, extra);
    LaunchOptions options;
    options.block = {threads, 1, 1};
    options.grid = options.cluster = {cluster, 1, 1};
    options.seed = seed;
    options.dynamicSmemBytes = smem;
    options.tcgen05Lenient = tcgen05Lenient;
    options.laggardWarp = laggardWarp;
    EXPECT_EQ(parseSchedule(schedule, options), "");
    Outcome outcome;
    try {
      launch(*kernel, params, options, memory);
    } catch (const ExecutionError &error) {
      outcome.error = error.what();
    }
    auto *data = reinterpret_cast<uint32_t *>(out);
    outcome.out.assign(data, data + words);
    memory.release(out);
    std::free(reinterpret_cast<void *>(out));
    return outcome;
  }

  template <typename T> static void append(std::vector<uint8_t> &bytes, T v) {
    bytes.resize((bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T));
    bytes.insert(bytes.end(), reinterpret_cast<uint8_t *>(&v),
                 reinterpret_cast<uint8_t *>(&v) + sizeof(T));
  }
};

// Every lane writes tid * 3, odd lanes 100 more (a divergent branch), and
// its warp's sum of tid through shfl.bfly.
const char *kSimt = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 64, 1, 1
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  mul.lo.s32 %r2, %r1, 3;
  and.b32 %r3, %r1, 1;
  setp.eq.b32 %p1, %r3, 0;
  @%p1 bra EVEN;
  add.s32 %r2, %r2, 100;
EVEN:
  mov.b32 %r4, %r1;
  shfl.sync.bfly.b32 %r5, %r4, 16, 31, -1;
  add.s32 %r4, %r4, %r5;
  shfl.sync.bfly.b32 %r5, %r4, 8, 31, -1;
  add.s32 %r4, %r4, %r5;
  shfl.sync.bfly.b32 %r5, %r4, 4, 31, -1;
  add.s32 %r4, %r4, %r5;
  shfl.sync.bfly.b32 %r5, %r4, 2, 31, -1;
  add.s32 %r4, %r4, %r5;
  shfl.sync.bfly.b32 %r5, %r4, 1, 31, -1;
  add.s32 %r4, %r4, %r5;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.b32 [%rd3], {%r2, %r4};
  ret;
}
)";

TEST_F(ExecTest, RunsDivergentLanesAndShuffles) {
  Outcome outcome = run(kSimt, 64, 128);
  ASSERT_EQ(outcome.error, "");
  for (uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(outcome.out[2 * t], t * 3 + (t % 2 ? 100 : 0)) << t;
    EXPECT_EQ(outcome.out[2 * t + 1], t < 32 ? 496u : 1520u) << t;
  }
}

// LaunchOptions::coverage: per PTX line, the warp instructions executed
// there. Each of the two warps executes every instruction once (the odd
// lanes' add included: the warp runs it for them), so every line counts
// 2; a kernel entered by addCoverage and never launched counts 0.
TEST_F(ExecTest, CountsWarpInstructionsPerLine) {
  std::string text = std::string(kHeader) + kSimt;
  Module module(text, memory);
  const Kernel *kernel = module.kernel("k");
  ASSERT_NE(kernel, nullptr);
  Module other(std::string(kHeader) + with(kSimt, "k(", "unlaunched("), memory);
  addCoverage(*other.kernel("unlaunched"));
  uint64_t out = memory.allocate(64 * 8);
  std::vector<uint8_t> params;
  append(params, out);
  append(params, uint32_t(0));
  LaunchOptions options;
  options.block = {64, 1, 1};
  options.coverage = true;
  launch(*kernel, params, options, memory);
  memory.release(out);
  std::free(reinterpret_cast<void *>(out));
  // The line of the odd lanes' add, 1-based.
  size_t at = text.find("add.s32 %r2, %r2, 100;");
  int oddLine = 1 + int(std::count(text.begin(), text.begin() + at, '\n'));
  bool sawKernel = false, sawUnlaunched = false;
  for (const KernelCoverage &entry : coverage()) {
    if (entry.moduleHash == module.hash() && entry.kernel == "k") {
      sawKernel = true;
      EXPECT_EQ(entry.lines.size(), 22u);
      for (const auto &[line, count] : entry.lines)
        EXPECT_EQ(count, 2u) << "line " << line;
      EXPECT_EQ(entry.lines.count(oddLine), 1u);
    }
    if (entry.moduleHash == other.hash() && entry.kernel == "unlaunched") {
      sawUnlaunched = true;
      for (const auto &[line, count] : entry.lines)
        EXPECT_EQ(count, 0u) << "line " << line;
    }
  }
  EXPECT_TRUE(sawKernel);
  EXPECT_TRUE(sawUnlaunched);
  EXPECT_NE(module.hash(), other.hash());
}

// shf (PTX ISA, funnel shift) of b:a = 0x89abcdef:0x01234567 by 4, 36 and
// the tid (0-63): left keeps the high word, right the low one; wrap takes
// the amount modulo 32, clamp caps it at 32. LLVM writes shf.l.wrap for a
// rotate (tid rotated right by 5: its warp, where the tid is a multiple
// of 32).
TEST_F(ExecTest, RunsFunnelShifts) {
  const char *kernel = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 64, 1, 1
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  mov.b32 %r2, 0x01234567;
  mov.b32 %r3, 0x89abcdef;
  shf.l.wrap.b32 %r4, %r2, %r3, 4;
  shf.r.wrap.b32 %r5, %r2, %r3, 36;
  shf.l.clamp.b32 %r6, %r2, %r3, %r1;
  shf.r.clamp.b32 %r7, %r2, %r3, %r1;
  shf.l.wrap.b32 %r8, %r1, %r1, 27;
  mul.wide.u32 %rd2, %r1, 20;
  add.s64 %rd3, %rd1, %rd2;
  st.global.b32 [%rd3], %r4;
  st.global.b32 [%rd3+4], %r5;
  st.global.b32 [%rd3+8], %r6;
  st.global.b32 [%rd3+12], %r7;
  st.global.b32 [%rd3+16], %r8;
  ret;
}
)";
  Outcome outcome = run(kernel, 64, 64 * 5);
  ASSERT_EQ(outcome.error, "");
  uint64_t both = 0x89abcdefull << 32 | 0x01234567u;
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t clamped = std::min(t, 32u);
    EXPECT_EQ(outcome.out[5 * t], 0x9abcdef0u) << t;
    EXPECT_EQ(outcome.out[5 * t + 1], 0xf0123456u) << t;
    EXPECT_EQ(outcome.out[5 * t + 2], uint32_t((both << clamped) >> 32)) << t;
    EXPECT_EQ(outcome.out[5 * t + 3], uint32_t(both >> clamped)) << t;
    EXPECT_EQ(outcome.out[5 * t + 4], (t >> 5) | (t << 27)) << t;
  }
}

// prefetch (PTX ISA, prefetch, prefetchu), of a tensor map in parameter
// space as FlashAttention-4's kernels do and of global memory, changes
// nothing: the kernel runs on and writes tid + 7.
TEST_F(ExecTest, RunsPrefetchesAsNoOps) {
  const char *kernel = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<6>;
  ld.param.b64 %rd1, [k_param_0];
  mov.b64 %rd2, k_param_1;
  cvta.param.u64 %rd3, %rd2;
  prefetch.tensormap [%rd3];
  prefetch.global.L2 [%rd1];
  prefetchu.L1 [%rd1];
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, 7;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  st.global.b32 [%rd5], %r2;
  ret;
}
)";
  Outcome outcome = run(kernel, 32, 32);
  ASSERT_EQ(outcome.error, "");
  for (uint32_t t = 0; t < 32; ++t)
    EXPECT_EQ(outcome.out[t], t + 7) << t;
}

// Comparisons, their combining predicate, votes and min's NaN mode are
// decoded at load (Opcodes.def): ltu is true against NaN where lt is not,
// ge.and ANDs in the predicate (2 <= tid < 5), vote.ballot gathers it
// and min.NaN returns the canonical NaN.
TEST_F(ExecTest, RunsDecodedComparisonsAndModes) {
  const char *kernel = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 32, 1, 1
{
  .reg .pred %p<5>;
  .reg .b32 %r<9>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  mov.f32 %f2, 0f7FC00000;
  setp.ltu.f32 %p1, %f1, %f2;
  setp.lt.f32 %p2, %f1, %f2;
  setp.lt.u32 %p3, %r1, 5;
  setp.ge.and.s32 %p4, %r1, 2, %p3;
  selp.u32 %r2, 1, 0, %p1;
  selp.u32 %r3, 2, 0, %p2;
  selp.u32 %r4, 4, 0, %p4;
  add.s32 %r5, %r2, %r3;
  add.s32 %r5, %r5, %r4;
  vote.sync.ballot.b32 %r6, %p4, -1;
  min.NaN.f32 %f3, %f1, %f2;
  mov.b32 %r7, %f3;
  mul.wide.u32 %rd2, %r1, 12;
  add.s64 %rd3, %rd1, %rd2;
  st.global.b32 [%rd3], %r5;
  st.global.b32 [%rd3+4], %r6;
  st.global.b32 [%rd3+8], %r7;
  ret;
}
)";
  Outcome outcome = run(kernel, 32, 32 * 3);
  ASSERT_EQ(outcome.error, "");
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(outcome.out[3 * t], 1u + (t >= 2 && t < 5 ? 4u : 0u)) << t;
    EXPECT_EQ(outcome.out[3 * t + 1], 0x1cu) << t;
    EXPECT_EQ(outcome.out[3 * t + 2], 0x7fffffffu) << t;
  }
}

/// The FP8 code nearest `value` by search over every finite code of the
/// format (ties to the even code), saturating at the largest: the
/// reference for cvt.rn.satfinite, independent of the emulator's
/// arithmetic. `decode` gives a code's value (NaN for the NaNs).
template <typename Decode> uint32_t nearestF8(double value, Decode decode) {
  if (std::isnan(value))
    return 0x7f;
  uint32_t best = 0;
  double bestError = INFINITY;
  for (uint32_t code = 0; code < 256; ++code) {
    double v = decode(code);
    if (std::isnan(v) || std::isinf(v) || (v == 0 && (code & 0x80)))
      continue;
    double error = std::fabs(v - value);
    if (error < bestError || (error == bestError && (code & 1) == 0)) {
      best = code;
      bestError = error;
    }
  }
  if (value < 0 && best == 0)
    best = 0x80; // -0 stays negative
  return best;
}

// cvt.rn.satfinite to e4m3x2 and e5m2x2 from two f32 (the first in the
// upper byte), and back to f16x2: thread t converts a = 30 t - 200 (448
// and past: saturation; ties such as 280 between 256 and 288 ... ) and
// b = t / 1000 (e4m3's subnormals), each byte checked against the nearest
// code by search, each f16 against the byte's value.
TEST_F(ExecTest, ConvertsToAndFromFp8Pairs) {
  const char *kernel = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 32, 1, 1
{
  .reg .b16 %h<3>;
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  cvt.rn.f32.u32 %f1, %r1;
  mul.f32 %f2, %f1, 0f41F00000;
  sub.f32 %f2, %f2, 0f43480000;
  mul.f32 %f3, %f1, 0f3A83126F;
  cvt.rn.satfinite.e4m3x2.f32 %h1, %f2, %f3;
  cvt.rn.satfinite.e5m2x2.f32 %h2, %f2, %f3;
  cvt.rn.f16x2.e4m3x2 %r2, %h1;
  cvt.rn.f16x2.e5m2x2 %r3, %h2;
  cvt.u32.u16 %r4, %h1;
  cvt.u32.u16 %r5, %h2;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.b32 [%rd3], {%r4, %r5, %r2, %r3};
  ret;
}
)";
  Outcome outcome = run(kernel, 32, 32 * 4);
  ASSERT_EQ(outcome.error, "");
  auto e4m3 = [](uint32_t code) -> double {
    int e = (code >> 3) & 0xf, m = code & 7;
    if (e == 15 && m == 7)
      return NAN;
    double magnitude =
        e ? std::ldexp(1.0 + m / 8.0, e - 7) : std::ldexp(double(m), -9);
    return code & 0x80 ? -magnitude : magnitude;
  };
  auto e5m2 = [](uint32_t code) -> double {
    int e = (code >> 2) & 0x1f, m = code & 3;
    if (e == 31)
      return m ? NAN : INFINITY;
    double magnitude =
        e ? std::ldexp(1.0 + m / 4.0, e - 15) : std::ldexp(double(m), -16);
    return code & 0x80 ? -magnitude : magnitude;
  };
  auto half = [](uint32_t bits) { return double(halfToFloat(uint16_t(bits))); };
  for (uint32_t t = 0; t < 32; ++t) {
    float a = float(t) * 30.0f - 200.0f;
    float b = float(t) * 0.001f;
    uint32_t pair8 = outcome.out[4 * t], pair5 = outcome.out[4 * t + 1];
    EXPECT_EQ(pair8 >> 8, nearestF8(a, e4m3)) << t;
    EXPECT_EQ(pair8 & 0xff, nearestF8(b, e4m3)) << t;
    EXPECT_EQ(pair5 >> 8, nearestF8(a, e5m2)) << t;
    EXPECT_EQ(pair5 & 0xff, nearestF8(b, e5m2)) << t;
    uint32_t back8 = outcome.out[4 * t + 2], back5 = outcome.out[4 * t + 3];
    EXPECT_EQ(half(back8 >> 16), e4m3(pair8 >> 8)) << t;
    EXPECT_EQ(half(back8 & 0xffff), e4m3(pair8 & 0xff)) << t;
    EXPECT_EQ(half(back5 >> 16), e5m2(pair5 >> 8)) << t;
    EXPECT_EQ(half(back5 & 0xffff), e5m2(pair5 & 0xff)) << t;
  }
  // The inputs reach saturation (30 t - 200 > 448 from t = 22).
  EXPECT_EQ(outcome.out[4 * 31] >> 8, 0x7eu);
  // PTX requires .satfinite for an FP8 result; so does the emulator.
  Outcome unsaturated =
      run(with(kernel, "cvt.rn.satfinite.e4m3x2.f32", "cvt.rn.e4m3x2.f32"), 32,
          32 * 4);
  EXPECT_NE(unsaturated.error.find("an FP8 cvt the emulator does not model"),
            std::string::npos)
      << unsaturated.error;
}

// .ftz flushes subnormal inputs and results of add, sub and div on f32
// (PTX ISA, "Floating-Point Instructions"): the smallest subnormal twice
// is 2 ulp without it, +0 with it.
TEST_F(ExecTest, FlushesSubnormalsUnderFtz) {
  const char *kernel = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 32, 1, 1
{
  .reg .b32 %r<9>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  mov.f32 %f1, 0f00000001;
  mov.f32 %f2, 0f80000001;
  mov.f32 %f3, 0f3F800000;
  add.rn.f32 %f4, %f1, %f1;
  add.rn.ftz.f32 %f5, %f1, %f1;
  sub.rn.ftz.f32 %f6, %f1, %f2;
  div.rn.ftz.f32 %f7, %f1, %f3;
  mov.b32 %r2, %f4;
  mov.b32 %r3, %f5;
  mov.b32 %r4, %f6;
  mov.b32 %r5, %f7;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.b32 [%rd3], {%r2, %r3, %r4, %r5};
  ret;
}
)";
  Outcome outcome = run(kernel, 32, 32 * 4);
  ASSERT_EQ(outcome.error, "");
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(outcome.out[4 * t], 2u) << t;
    EXPECT_EQ(outcome.out[4 * t + 1], 0u) << t;
    EXPECT_EQ(outcome.out[4 * t + 2], 0u) << t;
    EXPECT_EQ(outcome.out[4 * t + 3], 0u) << t;
  }
}

// What the decoder cannot give a meaning fails at load, naming it: a
// comparison the ISA does not define for the type, a shuffle without a
// mode, an opcode outside Opcodes.def.
TEST_F(ExecTest, RefusesAtLoadWhatItCannotDecode) {
  auto loadError = [&](const std::string &find, const std::string &replace) {
    try {
      Module module(std::string(kHeader) + with(kSimt, find, replace), memory);
    } catch (const std::exception &error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_NE(loadError("setp.eq.b32", "setp.equ.b32")
                .find("unsupported comparison 'setp.equ.b32'"),
            std::string::npos);
  EXPECT_NE(
      loadError("shfl.sync.bfly.b32 %r5, %r4, 16", "shfl.bfly.b32 %r5, %r4, 16")
          .find("unsupported shuffle 'shfl.bfly.b32'"),
      std::string::npos);
  EXPECT_NE(loadError("and.b32", "andn.b32")
                .find("unsupported instruction 'andn.b32'"),
            std::string::npos);
}

TEST_F(ExecTest, RefusesAWriteOutsideEveryAllocation) {
  Outcome outcome = run(with(kSimt, "add.s64 %rd3, %rd1, %rd2;",
                             "add.s64 %rd3, %rd1, %rd2;\n"
                             "  add.s64 %rd3, %rd3, 4096;"),
                        64, 128);
  EXPECT_NE(outcome.error.find("(st.global.v2.b32): write of 8 bytes at"),
            std::string::npos)
      << outcome.error;
  EXPECT_NE(outcome.error.find("outside every allocation"), std::string::npos);
}

// Warp 1 waits at bar.sync 1 for 64 threads; warp 0 never arrives.
const char *kBarrier = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 64, 1, 1
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra SKIP;
  bar.sync 1, 64;
SKIP:
  ret;
}
)";

TEST_F(ExecTest, ReportsAMissingBarrierArrivalAsADeadlock) {
  Outcome outcome = run(kBarrier, 64, 1);
  EXPECT_NE(outcome.error.find("deadlock"), std::string::npos) << outcome.error;
  EXPECT_NE(outcome.error.find("warp 1: bar.sync 1 (32 of 64 threads "
                               "arrived)"),
            std::string::npos)
      << outcome.error;
  // Warp 0 arriving (without waiting) completes it.
  Outcome fixed = run(with(kBarrier, "@%p1 bra SKIP;\n  bar.sync 1, 64;",
                           "@%p1 bra ARRIVE;\n  bar.sync 1, 64;\n"
                           "  bra.uni SKIP;\nARRIVE:\n  bar.arrive 1, 64;"),
                      64, 1);
  EXPECT_EQ(fixed.error, "");
}

// The end of the TMA kernels below: thread 0 loads a [4 x 32] bf16 box by
// TMA through the tensor map at %rd2 at column %r2, completing on an
// mbarrier; every thread (%r1) waits for the phase, reads its 4 bytes of
// the box and writes them to %rd3.
const std::string kLoadBoxThroughMap = R"(
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra WAIT;
  mbarrier.init.shared.b64 [smem+4096], 1;
  fence.mbarrier_init.release.cluster;
  mbarrier.arrive.expect_tx.shared.b64 _, [smem+4096], 256;
  mov.b32 %r3, 0;
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem], [%rd2, {%r2, %r3}], [smem+4096];
WAIT:
  bar.sync 0;
LOOP:
  mbarrier.try_wait.parity.shared.b64 %p2, [smem+4096], 0;
  @!%p2 bra LOOP;
  mul.wide.u32 %rd4, %r1, 4;
  mov.b64 %rd5, smem;
  add.s64 %rd6, %rd5, %rd4;
  ld.shared.b32 %r5, [%rd6];
  add.s64 %rd7, %rd3, %rd4;
  st.global.b32 [%rd7], %r5;
  ret;
}
)";

// Thread 0 loads a [4 x 32] bf16 box of an [8 x 32] tensor by TMA at
// column x (the parameter), completing on an mbarrier; every thread waits
// for the phase, reads its 4 bytes of the box and writes them out.
const std::string kTmaLoad = R"(
.extern .shared .align 1024 .b8 smem[];
.visible .entry k(.param .align 64 .b8 k_param_0[128], .param .u64 k_param_1,
                  .param .u32 k_param_2)
.maxntid 64, 1, 1
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  mov.u32 %r1, %tid.x;
  mov.b64 %rd1, k_param_0;
  cvta.param.u64 %rd2, %rd1;
  ld.param.b64 %rd3, [k_param_1];
  ld.param.b32 %r2, [k_param_2];
)" + kLoadBoxThroughMap;

class TmaTest : public ExecTest {
protected:
  uint64_t tensor = 0;

  void SetUp() override {
    tensor = memory.allocate(8 * 32 * 2);
    auto *data = reinterpret_cast<uint16_t *>(tensor);
    for (uint16_t e = 0; e < 256; ++e)
      data[e] = uint16_t(e + 1);
  }
  void TearDown() override {
    memory.release(tensor);
    std::free(reinterpret_cast<void *>(tensor));
  }

  /// What cuTensorMapEncodeTiled makes of an [8 x 32] bf16 tensor in
  /// [4 x 32] boxes, in a kernel parameter's 128 bytes.
  std::vector<uint8_t> mapParam() const {
    TensorMap map;
    map.rank = 2;
    map.elementBytes = 2;
    map.globalAddress = tensor;
    map.globalDim = {32, 8, 1, 1, 1};
    map.globalStrides = {2, 64, 0, 0, 0};
    map.boxDim = {32, 4, 1, 1, 1};
    map.elementStrides = {1, 1, 1, 1, 1};
    std::vector<uint8_t> bytes(128, 0);
    std::memcpy(bytes.data(), &map, sizeof(map));
    return bytes;
  }

  /// The box loaded at column 16 as kLoadBoxThroughMap writes it out:
  /// element (row, c) is row * 32 + c + 16 + 1, zero past column 31.
  static void expectBoxAtColumn16(const Outcome &outcome) {
    for (uint32_t row = 0; row < 4; ++row)
      for (uint32_t column = 0; column < 32; column += 2) {
        uint32_t word = outcome.out[row * 16 + column / 2];
        auto element = [&](uint32_t c) {
          return c + 16 < 32 ? row * 32 + c + 16 + 1 : 0; // past col 31: 0
        };
        EXPECT_EQ(word & 0xffff, element(column)) << row << "," << column;
        EXPECT_EQ(word >> 16, element(column + 1)) << row << "," << column;
      }
  }

  Outcome load(const std::string &body, uint32_t x, uint64_t seed = 1) {
    return run(body, 64, 64, mapParam(), x, seed, 8192);
  }
};

TEST_F(TmaTest, LoadsABoxWithOutOfBoundsZeros) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Outcome outcome = load(kTmaLoad, 16, seed);
    ASSERT_EQ(outcome.error, "") << "seed " << seed;
    expectBoxAtColumn16(outcome);
  }
}

TEST_F(TmaTest, CatchesAWrongParity) {
  // Waiting on parity 1 passes at once (the "previous" phase): the box is
  // read before the TMA load completes, on some schedules.
  std::string wrong = with(kTmaLoad, "[smem+4096], 0;", "[smem+4096], 1;");
  EXPECT_GE(
      schedulesCaught([&](uint64_t seed) { return load(wrong, 0, seed); },
                      "while a TMA load or cp.async into it is in flight"),
      4);
}

TEST_F(TmaTest, CatchesAWrongTransactionCount) {
  // 128 bytes expected, 256 delivered: the phase never completes.
  Outcome outcome =
      load(with(kTmaLoad, "[smem+4096], 256;", "[smem+4096], 128;"), 0);
  EXPECT_NE(outcome.error.find("deadlock"), std::string::npos) << outcome.error;
  EXPECT_NE(outcome.error.find("mbarrier at shared offset 4096, parity 0 "
                               "(phase 0 in progress, 0 arrivals and -128 "
                               "tx bytes missing)"),
            std::string::npos)
      << outcome.error;
}

// cp.async: thread t writes 4 words (16 t + i) to the upper half of the
// output, copies them by cp.async into shared chunk t (odd threads only
// their first 8 bytes: the rest zero-filled), holds the mbarrier's phase
// open until they land (cp.async.mbarrier.arrive), and after thread 0's
// arrival and the phase's wait writes chunk t ^ 1 to the lower half.
const char *kCopyAsync = R"(
.extern .shared .align 1024 .b8 smem[];
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 32, 1, 1
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  ld.param.b64 %rd1, [k_param_0];
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra FILL;
  mbarrier.init.shared.b64 [smem+1024], 1;
FILL:
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, 512;
  add.s64 %rd4, %rd3, %rd2;
  shl.b32 %r2, %r1, 4;
  add.s32 %r3, %r2, 1;
  add.s32 %r4, %r2, 2;
  add.s32 %r5, %r2, 3;
  st.global.v4.b32 [%rd4], {%r2, %r3, %r4, %r5};
  bar.sync 0;
  and.b32 %r6, %r1, 1;
  setp.eq.s32 %p2, %r6, 0;
  selp.b32 %r7, 16, 8, %p2;
  mov.b64 %rd5, smem;
  add.s64 %rd6, %rd5, %rd2;
  cvt.u32.u64 %r8, %rd6;
  cp.async.cg.shared.global [%r8], [%rd4], 16, %r7;
  cp.async.mbarrier.arrive.shared::cta.b64 [smem+1024];
  bar.sync 0;
  @%p1 bra WAIT;
  mbarrier.arrive.shared.b64 _, [smem+1024];
WAIT:
  mbarrier.try_wait.parity.shared.b64 %p3, [smem+1024], 0;
  @!%p3 bra WAIT;
  xor.b32 %r9, %r1, 1;
  mul.wide.u32 %rd7, %r9, 16;
  add.s64 %rd8, %rd5, %rd7;
  ld.shared.v4.b32 {%r2, %r3, %r4, %r5}, [%rd8];
  add.s64 %rd9, %rd1, %rd2;
  st.global.v4.b32 [%rd9], {%r2, %r3, %r4, %r5};
  ret;
}
)";

// Lane 0 of each warp stores its warp's index to word 0: the last warp to
// store wins.
const char *kLastWriter = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 64, 1, 1
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.ne.b32 %p1, %r2, 0;
  @%p1 bra DONE;
  shr.u32 %r3, %r1, 5;
  st.global.b32 [%rd1], %r3;
DONE:
  ret;
}
)";

TEST_F(ExecTest, RunsTheLaggardWarpOnlyWhenNoOtherCan) {
  // Random schedules let either warp store last; with warp 0 the laggard
  // it runs only once warp 1 has exited, on every seed.
  std::set<uint32_t> lastWarps;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Outcome outcome = run(kLastWriter, 64, 1, {}, 0, seed);
    ASSERT_EQ(outcome.error, "") << "seed " << seed;
    lastWarps.insert(outcome.out[0]);
  }
  EXPECT_EQ(lastWarps, (std::set<uint32_t>{0, 1}));
  laggardWarp = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Outcome outcome = run(kLastWriter, 64, 1, {}, 0, seed);
    ASSERT_EQ(outcome.error, "") << "seed " << seed;
    EXPECT_EQ(outcome.out[0], 0u) << "seed " << seed;
  }
}

// A buffer reused by two warps: warp 0 fills a shared word (1), arrives on
// `full`, works a while, waits on `empty` and fills the word again (2);
// warp 1 waits for each phase of `full`, reads the word, and arrives on
// `empty` after the first. Its output is {1, 2}.
const char *kReuse = R"(
.shared .align 8 .b8 smem[32];
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 64, 1, 1
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra SYNC;
  mbarrier.init.shared.b64 [smem+8], 32;
  mbarrier.init.shared.b64 [smem+16], 32;
SYNC:
  bar.sync 0;
  shr.u32 %r2, %r1, 5;
  setp.ne.s32 %p2, %r2, 0;
  @%p2 bra FULL0;
  mov.b32 %r3, 1;
  st.shared.b32 [smem], %r3;
  mbarrier.arrive.shared.b64 _, [smem+8];
  mov.b32 %r4, 0;
WORK:
  add.s32 %r4, %r4, 1;
  setp.lt.s32 %p3, %r4, 64;
  @%p3 bra WORK;
EMPTY:
  mbarrier.try_wait.parity.shared.b64 %p3, [smem+16], 0;
  @!%p3 bra EMPTY;
  mov.b32 %r3, 2;
  st.shared.b32 [smem], %r3;
  mbarrier.arrive.shared.b64 _, [smem+8];
  ret;
FULL0:
  mbarrier.try_wait.parity.shared.b64 %p3, [smem+8], 0;
  @!%p3 bra FULL0;
  ld.shared.b32 %r5, [smem];
  mbarrier.arrive.shared.b64 _, [smem+16];
FULL1:
  mbarrier.try_wait.parity.shared.b64 %p3, [smem+8], 1;
  @!%p3 bra FULL1;
  ld.shared.b32 %r6, [smem];
  and.b32 %r7, %r1, 31;
  setp.ne.s32 %p3, %r7, 0;
  @%p3 bra DONE;
  st.global.b32 [%rd1], %r5;
  st.global.b32 [%rd1+4], %r6;
DONE:
  ret;
}
)";

TEST_F(ExecTest, PctFindsAMissingWaitThatRandomSchedulesMiss) {
  // Without warp 0's wait on `empty`, the second fill overwrites the word
  // (or completes `full`'s second phase too, and warp 1 waits forever) only
  // if warp 0 runs its 192 instructions of work before warp 1 reads: random
  // schedules (a random ready warp per burst of 1 to 16) all but never
  // let it, PCT does whenever warp 0 has the higher priority, and delaying
  // warp 1 does on every seed.
  std::string missing =
      with(kReuse,
           "EMPTY:\n  mbarrier.try_wait.parity.shared.b64 %p3, [smem+16], "
           "0;\n  @!%p3 bra EMPTY;\n",
           "");
  auto wrong = [&](const std::string &text, uint64_t seed) {
    Outcome outcome = run(text, 64, 2, {}, 0, seed);
    return !outcome.error.empty() || outcome.out != std::vector<uint32_t>{1, 2};
  };
  std::map<std::string, int> caught;
  for (const char *strategy :
       {"random", "pct:1", "pct:3", "delay:0", "delay:1"}) {
    schedule = strategy;
    for (uint64_t seed = 1; seed <= 8; ++seed) {
      caught[strategy] += wrong(missing, seed);
      EXPECT_FALSE(wrong(kReuse, seed)) << strategy << " seed " << seed;
    }
  }
  EXPECT_EQ(caught["random"], 0);
  EXPECT_GE(caught["pct:1"], 2);
  EXPECT_GE(caught["pct:3"], 2);
  EXPECT_EQ(caught["delay:0"], 0);
  EXPECT_EQ(caught["delay:1"], 8);
  // A seed PCT catches it on replays it: the same seed, the same schedule.
  schedule = "pct:1";
  for (uint64_t seed = 1; seed <= 8; ++seed)
    if (wrong(missing, seed)) {
      Outcome outcome = run(missing, 64, 2, {}, 0, seed);
      EXPECT_NE(outcome.error.find("deadlock"), std::string::npos)
          << outcome.error;
    }
}

TEST_F(ExecTest, ParsesSchedules) {
  LaunchOptions options;
  EXPECT_EQ(parseSchedule("pct:3:5000", options), "");
  EXPECT_EQ(options.schedule, LaunchOptions::Schedule::Pct);
  EXPECT_EQ(options.pctDepth, 3);
  EXPECT_EQ(options.pctHorizon, 5000u);
  options.seed = 7;
  EXPECT_EQ(describeSchedule(options),
            "FA4_EMU_SCHEDULE=pct:3:5000 FA4_EMU_SEED=7");
  LaunchOptions delayed;
  EXPECT_EQ(parseSchedule("delay:4-6,1,async", delayed), "");
  EXPECT_EQ(delayed.delayedWarps, 0x72u);
  EXPECT_TRUE(delayed.delayAsync);
  EXPECT_EQ(describeSchedule(delayed),
            "FA4_EMU_SCHEDULE=delay:1,4,5,6,async FA4_EMU_SEED=1");
  for (const char *wrong : {"pct", "pct:0", "pct:2:", "pct:x", "delay:",
                            "delay:32", "delay:5-3", "delay:1,,2", "fifo"})
    EXPECT_NE(parseSchedule(wrong, options), "") << wrong;
}

TEST_F(ExecTest, CopiesAsyncWithZeroFillAndMbarrierTracking) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    Outcome outcome = run(kCopyAsync, 32, 256, {}, 0, seed, 2048);
    ASSERT_EQ(outcome.error, "") << "seed " << seed;
    for (uint32_t t = 0; t < 32; ++t) {
      uint32_t from = t ^ 1, copied = from % 2 ? 2 : 4;
      for (uint32_t i = 0; i < 4; ++i)
        EXPECT_EQ(outcome.out[4 * t + i], i < copied ? 16 * from + i : 0)
            << "thread " << t << " word " << i;
    }
  }
}

TEST_F(ExecTest, CatchesAReadBeforeTheCopyLands) {
  // Without cp.async.mbarrier.arrive the phase completes on thread 0's
  // arrival alone: on some schedules the copies are still in flight.
  std::string early = with(
      kCopyAsync, "cp.async.mbarrier.arrive.shared::cta.b64 [smem+1024];", "");
  EXPECT_GE(
      schedulesCaught(
          [&](uint64_t seed) { return run(early, 32, 256, {}, 0, seed, 2048); },
          "cp.async into it is in flight"),
      4);
}

TEST_F(ExecTest, WaitsForCopiesByGroup) {
  // The copies in a committed group, waited for: done before the reads.
  for (const char *wait : {"cp.async.commit_group;\n  cp.async.wait_group 0;",
                           "cp.async.wait_all;"}) {
    std::string waited =
        with(kCopyAsync,
             "cp.async.mbarrier.arrive.shared::cta.b64 [smem+1024];", wait);
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      Outcome outcome = run(waited, 32, 256, {}, 0, seed, 2048);
      ASSERT_EQ(outcome.error, "") << wait << " seed " << seed;
      EXPECT_EQ(outcome.out[0], 16u);
      EXPECT_EQ(outcome.out[4 * 2 + 3], 0u);  // chunk 3: zero-filled
      EXPECT_EQ(outcome.out[4 * 3 + 3], 35u); // chunk 2: copied
    }
  }
}

// Every thread writes its word of the box to shared memory, then thread 0
// stores the box by TMA at column x; a fence.proxy.async between them
// makes the generic writes visible to the TMA unit.
const char *kTmaStore = R"(
.extern .shared .align 1024 .b8 smem[];
.visible .entry k(.param .align 64 .b8 k_param_0[128], .param .u64 k_param_1,
                  .param .u32 k_param_2)
.maxntid 64, 1, 1
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  mov.u32 %r1, %tid.x;
  mov.b64 %rd1, k_param_0;
  cvta.param.u64 %rd2, %rd1;
  ld.param.b32 %r2, [k_param_2];
  mul.wide.u32 %rd4, %r1, 4;
  mov.b64 %rd5, smem;
  add.s64 %rd6, %rd5, %rd4;
  mul.lo.s32 %r5, %r1, 65537;
  st.shared.b32 [%rd6], %r5;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.b32 %r3, 0;
  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r2, %r3}], [smem];
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group.read 0;
DONE:
  ret;
}
)";

TEST_F(TmaTest, StoresABoxClippedAtTheBounds) {
  Outcome outcome = run(kTmaStore, 64, 1, mapParam(), 16, 3, 8192);
  ASSERT_EQ(outcome.error, "");
  auto *data = reinterpret_cast<uint16_t *>(tensor);
  for (uint32_t row = 0; row < 8; ++row)
    for (uint32_t column = 0; column < 32; ++column) {
      uint32_t boxColumn = column - 16, word = row * 16 + boxColumn / 2;
      uint16_t expected = row < 4 && column >= 16
                              ? uint16_t(word) // thread t wrote t, t
                              : uint16_t(row * 32 + column + 1);
      EXPECT_EQ(data[row * 32 + column], expected) << row << "," << column;
    }
}

TEST_F(TmaTest, CatchesAMissingProxyFence) {
  Outcome outcome =
      run(with(kTmaStore, "  fence.proxy.async.shared::cta;\n", ""), 64, 1,
          mapParam(), 0, 1, 8192);
  EXPECT_NE(outcome.error.find("TMA store reads shared bytes that generic "
                               "stores wrote without a fence.proxy.async"),
            std::string::npos)
      << outcome.error;
}

// Warp 0 builds the tensor map of mapParam() itself: zeroes 128 bytes of
// shared memory, writes every field (tensormap.replace), copies it to the
// global scratch (the second parameter) with a release; after the barrier
// every thread acquires it, and thread 0 loads the box through it as
// kTmaLoad does.
const std::string kTmaBuiltMap = R"(
.extern .shared .align 1024 .b8 smem[];
.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1,
                  .param .u64 k_param_2, .param .u32 k_param_3)
.maxntid 64, 1, 1
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  mov.u32 %r1, %tid.x;
  ld.param.b64 %rd1, [k_param_0];
  ld.param.b64 %rd2, [k_param_1];
  ld.param.b64 %rd3, [k_param_2];
  ld.param.b32 %r2, [k_param_3];
  setp.ge.u32 %p3, %r1, 32;
  @%p3 bra BUILT;
  mov.u32 %r7, smem;
  shl.b32 %r8, %r1, 2;
  add.s32 %r9, %r7, %r8;
  mov.b32 %r10, 0;
  st.shared.b32 [%r9+8192], %r10;
  bar.warp.sync -1;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra REPLACED;
  tensormap.replace.tile.global_address.shared::cta.b1024.b64 [smem+8192], %rd1;
  tensormap.replace.tile.rank.shared::cta.b1024.b32 [smem+8192], 1;
  tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smem+8192], 0, 32;
  tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smem+8192], 1, 4;
  tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [smem+8192], 0, 32;
  tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [smem+8192], 1, 8;
  tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [smem+8192], 0, 64;
  tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [smem+8192], 0, 1;
  tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [smem+8192], 1, 1;
  tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [smem+8192], 1;
  tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [smem+8192], 0;
  tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [smem+8192], 0;
  tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [smem+8192], 0;
REPLACED:
  bar.warp.sync -1;
  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd2], [smem+8192], 128;
BUILT:
  bar.sync 0;
  fence.proxy.tensormap::generic.acquire.gpu [%rd2], 128;
)" + kLoadBoxThroughMap;

class BuiltMapTest : public TmaTest {
protected:
  Outcome loadThroughBuiltMap(const std::string &body, uint32_t x) {
    uint64_t scratch = memory.allocate(128);
    std::vector<uint8_t> prefix;
    append(prefix, tensor);
    append(prefix, scratch);
    Outcome outcome = run(body, 64, 64, prefix, x, 1, 16384);
    memory.release(scratch);
    std::free(reinterpret_cast<void *>(scratch));
    return outcome;
  }
};

TEST_F(BuiltMapTest, LoadsThroughAMapTheKernelBuilt) {
  Outcome outcome = loadThroughBuiltMap(kTmaBuiltMap, 16);
  ASSERT_EQ(outcome.error, "");
  expectBoxAtColumn16(outcome);
}

TEST_F(BuiltMapTest, CatchesAMissingAcquire) {
  Outcome outcome = loadThroughBuiltMap(
      with(kTmaBuiltMap,
           "  fence.proxy.tensormap::generic.acquire.gpu [%rd2], 128;\n", ""),
      0);
  EXPECT_NE(outcome.error.find("was not acquired by this CTA "
                               "(fence.proxy.tensormap::generic.acquire)"),
            std::string::npos)
      << outcome.error;
}

TEST_F(BuiltMapTest, CatchesAFieldLeftUnset) {
  Outcome noType = loadThroughBuiltMap(
      with(kTmaBuiltMap,
           "  tensormap.replace.tile.elemtype.shared::cta.b1024.b32 "
           "[smem+8192], 1;\n",
           ""),
      0);
  EXPECT_NE(noType.error.find("the tensor map has no element type"),
            std::string::npos)
      << noType.error;
  Outcome noBox = loadThroughBuiltMap(
      with(kTmaBuiltMap,
           "  tensormap.replace.tile.box_dim.shared::cta.b1024.b32 "
           "[smem+8192], 1, 4;\n",
           ""),
      0);
  EXPECT_NE(noBox.error.find("the tensor map has box extent 0 of dim 1"),
            std::string::npos)
      << noBox.error;
}

// Tensor memory (sm_100a): warp 0 allocates 32 columns; every warp stores
// its threads' ids into its quadrant's lanes, waits, loads them back, waits
// and writes them out; warp 0 frees the columns.
const char *kTmem = R"(
.extern .shared .align 1024 .b8 smem[];
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 128, 1, 1
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  setp.ne.s32 %p1, %r2, 0;
  @%p1 bra ALLOCATED;
  mov.b32 %r3, 32;
  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], %r3;
ALLOCATED:
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  tcgen05.fence::after_thread_sync;
  ld.shared.b32 %r4, [smem];
  shl.b32 %r5, %r2, 21;
  add.s32 %r6, %r4, %r5;
  tcgen05.st.sync.aligned.32x32b.x1.b32 [%r6], {%r1};
  tcgen05.wait::st.sync.aligned;
  tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r7}, [%r6];
  tcgen05.wait::ld.sync.aligned;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.b32 [%rd3], %r7;
  tcgen05.fence::before_thread_sync;
  bar.sync 0;
  @%p1 bra DONE;
  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, %r3;
  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
DONE:
  ret;
}
)";

TEST_F(ExecTest, StoresAndLoadsTensorMemory) {
  Outcome outcome = run(kTmem, 128, 128, {}, 0, 1, 1024);
  ASSERT_EQ(outcome.error, "");
  for (uint32_t t = 0; t < 128; ++t)
    EXPECT_EQ(outcome.out[t], t);
}

TEST_F(ExecTest, CatchesTensorMemoryMisuse) {
  // A loaded register read before tcgen05.wait::ld.
  Outcome early =
      run(with(kTmem, "  tcgen05.wait::ld.sync.aligned;\n  mul.wide.u32",
               "  add.s32 %r8, %r7, 1;\n  tcgen05.wait::ld.sync.aligned;\n  "
               "mul.wide.u32"),
          128, 128, {}, 0, 1, 1024);
  EXPECT_NE(early.error.find("(add.s32): register #"), std::string::npos)
      << early.error;
  EXPECT_NE(early.error.find("tcgen05.ld before tcgen05.wait::ld"),
            std::string::npos);
  // The same kernel without any tcgen05.wait::ld (as FlashAttention-4's
  // CuTe-DSL kernels are) is refused by default, and runs when the launch
  // treats tcgen05.ld registers as scoreboarded
  // (LaunchOptions::tcgen05Lenient, FA4_EMU_RULES=lenient).
  std::string noWait = with(kTmem, "  tcgen05.wait::ld.sync.aligned;\n", "");
  Outcome strict = run(noWait, 128, 128, {}, 0, 1, 1024);
  EXPECT_NE(strict.error.find("tcgen05.ld before tcgen05.wait::ld"),
            std::string::npos)
      << strict.error;
  Outcome scoreboard = run(noWait, 128, 128, {}, 0, 1, 1024, true);
  ASSERT_EQ(scoreboard.error, "");
  for (uint32_t t = 0; t < 128; ++t)
    EXPECT_EQ(scoreboard.out[t], t) << t;
  // Another warp's lanes (no lane offset).
  Outcome quadrant =
      run(with(kTmem, "add.s32 %r6, %r4, %r5;", "add.s32 %r6, %r4, 0;"), 128,
          128, {}, 0, 1, 1024);
  EXPECT_NE(quadrant.error.find("accesses tensor-memory lane 0; its "
                                "quadrant is lanes "),
            std::string::npos)
      << quadrant.error;
  // Columns still allocated at exit.
  Outcome leak = run(
      with(kTmem, "  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r4, %r3;\n",
           ""),
      128, 128, {}, 0, 1, 1024);
  EXPECT_NE(leak.error.find("exited with 32 tensor-memory columns allocated"),
            std::string::npos)
      << leak.error;
}

// A cluster of two CTAs: each stores rank * 10 + 1 in its shared memory;
// then each takes its own shared address, clears bit 24 (CUTLASS's way to
// the pair's even CTA) and reads there through shared::cluster, writing the
// address's rank bits and the word it read.
const char *kPairAddress = R"(
.extern .shared .align 16 .b8 smem[];
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 32, 1, 1
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %cluster_ctarank;
  mad.lo.s32 %r2, %r1, 10, 1;
  st.shared.b32 [smem], %r2;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  mov.u32 %r3, smem;
  shr.u32 %r4, %r3, 24;
  and.b32 %r5, %r3, -16777217;
  ld.shared::cluster.b32 %r6, [%r5];
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.b32 [%rd3], {%r4, %r6};
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  ret;
}
)";

TEST_F(ExecTest, SharedAddressesCarryTheirCtaRank) {
  Outcome pair = run(kPairAddress, 32, 4, {}, 0, 1, 64, false, 2);
  ASSERT_EQ(pair.error, "");
  // CTA 0: rank bits 0, its own word; CTA 1: rank bits 1, CTA 0's word.
  EXPECT_EQ(pair.out, (std::vector<uint32_t>{0, 1, 1, 1}));
  // A shared::cta load with the other CTA's address is refused.
  Outcome wrong = run(with(kPairAddress, "ld.shared::cluster.b32 %r6, [%r5]",
                           "xor.b32 %r7, %r3, 16777216;\n  ld.shared.b32 %r6, "
                           "[%r7]"),
                      32, 4, {}, 0, 1, 64, false, 2);
  EXPECT_NE(wrong.error.find("shared::cta access with another CTA's address"),
            std::string::npos)
      << wrong.error;
}

//===----------------------------------------------------------------------===//
// Limits and lifetimes (docs/Emulator.md): what a mutated module or launch
// asks for beyond the chip is refused, a kernel that never ends is stopped,
// and a CTA's shared memory is gone once it exits.
//===----------------------------------------------------------------------===//

TEST_F(ExecTest, RefusesAllocationsPastTheDevice) {
  // SIZE_MAX once rounded up to 0 bytes and was handed out as if it fit.
  EXPECT_EQ(memory.allocate(SIZE_MAX), 0u);
  EXPECT_EQ(memory.allocate(SIZE_MAX - 200), 0u);
  EXPECT_EQ(memory.allocate(kDeviceMemoryBytes + 1), 0u);
}

/// The message of the error loading `body` throws, or "".
std::string loadError(Memory &memory, const std::string &body) {
  try {
    Module module(std::string(kHeader) + body, memory);
  } catch (const std::exception &error) {
    return error.what();
  }
  return "";
}

TEST_F(ExecTest, RefusesSharedMemoryPastTheChip) {
  // 2^32 + 512 bytes once wrapped to 512.
  // Variables are laid out per kernel: kSimt's.
  EXPECT_EQ(loadError(memory,
                      "\n.shared .b8 buf[4294967808];\n" + std::string(kSimt)),
            "line 5: k: shared variable buf ends at byte 4294967808, past "
            "the chip's 232448 bytes of shared memory");
  EXPECT_EQ(loadError(memory, ".shared .align 16 .b8 a[200000];\n"
                              ".shared .align 65536 .b8 b[16];\n" +
                                  std::string(kSimt)),
            "line 5: k: shared variable b ends at byte 262160, past the "
            "chip's 232448 bytes of shared memory");
  EXPECT_EQ(loadError(memory, ".shared .align 16 .b8 a[232448];\n" +
                                  std::string(kSimt)),
            "");
  // Dynamic shared memory past the chip's, at launch.
  EXPECT_EQ(run(kPairAddress, 32, 4, {}, 0, 1, 232448, false, 2).error, "");
  Outcome outcome = run(kPairAddress, 32, 4, {}, 0, 1, 232464, false, 2);
  EXPECT_EQ(outcome.error, "fa4-emu: k: 232464 bytes of shared memory per "
                           "CTA (at most 232448)")
      << outcome.error;
}

TEST_F(ExecTest, RefusesLaunchesTheDriverWould) {
  // 64 threads for a kernel of .maxntid 32.
  Outcome threads = run(kPairAddress, 64, 4, {}, 0, 1, 64, false, 2);
  EXPECT_EQ(threads.error,
            "fa4-emu: k: a block of 64 threads; k takes at most 32");
  Outcome cluster = run(kPairAddress, 32, 4, {}, 0, 1, 64, false, 32);
  EXPECT_EQ(cluster.error, "fa4-emu: k: a cluster of 32 CTAs (at most 16)");
}

// Every warp loops forever.
const char *kForever = R"(
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 64, 1, 1
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 0;
AGAIN:
  add.s32 %r1, %r1, 1;
  bra.uni AGAIN;
}
)";

TEST_F(ExecTest, StopsAKernelPastItsStepLimit) {
  Module module(std::string(kHeader) + kForever, memory);
  LaunchOptions options;
  options.block = {64, 1, 1};
  options.stepLimit = 100000;
  std::vector<uint8_t> params(12, 0);
  try {
    launch(*module.kernel("k"), params, options, memory);
    ADD_FAILURE() << "the launch ended";
  } catch (const StepLimitError &error) {
    EXPECT_NE(std::string(error.what())
                  .find("fa4-emu: k: the launch executed more than 100000 "
                        "warp instructions (FA4_EMU_STEP_LIMIT; 0 lifts the "
                        "limit): a kernel that never ends? CTA (0, 0, 0) "
                        "warp "),
              std::string::npos)
        << error.what();
  }
  // Under the limit, the sample's kernels never see it.
  EXPECT_EQ(run(kSimt, 64, 128).error, "");
}

// A cluster of two: after a cluster barrier, CTA 1 exits at once while
// CTA 0 counts to 200 and then reads CTA 1's shared memory through mapa.
const char *kReadAfterExit = R"(
.extern .shared .align 16 .b8 smem[];
.visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)
.maxntid 32, 1, 1
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.b64 %rd1, [k_param_0];
  mov.u32 %r1, %cluster_ctarank;
  add.s32 %r6, %r1, 7;
  st.shared.b32 [smem], %r6;
  barrier.cluster.arrive.aligned;
  barrier.cluster.wait.aligned;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r2, 0;
SPIN:
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 200;
  @%p2 bra SPIN;
  mov.u32 %r3, smem;
  mapa.shared::cluster.u32 %r4, %r3, 1;
  ld.shared::cluster.b32 %r5, [%r4];
  st.global.b32 [%rd1], %r5;
DONE:
  ret;
}
)";

TEST_F(ExecTest, CatchesAPeerReadingAnExitedCtasSharedMemory) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    Outcome outcome = run(kReadAfterExit, 32, 1, {}, 0, seed, 64, false, 2);
    EXPECT_NE(outcome.error.find("(ld.shared::cluster.b32): shared memory of "
                                 "CTA rank 1, which has exited"),
              std::string::npos)
        << outcome.error;
  }
  // A cluster barrier before the exit keeps it.
  Outcome kept = run(with(kReadAfterExit, "DONE:\n  ret;",
                          "DONE:\n  barrier.cluster.arrive.aligned;\n"
                          "  barrier.cluster.wait.aligned;\n  ret;"),
                     32, 1, {}, 0, 1, 64, false, 2);
  ASSERT_EQ(kept.error, "");
  EXPECT_EQ(kept.out[0], 8u);
}

TEST_F(TmaTest, CatchesAnExitWithTmaInFlight) {
  // The load's waiters gone: every thread exits after the issue.
  std::string noWait =
      with(kTmaLoad, "WAIT:\n  bar.sync 0;", "WAIT:\n  ret;\n  bar.sync 0;");
  int loads = schedulesCaught(
      [&](uint64_t seed) { return load(noWait, 16, seed); },
      "CTA (0, 0, 0) exited while a TMA load (line 25, CTA (0, 0, 0) warp 0) "
      "that reads or writes its shared memory is in flight");
  EXPECT_EQ(loads, 8);
  // The store not waited for (cp.async.bulk.wait_group.read).
  std::string noRead =
      with(kTmaStore, "  cp.async.bulk.wait_group.read 0;\n", "");
  int stores = schedulesCaught(
      [&](uint64_t seed) {
        return run(noRead, 64, 1, mapParam(), 16, seed, 8192);
      },
      "exited while a TMA store (line 27, CTA (0, 0, 0) warp 0)");
  EXPECT_EQ(stores, 8);
}

} // namespace
