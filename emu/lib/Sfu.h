//===- Sfu.h - The special-function unit as measured on an H100 -*- C++ -*-===//
//
// ex2.approx, lg2.approx and rcp.approx bit for bit, from tables measured
// on an H100
// over all 2^32 inputs (bench/mufu/README.md): loaded from FA4_EMU_SFU=DIR
// (bench/mufu/tables.py --extract DIR writes them). Without them the
// emulator computes these functions exactly (Exec.cpp, unaryValue).
// tanh.approx bit for bit from a model of the unit, with or without them.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_SFU_H
#define FA4_EMU_SFU_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fa4::emu {

/// 2^23 f32 bit patterns each: ex2.approx.ftz at i 2^-23 and at -i 2^-23,
/// lg2.approx.ftz at 1 + i 2^-23 and at (1 + i 2^-23) / 2, rcp.approx.ftz
/// at 1 + i 2^-23.
struct SfuTables {
  std::vector<uint32_t> ex2Positive, ex2Negative, lg2One, lg2Half, rcp;
};

constexpr uint32_t kSfuTableEntries = 1u << 23;

/// Loads DIR/ex2_pos.u32, ex2_neg.u32, lg2_e0.u32, lg2_em1.u32 and rcp.u32
/// as the tables the
/// functions below read; "" on success, else why not (a file missing or not
/// kSfuTableEntries words). The tables stay loaded for the process.
std::string loadSfuTables(const std::string &dir);

/// The loaded tables, or null.
const SfuTables *sfuTables();

/// ex2.approx.ftz.f32: a non-negative input's 23 fraction bits (floored)
/// index the positive table, a negative input's magnitude's (truncated) the
/// negative one, scaled by the integer part; flushed below 2^-126.
float ex2ApproxFtz(const SfuTables &tables, float x);
/// ex2.approx.f32: below -126, the square of ex2.approx.ftz of x / 2.
float ex2Approx(const SfuTables &tables, float x);
/// lg2.approx.ftz.f32: x = 2^e m rounds e + lg2(m) toward zero, lg2(m) read
/// off the table on [1, 2) for e >= 0 and as 1 + the table on [0.5, 1)
/// otherwise; -inf for zeros and subnormals, the canonical NaN below zero
/// and for every NaN.
float lg2ApproxFtz(const SfuTables &tables, float x);
/// lg2.approx.f32: a subnormal x as lg2.approx.ftz(x 2^24) - 24.
float lg2Approx(const SfuTables &tables, float x);
/// rcp.approx.ftz.f32: +-2^-e times the table's entry for the mantissa;
/// flushed below 2^-126.
float rcpApproxFtz(const SfuTables &tables, float x);
/// rcp.approx.f32: the same table for a subnormal's normalized mantissa,
/// the result rounded to nearest into the subnormals.
float rcpApprox(const SfuTables &tables, float x);

/// tanh.approx.f32 as the H100 computes it, bit for bit on all 2^32
/// inputs (TanhModel.h). Needs no tables.
float tanhApprox(float x);

/// One k16 step of a 16-bit wgmma with an f32 accumulator as an H100's
/// tensor cores compute it: D = C + sum of left[k] right[k] (Sfu.cpp).
float tensorCoreDot(float accumulator, const std::array<float, 16> &left,
                    const std::array<float, 16> &right);

} // namespace fa4::emu

#endif // FA4_EMU_SFU_H
