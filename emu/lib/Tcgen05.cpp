//===- Tcgen05.cpp - Tensor memory and tcgen05 (sm_100a) ------------------===//
//
// The fifth-generation tensor core as the PTX ISA describes it ("Tensor
// Memory", "tcgen05" instructions), for cta_group::1 and the CTA pairs of
// cta_group::2:
// - tensor memory: 128 lanes x 512 columns of 32 bits per CTA; an address
//   is lane << 16 | column; tcgen05.alloc hands out column ranges (a power
//   of two from 32 to 512) and writes their address to shared memory;
// - tcgen05.mma takes effect asynchronously: its operands are read and its
//   accumulator written when the tcgen05.commit that follows it completes,
//   which then arrives on an mbarrier;
// - tcgen05.ld / tcgen05.st move 32x32b columns between a warp's registers
//   and its quadrant of lanes (warp w: lanes 32 (w % 4) ...), valid only
//   after tcgen05.wait::ld / wait::st.
// - cta_group::2: the CTAs whose cluster ranks differ in bit 0 act as one
//   pair; each allocates the same columns, and one thread's M = 256 MMA
//   reads A rows 0-127 from the even CTA's shared memory (or tensor
//   memory) and rows 128-255 from the odd CTA's at the same addresses, B
//   rows 0 to N/2 - 1 from the even CTA and the rest from the odd one, and
//   writes each CTA's 128 rows of D into its own tensor memory (PTX ISA,
//   tcgen05.mma, "Data path layout" A); its commit may arrive on the
//   mbarriers of several CTAs (.multicast::cluster, a 16-bit CTA mask).
// Reading a register before wait::ld, loading columns an unfinished MMA
// writes, an MMA reading columns before wait::st, a kernel mixing
// cta_group::1 and ::2, and tensor memory still allocated at exit are
// errors.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"
#include "Numerics.h"

#include <cctype>
#include <cstdio>
#include <cstring>

using namespace fa4::emu;

namespace {

constexpr uint32_t kLanes = 128, kColumns = 512;

void ensureTmem(Cta &cta) {
  if (!cta.tmem.empty())
    return;
  // Poisoned as NaN in f32 and in each 16-bit half (f16, bf16), as
  // unwritten tensor memory may hold anything: an MMA that accumulates
  // onto columns nothing wrote (enable-input-d set on its first k step)
  // gives NaN, not the near-zero 0xa5a5a5a5 is as an f32.
  cta.tmem.assign(size_t(kLanes) * kColumns, 0xffa5ffa5u);
  cta.tmemOwner.assign(kColumns, 0);
  cta.tmemMmaPending.assign(kColumns, 0);
  cta.tmemStorePending.assign(kColumns, 0);
}

uint32_t &tmemAt(Cta &cta, uint32_t lane, uint32_t column) {
  return cta.tmem[size_t(lane) * kColumns + column];
}

/// " in CTA rank r" where `holder` is not the issuing CTA, for messages.
std::string rankSuffix(const Cta &cta, const Cta &holder) {
  return &holder == &cta ? std::string()
                         : " in CTA rank " + std::to_string(holder.rank);
}

/// Columns [first, first + count) of `holder`'s tensor memory (the
/// issuing CTA's, or its peer's under cta_group::2) are allocated.
void checkColumns(Cta &cta, Warp &warp, const Instruction &inst, Cta &holder,
                  uint32_t first, uint32_t count, const char *what) {
  if (first + count > kColumns)
    fail(cta, warp, inst, warp.live,
         std::string(what) + " past tensor memory's 512 columns");
  for (uint32_t c = first; c < first + count; ++c)
    if (!holder.tmemOwner[c])
      fail(cta, warp, inst, warp.live,
           what + (" column " + std::to_string(c)) + rankSuffix(cta, holder) +
               ", which tcgen05.alloc did not allocate");
}

/// The CTA group an instruction names (.cta_group::1 when it names none),
/// recorded per CTA: PTX ISA, tcgen05 "Matrix shape": the tcgen05
/// instructions of one kernel all use the same cta_group.
int ctaGroupOf(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  int group = inst.has(Modifier::CtaGroup2) ? 2 : 1;
  if (cta.tmemCtaGroup && cta.tmemCtaGroup != group)
    fail(cta, warp, inst, mask,
         "a kernel mixing tcgen05 .cta_group::" +
             std::to_string(cta.tmemCtaGroup) +
             " and .cta_group::" + std::to_string(group) + " (undefined)");
  cta.tmemCtaGroup = group;
  return group;
}

/// The other CTA of a cta_group::2 pair: its rank differs in bit 0.
Cta &peerOf(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  uint32_t rank = cta.rank ^ 1u;
  if (rank >= cta.cluster->ctas.size())
    fail(cta, warp, inst, mask,
         ".cta_group::2 in a cluster of " +
             std::to_string(cta.cluster->ctas.size()) + " CTA(s): CTA rank " +
             std::to_string(cta.rank) + " has no peer");
  Cta &peer = *cta.cluster->ctas[rank];
  requireRunning(cta, warp, inst, mask, peer);
  ensureTmem(peer);
  return peer;
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

void alloc(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  requireConverged(cta, warp, inst, mask);
  ensureTmem(cta);
  // cta_group::2: one warp of each CTA of the pair allocates; the MMAs
  // check that both hold the columns they use.
  if (ctaGroupOf(cta, warp, inst, mask) == 2)
    peerOf(cta, warp, inst, mask);
  uint32_t columns = uint32_t(warp.read(0, op(inst, 1)));
  if (columns < 32 || columns > kColumns || (columns & (columns - 1)))
    fail(cta, warp, inst, mask,
         "tcgen05.alloc of " + std::to_string(columns) +
             " columns: a power of two from 32 to 512");
  if (cta.allocPermitRelinquished)
    fail(cta, warp, inst, mask,
         "tcgen05.alloc after tcgen05.relinquish_alloc_permit");
  uint32_t first = kColumns;
  for (uint32_t c = 0; c + columns <= kColumns && first == kColumns;
       c += columns) {
    bool free = true;
    for (uint32_t i = c; i < c + columns; ++i)
      free &= cta.tmemOwner[i] == 0;
    if (free)
      first = c;
  }
  // On the GPU the allocation would block until columns are freed; with
  // one CTA per cluster slot here, nothing would free them.
  if (first == kColumns)
    fail(cta, warp, inst, mask,
         "tcgen05.alloc of " + std::to_string(columns) +
             " columns: not that many free (a leak, or more than 512 in use)");
  for (uint32_t i = first; i < first + columns; ++i)
    cta.tmemOwner[i] = uint16_t(columns);
  uint64_t destination = addressOf(warp, 0, op(inst, 0));
  uint32_t address = first; // lane 0
  uint8_t *to =
      resolve(cta, warp, inst, 0, Space::Shared, destination, 4, true);
  std::memcpy(to, &address, 4);
  // Written by the tensor core's proxy, not a generic store.
  cta.genericDirty[destination & kOffsetMask] = 0;
}

void dealloc(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  requireConverged(cta, warp, inst, mask);
  ensureTmem(cta);
  ctaGroupOf(cta, warp, inst, mask);
  uint32_t address = uint32_t(warp.read(0, op(inst, 0)));
  uint32_t columns = uint32_t(warp.read(0, op(inst, 1)));
  uint32_t first = address & 0xffff;
  if ((address >> 16) != 0 || first + columns > kColumns)
    fail(cta, warp, inst, mask, "tcgen05.dealloc of a bad address");
  bool lenient = cta.machine->options.tcgen05Lenient;
  for (uint32_t c = first; c < first + columns; ++c) {
    if (cta.tmemOwner[c] != columns)
      fail(cta, warp, inst, mask,
           "tcgen05.dealloc of columns not allocated as one range of " +
               std::to_string(columns));
    if (cta.tmemMmaPending[c] && !lenient)
      fail(cta, warp, inst, mask,
           "tcgen05.dealloc of columns an unfinished tcgen05.mma writes");
  }
  // Lenient: the columns stay readable (and written by the MMAs still in
  // flight) until the CTA exits.
  if (lenient) {
    cta.tmemDeferredDealloc.push_back({first, columns});
    return;
  }
  for (uint32_t c = first; c < first + columns; ++c)
    cta.tmemOwner[c] = 0;
}

//===----------------------------------------------------------------------===//
// MMA and commit
//===----------------------------------------------------------------------===//

/// Element (mn, k) of an operand in `source`'s shared memory (the issuing
/// CTA's, or under cta_group::2 either CTA of the pair).
float operandElement(Cta &cta, const Instruction &inst, Warp &warp, Cta &source,
                     const WgmmaDescriptor &descriptor, bool mnMajor, bool f8,
                     int format, int mn, int k) {
  uint32_t bytes = f8 ? 1 : 2;
  uint32_t address = wgmmaElementAddress(descriptor, mnMajor, bytes, mn, k);
  std::string where = " of CTA rank " + std::to_string(source.rank);
  if (uint64_t(address) + bytes > source.smem.size())
    fail(cta, warp, inst, warp.live,
         "tcgen05.mma operand past the shared memory" + where);
  for (uint32_t i = 0; i < bytes; ++i) {
    if (source.asyncWritesPending[address + i])
      fail(cta, warp, inst, warp.live,
           "tcgen05.mma reads shared memory" + where +
               " that a TMA load or cp.async has not yet written");
    if (source.genericDirty[address + i])
      fail(cta, warp, inst, warp.live,
           "tcgen05.mma reads shared memory" + where +
               " that generic stores wrote without a fence.proxy.async after "
               "them");
  }
  uint32_t bits = 0;
  std::memcpy(&bits, source.smem.data() + address, bytes);
  return mmaOperandValue(f8, format, bits);
}

struct Mma {
  uint32_t d;
  /// kind::f8f6f4 (8-bit operands, K = 32 a instruction) rather than
  /// kind::f16 (16-bit, K = 16).
  bool f8 = false;
  int k() const { return f8 ? 32 : 16; }
  bool aInTmem = false;
  uint32_t aTmem = 0; // lane << 16 | column, when A is in tensor memory
  uint64_t aBits, bBits;
  Tcgen05Instruction shape;
  bool accumulate;
  /// The CTAs whose tensor memory holds D (and A), even rank first: one,
  /// or the pair under cta_group::2.
  std::vector<Cta *> ctas;
};

/// B (N x 16): under cta_group::2 rows 0 to N/2 - 1 come from the even
/// CTA's shared memory and the rest from the odd CTA's, at the same
/// descriptor (PTX ISA, tcgen05.mma, "CTA pair").
std::vector<float> bTileOf(Cta &cta, Warp &warp, const Instruction &inst,
                           const Mma &mma, const WgmmaDescriptor &b) {
  const Tcgen05Instruction &s = mma.shape;
  int kInst = mma.k();
  std::vector<float> tile(size_t(s.n) * size_t(kInst));
  for (int n = 0; n < s.n; ++n) {
    PairRow at = mma.ctas.size() == 2 ? pairRow(uint32_t(n), uint32_t(s.n))
                                      : PairRow{0, uint32_t(n)};
    for (int k = 0; k < kInst; ++k)
      tile[size_t(n * kInst + k)] =
          operandElement(cta, inst, warp, *mma.ctas[at.cta], b, s.bMnMajor,
                         mma.f8, s.bFormat, int(at.local), k) *
          (s.negateB ? -1.0f : 1.0f);
  }
  return tile;
}

/// One CTA's 128 rows: A from its shared or tensor memory, D into its
/// tensor memory.
void computeRows(Cta &cta, Warp &warp, const Instruction &inst, const Mma &mma,
                 Cta &rows, const std::vector<float> &bTile) {
  const Tcgen05Instruction &s = mma.shape;
  int m128 = s.m / int(mma.ctas.size());
  WgmmaDescriptor a;
  if (!mma.aInTmem)
    decodeTcgen05Descriptor(mma.aBits, a);
  uint32_t lane0 = mma.d >> 16, column0 = mma.d & 0xffff;
  int kInst = mma.k();
  std::vector<float> aTile(size_t(m128) * size_t(kInst));
  // A in tensor memory (PTX ISA, tcgen05.mma, "Matrix A in tensor
  // memory"): row m in lane a.lane + m, two 16-bit (four 8-bit) elements
  // per 32-bit column, element k in column a.column + k / 2 (k / 4), the
  // low half (byte) first.
  for (int m = 0; m < m128; ++m)
    for (int k = 0; k < kInst; ++k) {
      float value;
      if (mma.aInTmem) {
        uint32_t lane, column, shift;
        if (mma.f8) {
          TmemByte at = tmemOperandA8(uint32_t(m), uint32_t(k));
          lane = at.lane, column = at.column, shift = 8 * at.byte;
        } else {
          TmemHalf at = tmemOperandA(uint32_t(m), uint32_t(k));
          lane = at.lane, column = at.column, shift = 16 * at.half;
        }
        uint32_t word = tmemAt(rows, (mma.aTmem >> 16) + lane,
                               (mma.aTmem & 0xffff) + column);
        value = mmaOperandValue(mma.f8, s.aFormat, word >> shift);
      } else {
        value = operandElement(cta, inst, warp, rows, a, s.aMnMajor, mma.f8,
                               s.aFormat, m, k);
      }
      aTile[size_t(m * kInst + k)] = value * (s.negateA ? -1.0f : 1.0f);
    }
  // D (f32) row m in lane lane0 + m, column n in column0 + n (PTX ISA,
  // "Data path layout": layout D for M = 128 under cta_group::1, layout A,
  // each CTA's 128 rows, for M = 256 under cta_group::2).
  for (int m = 0; m < m128; ++m)
    for (int n = 0; n < s.n; ++n) {
      double sum = 0;
      for (int k = 0; k < kInst; ++k)
        sum += double(aTile[size_t(m * kInst + k)]) *
               double(bTile[size_t(n * kInst + k)]);
      TmemCoord at = tmemAccumulator(uint32_t(m), uint32_t(n));
      uint32_t &slot = tmemAt(rows, lane0 + at.lane, column0 + at.column);
      float accumulator = mma.accumulate ? asFloat(slot) : 0.0f;
      slot = uint32_t(floatBits(float(double(accumulator) + sum)));
    }
  for (int n = 0; n < s.n; ++n)
    --rows.tmemMmaPending[column0 + uint32_t(n)];
  if (cta.machine->trace)
    std::fprintf(stderr,
                 "fa4-emu trace: tcgen05.mma line %d CTA rank %u D col %u N "
                 "%d acc %d A %s %08x: a00 %g b00 %g d00 %g\n",
                 inst.line, rows.rank, column0, s.n, int(mma.accumulate),
                 mma.aInTmem ? "tmem" : "smem", mma.aInTmem ? mma.aTmem : 0u,
                 aTile[0], bTile[0], asFloat(tmemAt(rows, lane0, column0)));
}

void compute(Cta &cta, Warp &warp, const Instruction &inst, const Mma &mma) {
  WgmmaDescriptor b;
  decodeTcgen05Descriptor(mma.bBits, b);
  std::vector<float> bTile = bTileOf(cta, warp, inst, mma, b);
  for (Cta *rows : mma.ctas)
    computeRows(cta, warp, inst, mma, *rows, bTile);
}

/// Checks one CTA's tensor memory for an MMA about to be issued and marks
/// the accumulator columns pending.
void claimColumns(Cta &cta, Warp &warp, const Instruction &inst, int lane,
                  const Mma &m, Cta &rows) {
  const Tcgen05Instruction &s = m.shape;
  uint32_t column0 = m.d & 0xffff;
  checkColumns(cta, warp, inst, rows, column0, uint32_t(s.n),
               "tcgen05.mma writes");
  if (m.aInTmem) {
    uint32_t aColumn = m.aTmem & 0xffff;
    checkColumns(cta, warp, inst, rows, aColumn, 8, "tcgen05.mma reads A at");
    for (uint32_t c = aColumn; c < aColumn + 8; ++c)
      if (rows.tmemStorePending[c])
        fail(cta, warp, inst, 1u << lane,
             "tcgen05.mma reads A from column " + std::to_string(c) +
                 rankSuffix(cta, rows) +
                 ", which a tcgen05.st wrote without tcgen05.wait::st");
  }
  for (uint32_t c = column0; c < column0 + uint32_t(s.n); ++c) {
    if (rows.tmemStorePending[c])
      fail(cta, warp, inst, 1u << lane,
           "tcgen05.mma accumulates into column " + std::to_string(c) +
               rankSuffix(cta, rows) +
               ", which a tcgen05.st wrote without tcgen05.wait::st");
    ++rows.tmemMmaPending[c];
  }
}

/// The operands of lane `lane`'s MMA, their shapes checked.
Mma readMma(Cta &cta, Warp &warp, const Instruction &inst, int lane,
            int group) {
  const Operand &aOperand = op(inst, 1);
  Mma m;
  m.aInTmem = aOperand.kind == Operand::Kind::Address;
  m.d = uint32_t(warp.read(
            lane, Operand{Operand::Kind::Register, false, op(inst, 0).reg})) +
        uint32_t(op(inst, 0).imm);
  if (m.aInTmem)
    m.aTmem = uint32_t(addressOf(warp, lane, aOperand));
  else
    m.aBits = warp.read(lane, aOperand);
  m.bBits = warp.read(lane, op(inst, 2));
  m.shape = decodeTcgen05Instruction(uint32_t(warp.read(lane, op(inst, 3))));
  m.accumulate = warp.read(lane, op(inst, 4)) & 1;
  WgmmaDescriptor check;
  if ((!m.aInTmem && !decodeTcgen05Descriptor(m.aBits, check)) ||
      !decodeTcgen05Descriptor(m.bBits, check))
    fail(cta, warp, inst, 1u << lane,
         "a shared-memory descriptor the emulator does not model "
         "(version, layout or leading byte offset mode)");
  const Tcgen05Instruction &s = m.shape;
  int modelledM = 128 * group;
  // Formats 0 and 1: f16 and bf16 under kind::f16, e4m3 and e5m2 under
  // kind::f8f6f4.
  if (s.m != modelledM || s.n < 16 || s.n > 256 || s.n % (16 * group) ||
      s.sparse || s.dFormat != 1 || s.aFormat > 1 || s.bFormat > 1 ||
      s.maxShift)
    fail(cta, warp, inst, 1u << lane,
         "an instruction descriptor the emulator does not model (M " +
             std::to_string(s.m) + ", N " + std::to_string(s.n) +
             " under cta_group::" + std::to_string(group) + ": M " +
             std::to_string(modelledM) +
             ", f32 accumulators and f16/bf16 or e4m3/e5m2 operands only)");
  if ((m.d >> 16) != 0)
    fail(cta, warp, inst, 1u << lane,
         "an M = " + std::to_string(s.m) + " accumulator at lane " +
             std::to_string(m.d >> 16));
  if (m.aInTmem && (m.aTmem >> 16) != 0)
    fail(cta, warp, inst, 1u << lane,
         "an M = " + std::to_string(s.m) +
             " A operand in tensor memory at lane " +
             std::to_string(m.aTmem >> 16));
  return m;
}

void mma(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  ensureTmem(cta);
  int group = ctaGroupOf(cta, warp, inst, mask);
  bool f8 = inst.has(Modifier::KindF8F6F4);
  if (!inst.has(Modifier::KindF16) && !f8)
    fail(cta, warp, inst, mask,
         "only tcgen05.mma.kind::f16 and kind::f8f6f4 are modelled");
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    Mma m = readMma(cta, warp, inst, lane, group);
    m.f8 = f8;
    if (group == 2) {
      Cta &peer = peerOf(cta, warp, inst, 1u << lane);
      m.ctas = cta.rank & 1 ? std::vector<Cta *>{&peer, &cta}
                            : std::vector<Cta *>{&cta, &peer};
    } else {
      m.ctas = {&cta};
    }
    for (Cta *rows : m.ctas)
      claimColumns(cta, warp, inst, lane, m, *rows);
    Cta *owner = &cta;
    Warp *issuer = &warp;
    const Instruction *where = &inst;
    warp.uncommittedMma.push_back(
        [owner, issuer, where, m]() { compute(*owner, *issuer, *where, m); });
  }
}

/// The mbarriers a commit arrives on: the addressed one, or under
/// .multicast::cluster the one at the same offset in each CTA of the mask;
/// their CTAs in `owners`.
std::vector<Mbarrier *> commitTargets(Cta &cta, Warp &warp,
                                      const Instruction &inst, int lane,
                                      std::vector<const Cta *> &owners) {
  uint64_t address = addressOf(warp, lane, op(inst, 0));
  if (inst.space == Space::Generic)
    address -= kGenericShared;
  uint32_t offset;
  Cta *owner;
  Mbarrier &barrier = mbarrierAt(cta, warp, inst, address, offset, owner);
  if (!inst.has(Modifier::MulticastCluster)) {
    owners = {owner};
    return {&barrier};
  }
  uint32_t ctaMask = uint32_t(warp.read(lane, op(inst, 1))) & 0xffff;
  std::vector<Mbarrier *> targets;
  for (uint32_t rank = 0; rank < 16; ++rank) {
    if (!(ctaMask >> rank & 1))
      continue;
    if (rank >= cta.cluster->ctas.size())
      fail(cta, warp, inst, 1u << lane,
           "tcgen05.commit multicast to CTA rank " + std::to_string(rank) +
               " of a cluster of " + std::to_string(cta.cluster->ctas.size()));
    Cta &target = *cta.cluster->ctas[rank];
    requireRunning(cta, warp, inst, 1u << lane, target);
    owners.push_back(&target);
    auto found = target.mbarriers.find(offset);
    if (found == target.mbarriers.end())
      fail(cta, warp, inst, 1u << lane,
           "tcgen05.commit multicast to CTA rank " + std::to_string(rank) +
               ", whose mbarrier at offset " + std::to_string(offset) +
               " is not initialized");
    targets.push_back(&found->second);
  }
  return targets;
}

void commit(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  if (!inst.has(Modifier::MbarrierArriveOne))
    fail(cta, warp, inst, mask, "unsupported tcgen05.commit form");
  ctaGroupOf(cta, warp, inst, mask);
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    std::vector<const Cta *> owners;
    std::vector<Mbarrier *> targets =
        commitTargets(cta, warp, inst, lane, owners);
    // Its arrivals on peers' mbarriers must land before those peers exit;
    // its own CTA's are not tracked: fa4's kernels (and CUTLASS's) leave
    // the last commit to a stage's empty barrier unwaited at exit.
    AsyncSource source{&warp, &inst, {}};
    for (const Cta *owner : owners)
      if (owner != &cta)
        source.shared.push_back(owner);
    std::vector<std::function<void()>> work = std::move(warp.uncommittedMma);
    warp.uncommittedMma.clear();
    Machine *machine = cta.machine;
    // A commit tracks every earlier tcgen05 operation of the thread, those
    // under earlier commits included (PTX ISA, tcgen05.commit): completing
    // it first completes the earlier ones, in order.
    std::vector<uint64_t> earlier = warp.mmaCommits;
    uint64_t id = machine->startAsync(
        cta, "tcgen05.commit",
        [work, targets, earlier, machine]() {
          for (uint64_t before : earlier)
            machine->finishAsync(before);
          for (const auto &mma : work)
            mma();
          for (Mbarrier *target : targets) {
            target->commitInPhase = true;
            arrive(*target, 1, 0);
          }
        },
        std::move(source));
    // Keep only the commits still in flight.
    std::vector<uint64_t> pending;
    for (uint64_t before : warp.mmaCommits)
      if (machine->asyncPending(before))
        pending.push_back(before);
    pending.push_back(id);
    warp.mmaCommits = std::move(pending);
  }
}

//===----------------------------------------------------------------------===//
// Loads and stores between registers and tensor memory
//===----------------------------------------------------------------------===//

/// The 32x32b shape's columns per thread (.xN) and the warp's lane base.
uint32_t columnsOf(Cta &cta, Warp &warp, const Instruction &inst) {
  if (!inst.has(Modifier::Shape32x32b))
    fail(cta, warp, inst, warp.live,
         "only the 32x32b tcgen05.ld/st shape is modelled");
  return uint32_t(inst.n); // .xN, decoded at load (Module.cpp)
}

uint32_t laneBase(Cta &cta, Warp &warp, const Instruction &inst,
                  uint32_t address) {
  uint32_t lane = address >> 16, quadrant = uint32_t(warp.index % 4);
  // PTX ISA, "Tensor Memory": warp w of a warpgroup accesses lanes
  // 32 (w % 4) to 32 (w % 4) + 31.
  if (lane != 32 * quadrant)
    fail(cta, warp, inst, warp.live,
         "warp " + std::to_string(warp.index) +
             " accesses tensor-memory "
             "lane " +
             std::to_string(lane) + "; its quadrant is lanes " +
             std::to_string(32 * quadrant) + "-" +
             std::to_string(32 * quadrant + 31));
  return lane;
}

/// The columns a tcgen05.ld/st moves: the warp's first lane and the first
/// column, checked like every access, and none an unfinished MMA writes.
struct TmemAccess {
  uint32_t lane0, column0, columns;
};

TmemAccess tmemAccess(Cta &cta, Warp &warp, const Instruction &inst,
                      uint32_t mask, const Operand &address,
                      const Operand &registers, bool isLoad) {
  requireConverged(cta, warp, inst, mask);
  ensureTmem(cta);
  TmemAccess access;
  access.columns = columnsOf(cta, warp, inst);
  uint32_t bits = uint32_t(addressOf(warp, 0, address));
  access.lane0 = laneBase(cta, warp, inst, bits);
  access.column0 = bits & 0xffff;
  if (registers.elements.size() != access.columns)
    fail(cta, warp, inst, mask, "register count differs from the shape");
  checkColumns(cta, warp, inst, cta, access.column0, access.columns,
               isLoad ? "tcgen05.ld reads" : "tcgen05.st writes");
  for (uint32_t c = access.column0; c < access.column0 + access.columns; ++c)
    if (cta.tmemMmaPending[c])
      fail(cta, warp, inst, mask,
           isLoad ? "tcgen05.ld of column " + std::to_string(c) +
                        ", which an unfinished tcgen05.mma writes (before its "
                        "commit's mbarrier completed)"
                  : "tcgen05.st to column " + std::to_string(c) +
                        ", which an unfinished tcgen05.mma writes");
  return access;
}

void traceAccess(Cta &cta, Warp &warp, const Instruction &inst,
                 const TmemAccess &access, const char *what) {
  if (!cta.machine->trace)
    return;
  std::fprintf(stderr,
               "fa4-emu trace: tcgen05.%s line %d warp %d lane %u col %u: "
               "%08x %08x\n",
               what, inst.line, warp.index, access.lane0, access.column0,
               tmemAt(cta, access.lane0, access.column0),
               tmemAt(cta, access.lane0, access.column0 + 1));
}

void load(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  const Operand &d = op(inst, 0);
  TmemAccess access = tmemAccess(cta, warp, inst, mask, op(inst, 1), d, true);
  for (int lane = 0; lane < 32; ++lane)
    for (uint32_t j = 0; j < access.columns; ++j) {
      TmemCoord at = tmem32x32b(uint32_t(lane), j);
      warp.write(
          lane, d.elements[j],
          tmemAt(cta, access.lane0 + at.lane, access.column0 + at.column));
    }
  traceAccess(cta, warp, inst, access, "ld");
  // Valid only after tcgen05.wait::ld, unless the launch treats the
  // registers as scoreboarded (LaunchOptions::tcgen05Lenient).
  if (cta.machine->options.tcgen05Lenient)
    return;
  for (const Operand &reg : d.elements) {
    warp.markPending(reg.reg);
    warp.tmemLoadRegisters.push_back(reg.reg);
  }
}

void store(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  const Operand &values = op(inst, 1);
  TmemAccess access =
      tmemAccess(cta, warp, inst, mask, op(inst, 0), values, false);
  for (int lane = 0; lane < 32; ++lane)
    for (uint32_t j = 0; j < access.columns; ++j) {
      TmemCoord at = tmem32x32b(uint32_t(lane), j);
      tmemAt(cta, access.lane0 + at.lane, access.column0 + at.column) =
          uint32_t(warp.read(lane, values.elements[j]));
    }
  traceAccess(cta, warp, inst, access, "st");
  for (uint32_t c = access.column0; c < access.column0 + access.columns; ++c)
    ++cta.tmemStorePending[c];
  warp.tmemStores.push_back({access.column0, access.columns});
}

void wait(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  requireConverged(cta, warp, inst, mask);
  if (inst.opcode == Opcode::Tcgen05WaitLd) {
    for (int32_t reg : warp.tmemLoadRegisters)
      warp.clearPending(reg);
    warp.tmemLoadRegisters.clear();
    return;
  }
  for (const auto &[first, count] : warp.tmemStores)
    for (uint32_t c = first; c < first + count; ++c)
      --cta.tmemStorePending[c];
  warp.tmemStores.clear();
}

} // namespace

void fa4::emu::handleTcgen05(Cta &cta, Warp &warp, const Instruction &inst,
                             uint32_t mask) {
  // PTX ISA, tcgen05 "Memory consistency model": tcgen05 work ordered after
  // a thread synchronization (here: a wait on an mbarrier phase that a
  // tcgen05.commit completed) needs tcgen05.fence::after_thread_sync
  // between them.
  Opcode opcode = inst.opcode;
  if (warp.tcgen05FenceWanted && !cta.machine->options.tcgen05Lenient &&
      (opcode == Opcode::Tcgen05Ld || opcode == Opcode::Tcgen05St ||
       opcode == Opcode::Tcgen05Mma))
    fail(cta, warp, inst, mask,
         std::string(opcode == Opcode::Tcgen05Ld   ? "tcgen05.ld"
                     : opcode == Opcode::Tcgen05St ? "tcgen05.st"
                                                   : "tcgen05.mma") +
             " after waiting (line " +
             std::to_string(warp.tcgen05FenceWanted->line) +
             ") on an mbarrier phase a tcgen05.commit completed, without "
             "tcgen05.fence::after_thread_sync between them");
  switch (opcode) {
  case Opcode::Tcgen05Alloc:
    return alloc(cta, warp, inst, mask);
  case Opcode::Tcgen05Dealloc:
    return dealloc(cta, warp, inst, mask);
  case Opcode::Tcgen05RelinquishAllocPermit:
    ctaGroupOf(cta, warp, inst, mask);
    cta.allocPermitRelinquished = true;
    return;
  case Opcode::Tcgen05Mma:
    return mma(cta, warp, inst, mask);
  case Opcode::Tcgen05Commit:
    return commit(cta, warp, inst, mask);
  case Opcode::Tcgen05Ld:
    return load(cta, warp, inst, mask);
  case Opcode::Tcgen05St:
    return store(cta, warp, inst, mask);
  case Opcode::Tcgen05WaitLd:
  case Opcode::Tcgen05WaitSt:
    return wait(cta, warp, inst, mask);
  case Opcode::Tcgen05FenceAfter:
    warp.tcgen05FenceWanted = nullptr;
    return;
  case Opcode::Tcgen05FenceBefore:
    return; // ordering the emulator does not reorder
  default:
    fail(cta, warp, inst, mask, "unsupported tcgen05 operation");
  }
}

void fa4::emu::checkTmemReleased(Cta &cta) {
  if (cta.tmemOwner.empty())
    return;
  for (const auto &[first, count] : cta.tmemDeferredDealloc)
    for (uint32_t c = first; c < first + count; ++c)
      cta.tmemOwner[c] = 0;
  uint32_t allocated = 0;
  for (uint16_t owner : cta.tmemOwner)
    allocated += owner != 0;
  if (allocated)
    throw ExecutionError(
        "fa4-emu: " + cta.machine->kernel.name + ": CTA (" +
        std::to_string(cta.ctaid[0]) + ", " + std::to_string(cta.ctaid[1]) +
        ", " + std::to_string(cta.ctaid[2]) + ") exited with " +
        std::to_string(allocated) +
        " tensor-memory columns allocated (no tcgen05.dealloc)");
}
