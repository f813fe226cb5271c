//===- Exec.cpp - Registers, address spaces, the generic instructions -----===//
//
// What every handler shares: device memory, register reads and writes,
// errors naming the instruction, the address spaces and their checks, the
// queue of asynchronous operations; then the handlers of the generic
// instructions (integer and float arithmetic, conversions, loads and
// stores, shuffles, votes, fences, barriers) and the handler table of
// Opcodes.def. The warps' SIMT stacks and the scheduler are Launch.cpp's,
// the asynchronous units Async.cpp's and Tcgen05.cpp's. PTX ISA chapter 9
// ("Instruction Set") for each instruction's semantics.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"
#include "Numerics.h"
#include "Sfu.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <sstream>

using namespace fa4::emu;

std::mutex &fa4::emu::statisticsMutex() {
  static std::mutex mutex;
  return mutex;
}

Statistics &fa4::emu::statisticsTotals() {
  static Statistics totals;
  return totals;
}

Statistics fa4::emu::statistics() {
  std::lock_guard<std::mutex> lock(statisticsMutex());
  return statisticsTotals();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

uint64_t Memory::allocate(size_t bytes) {
  // More than the device has fails, as on the device; the bound also
  // keeps the rounding below from wrapping past 2^64.
  if (bytes > kDeviceMemoryBytes)
    return 0;
  // 256-byte aligned, as cuMemAlloc's; at least one byte.
  size_t rounded = (std::max<size_t>(bytes, 1) + 255) / 256 * 256;
  void *pointer = std::aligned_alloc(256, rounded);
  if (!pointer)
    return 0;
  std::memset(pointer, 0, rounded);
  add(reinterpret_cast<uint64_t>(pointer), bytes);
  return reinterpret_cast<uint64_t>(pointer);
}

void Memory::add(uint64_t address, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  allocations[address] = bytes;
}

bool Memory::release(uint64_t address) {
  std::lock_guard<std::mutex> lock(mutex);
  return allocations.erase(address) == 1;
}

bool Memory::contains(uint64_t address, uint64_t bytes) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto after = allocations.upper_bound(address);
  if (after == allocations.begin())
    return false;
  --after;
  return address >= after->first && bytes <= after->second &&
         address - after->first <= after->second - bytes;
}

//===----------------------------------------------------------------------===//
// Registers and errors
//===----------------------------------------------------------------------===//

static std::string laneList(uint32_t mask) {
  std::ostringstream out;
  int shown = 0;
  for (int lane = 0; lane < 32 && shown < 4; ++lane)
    if (mask >> lane & 1)
      out << (shown++ ? "," : "") << lane;
  if (__builtin_popcount(mask) > 4)
    out << ",...";
  return out.str();
}

void fa4::emu::fail(const Cta &cta, const Warp &warp, const Instruction &inst,
                    uint32_t mask, const std::string &what) {
  std::ostringstream out;
  out << "fa4-emu: " << cta.machine->kernel.name << " line " << inst.line
      << " (" << inst.name << "): " << what << "; CTA (" << cta.ctaid[0] << ", "
      << cta.ctaid[1] << ", " << cta.ctaid[2] << ") warp " << warp.index
      << " lanes " << laneList(mask);
  throw ExecutionError(out.str());
}

uint32_t Warp::laneThread(int lane) const {
  return uint32_t(index * 32 + lane);
}

static uint64_t specialValue(const Cta &cta, const Warp &warp, int lane,
                             Special special) {
  const LaunchOptions &options = cta.machine->options;
  uint32_t thread = warp.laneThread(lane);
  const auto &block = options.block;
  const auto &clusterDims = options.cluster;
  switch (special) {
  case Special::TidX:
    return thread % block[0];
  case Special::TidY:
    return thread / block[0] % block[1];
  case Special::TidZ:
    return thread / (block[0] * block[1]);
  case Special::NtidX:
    return block[0];
  case Special::NtidY:
    return block[1];
  case Special::NtidZ:
    return block[2];
  case Special::CtaidX:
    return cta.ctaid[0];
  case Special::CtaidY:
    return cta.ctaid[1];
  case Special::CtaidZ:
    return cta.ctaid[2];
  case Special::NctaidX:
    return options.grid[0];
  case Special::NctaidY:
    return options.grid[1];
  case Special::NctaidZ:
    return options.grid[2];
  case Special::LaneId:
    return uint64_t(lane);
  case Special::WarpId:
    return uint64_t(warp.index);
  case Special::ClusterCtaRank:
    return cta.rank;
  case Special::ClusterNctaRank:
    return clusterDims[0] * clusterDims[1] * clusterDims[2];
  case Special::ClusterCtaidX:
    return cta.clusterCtaid[0];
  case Special::ClusterCtaidY:
    return cta.clusterCtaid[1];
  case Special::ClusterCtaidZ:
    return cta.clusterCtaid[2];
  case Special::ClusterNctaidX:
    return clusterDims[0];
  case Special::ClusterNctaidY:
    return clusterDims[1];
  case Special::ClusterNctaidZ:
    return clusterDims[2];
  case Special::ClusterIdX:
    return cta.cluster->clusterid[0];
  case Special::ClusterIdY:
    return cta.cluster->clusterid[1];
  case Special::ClusterIdZ:
    return cta.cluster->clusterid[2];
  case Special::NclusterIdX:
    return options.grid[0] / clusterDims[0];
  case Special::NclusterIdY:
    return options.grid[1] / clusterDims[1];
  case Special::NclusterIdZ:
    return options.grid[2] / clusterDims[2];
  case Special::DynamicSmemSize:
    return options.dynamicSmemBytes;
  case Special::TotalSmemSize:
    return cta.smem.size();
  case Special::SmId:
    return (cta.ctaid[0] + cta.ctaid[1] * options.grid[0]) % options.numSMs;
  case Special::NsmId:
    return options.numSMs;
  case Special::Clock:
  case Special::Clock64:
  case Special::GlobalTimer:
    return cta.machine->step;
  case Special::IsExplicitCluster:
    return clusterDims != std::array<uint32_t, 3>{1, 1, 1};
  }
  return 0;
}

uint64_t Warp::read(int lane, const Operand &operand) const {
  switch (operand.kind) {
  case Operand::Kind::Register: {
    if (pendingRegisters && pendingRegister[size_t(operand.reg)])
      throw PendingRegister{operand.reg};
    uint64_t value = regs[size_t(operand.reg) * 32 + size_t(lane)];
    return operand.negated ? !value : value;
  }
  case Operand::Kind::Immediate:
    return operand.sharedSymbol ? sharedAddress(*cta, operand.imm)
                                : operand.imm;
  case Operand::Kind::Special:
    return specialValue(*cta, *this, lane, operand.special);
  default:
    return 0;
  }
}

void Warp::write(int lane, const Operand &operand, uint64_t value) {
  if (operand.kind == Operand::Kind::Sink)
    return;
  if (operand.kind != Operand::Kind::Register)
    throw std::logic_error("fa4-emu: a destination that is not a register");
  if (pendingRegisters && pendingRegister[size_t(operand.reg)])
    throw PendingRegister{operand.reg};
  int bits = cta->machine->kernel.registerBits[size_t(operand.reg)];
  if (bits < 64)
    value &= (uint64_t(1) << bits) - 1;
  regs[size_t(operand.reg) * 32 + size_t(lane)] = value;
}

const Operand &fa4::emu::op(const Instruction &inst, size_t i) {
  static const Operand none;
  return i < inst.operands.size() ? inst.operands[i] : none;
}

uint64_t fa4::emu::addressOf(Warp &warp, int lane, const Operand &operand) {
  uint64_t base = 0;
  if (operand.reg >= 0)
    base =
        warp.read(lane, Operand{Operand::Kind::Register, false, operand.reg});
  return base + (operand.sharedSymbol ? sharedAddress(*warp.cta, operand.imm)
                                      : operand.imm);
}

void fa4::emu::requireConverged(Cta &cta, Warp &warp, const Instruction &inst,
                                uint32_t mask) {
  if (mask != warp.live)
    fail(cta, warp, inst, mask,
         "a .aligned instruction executed by lanes " + laneList(mask) +
             " while the warp's live lanes are " + laneList(warp.live) +
             " (divergent)");
}

//===----------------------------------------------------------------------===//
// Address spaces
//===----------------------------------------------------------------------===//

/// Why `target` may not be reached (it exited), or "".
static std::string exitedReason(const Cta &target) {
  if (!target.exited)
    return "";
  return "shared memory of CTA rank " + std::to_string(target.rank) +
         ", which has exited (a CTA's shared and tensor memory are released "
         "when it exits: a barrier.cluster before the exit keeps them for "
         "its peers)";
}

Cta &fa4::emu::sharedTarget(Cta &cta, uint64_t address, uint32_t &offset) {
  offset = uint32_t(address) & kOffsetMask;
  uint64_t rank = address >> kRankShift;
  if (rank == cta.rank)
    return cta;
  Cluster &cluster = *cta.cluster;
  if (rank >= cluster.ctas.size())
    throw ExecutionError("shared::cluster address 0x" +
                         [&] {
                           std::ostringstream out;
                           out << std::hex << address;
                           return out.str();
                         }() +
                         " names CTA rank " + std::to_string(rank) +
                         " of a cluster of " +
                         std::to_string(cluster.ctas.size()));
  Cta &target = *cluster.ctas[rank];
  if (target.exited)
    throw ExecutionError(exitedReason(target));
  return target;
}

Cta &fa4::emu::sharedTarget(Cta &cta, Warp &warp, const Instruction &inst,
                            uint32_t mask, uint64_t address, uint32_t &offset) {
  try {
    return sharedTarget(cta, address, offset);
  } catch (const ExecutionError &error) {
    fail(cta, warp, inst, mask, error.what());
  }
}

void fa4::emu::requireRunning(Cta &cta, Warp &warp, const Instruction &inst,
                              uint32_t mask, const Cta &target) {
  std::string reason = exitedReason(target);
  if (!reason.empty())
    fail(cta, warp, inst, mask, reason);
}

static std::string hex(uint64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

uint8_t *fa4::emu::resolve(Cta &cta, Warp &warp, const Instruction &inst,
                           int lane, Space space, uint64_t address,
                           uint32_t bytes, bool write) {
  uint32_t mask = 1u << lane;
  if (bytes > 1 && address % bytes != 0)
    fail(cta, warp, inst, mask,
         "misaligned " + std::to_string(bytes) + "-byte access at " +
             hex(address));
  if (space == Space::Generic) {
    if (address >= kGenericShared && address - kGenericShared < kWindowBytes) {
      space = Space::SharedCluster;
      address -= kGenericShared;
    } else if (address >= kGenericParam &&
               address - kGenericParam < kWindowBytes) {
      space = Space::Param;
      address -= kGenericParam;
    } else {
      space = Space::Global;
    }
  }
  switch (space) {
  case Space::Global:
  case Space::Const:
    if (!cta.machine->memory.contains(address, bytes))
      fail(cta, warp, inst, mask,
           std::string(write ? "write" : "read") + " of " +
               std::to_string(bytes) + " bytes at " + hex(address) +
               " outside every allocation");
    return reinterpret_cast<uint8_t *>(address);
  case Space::Param:
    if (write)
      fail(cta, warp, inst, mask, "write to the kernel's parameters");
    if (address > cta.machine->params.size() ||
        bytes > cta.machine->params.size() - address)
      fail(cta, warp, inst, mask,
           "parameter read at " + std::to_string(address) + " past the " +
               std::to_string(cta.machine->params.size()) + " bytes");
    return const_cast<uint8_t *>(cta.machine->params.data()) + address;
  case Space::Shared:
  case Space::SharedCluster: {
    if (space == Space::Shared && (address >> kRankShift) != cta.rank)
      fail(cta, warp, inst, mask,
           "shared::cta access with another CTA's address " + hex(address));
    if (address >= kWindowBytes)
      fail(cta, warp, inst, mask, "shared address " + hex(address));
    uint32_t offset;
    Cta *target = &sharedTarget(cta, warp, inst, mask, address, offset);
    if (uint64_t(offset) + bytes > target->smem.size())
      fail(cta, warp, inst, mask,
           "shared access of " + std::to_string(bytes) + " bytes at offset " +
               std::to_string(offset) + " past the CTA's " +
               std::to_string(target->smem.size()) + " bytes");
    for (uint32_t i = 0; i < bytes; ++i)
      if (target->asyncWritesPending[offset + i])
        fail(cta, warp, inst, mask,
             std::string(write ? "write to" : "read of") +
                 " shared memory at offset " + std::to_string(offset + i) +
                 " while a TMA load or cp.async into it is in flight (read "
                 "before its "
                 "mbarrier completed)");
    if (write && target == &cta) {
      for (uint32_t i = 0; i < bytes; ++i)
        cta.genericDirty[offset + i] = 1;
      warp.genericWrites.push_back({offset, bytes});
    }
    return target->smem.data() + offset;
  }
  case Space::Local:
  case Space::Generic:
    break;
  }
  fail(cta, warp, inst, mask, "unsupported state space");
}

//===----------------------------------------------------------------------===//
// Asynchronous operations
//===----------------------------------------------------------------------===//

uint64_t Machine::startAsync(Cta &owner, const char *what,
                             std::function<void()> complete,
                             AsyncSource source) {
  uint64_t id = nextAsyncId++;
  // A latency of 0 to 400 scheduler steps: long enough to overlap many
  // instructions of every warp, random so that no order is assumed.
  uint64_t latency = random() % 400;
  async.push_back({id, step + latency, &owner, what, std::move(complete),
                   std::move(source)});
  return id;
}

bool Machine::asyncPending(uint64_t id) const {
  for (const AsyncOp &op : async)
    if (op.id == id)
      return true;
  return false;
}

void Machine::finishAsync(uint64_t id) {
  for (size_t i = 0; i < async.size(); ++i)
    if (async[i].id == id) {
      AsyncOp op = std::move(async[i]);
      async.erase(async.begin() + long(i));
      op.complete();
      return;
    }
}

//===----------------------------------------------------------------------===//
// Generic instructions
//===----------------------------------------------------------------------===//

namespace {

#define FOR_LANES(mask)                                                        \
  for (int lane = 0; lane < 32; ++lane)                                        \
    if ((mask) >> lane & 1)

uint64_t truncate(uint64_t value, int bits) {
  return bits >= 64 ? value : value & ((uint64_t(1) << bits) - 1);
}
int64_t signExtend(uint64_t value, int bits) {
  if (bits >= 64)
    return int64_t(value);
  uint64_t sign = uint64_t(1) << (bits - 1);
  value = truncate(value, bits);
  return int64_t((value ^ sign) - sign);
}

/// A binary float operation on f32 (f32x2) or f64 operands of `type`,
/// flushing subnormals with `ftz`.
template <typename F>
uint64_t floatBinary(Type type, bool ftz, uint64_t a, uint64_t b, F f) {
  if (type == Type::F64)
    return doubleBits(f(asDouble(a), asDouble(b)));
  if (type == Type::F32x2) {
    // PTX ISA, add/sub/mul .f32x2 (sm_100a): element 0 in the low half.
    return floatBinary(Type::F32, ftz, a & 0xffffffffu, b & 0xffffffffu, f) |
           floatBinary(Type::F32, ftz, a >> 32, b >> 32, f) << 32;
  }
  float x = asFloat(a), y = asFloat(b);
  if (ftz) {
    x = flushSubnormal(x);
    y = flushSubnormal(y);
  }
  float result = float(f(x, y));
  return floatBits(ftz ? flushSubnormal(result) : result);
}

/// Whether `operand` (or an element of it) is a register a tcgen05.ld
/// fills and tcgen05.wait::ld has not yet made valid.
bool fromPendingTmemLoad(const Warp &warp, const Operand &operand) {
  if (operand.kind == Operand::Kind::Vector) {
    for (const Operand &element : operand.elements)
      if (fromPendingTmemLoad(warp, element))
        return true;
    return false;
  }
  return operand.kind == Operand::Kind::Register &&
         warp.pendingRegister[size_t(operand.reg)] &&
         std::find(warp.tmemLoadRegisters.begin(), warp.tmemLoadRegisters.end(),
                   operand.reg) != warp.tmemLoadRegisters.end();
}

/// A register move of a pending tcgen05.ld result (LLVM's NVPTX backend
/// packs the loaded vector into 64-bit registers right after the load):
/// followed, not reported; its destinations become valid at the same
/// tcgen05.wait::ld (docs/Emulator.md).
void movePendingTmemLoad(Warp &warp, const Instruction &inst, uint32_t mask) {
  const Operand &d = op(inst, 0), &a = op(inst, 1);
  auto raw = [&](int lane, const Operand &source) {
    return source.kind == Operand::Kind::Register
               ? warp.regs[size_t(source.reg) * 32 + size_t(lane)]
               : warp.read(lane, source);
  };
  std::vector<const Operand *> targets;
  if (d.kind == Operand::Kind::Vector)
    for (const Operand &element : d.elements)
      targets.push_back(&element);
  else
    targets.push_back(&d);
  for (const Operand *target : targets)
    if (target->kind == Operand::Kind::Register &&
        warp.pendingRegister[size_t(target->reg)])
      throw PendingRegister{target->reg};
  FOR_LANES(mask) {
    uint64_t value = 0;
    int part = typeBits(inst.type) /
               int(std::max<size_t>(1, a.kind == Operand::Kind::Vector
                                           ? a.elements.size()
                                           : targets.size()));
    if (a.kind == Operand::Kind::Vector)
      for (size_t i = 0; i < a.elements.size(); ++i)
        value |= truncate(raw(lane, a.elements[i]), part) << (part * i);
    else
      value = raw(lane, a);
    for (size_t i = 0; i < targets.size(); ++i) {
      uint64_t piece =
          targets.size() > 1 ? truncate(value >> (part * i), part) : value;
      int bits =
          warp.cta->machine->kernel.registerBits[size_t(targets[i]->reg)];
      warp.regs[size_t(targets[i]->reg) * 32 + size_t(lane)] =
          bits < 64 ? piece & ((uint64_t(1) << bits) - 1) : piece;
    }
  }
  for (const Operand *target : targets) {
    warp.markPending(target->reg);
    warp.tmemLoadRegisters.push_back(target->reg);
  }
}

void handleMov(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  const Operand &d = op(inst, 0), &a = op(inst, 1);
  if (warp.pendingRegisters && fromPendingTmemLoad(warp, a))
    return movePendingTmemLoad(warp, inst, mask);
  FOR_LANES(mask) {
    if (a.kind == Operand::Kind::Vector) { // pack {lo, hi}
      int part = typeBits(inst.type) / int(a.elements.size());
      uint64_t value = 0;
      for (size_t i = 0; i < a.elements.size(); ++i)
        value |= truncate(warp.read(lane, a.elements[i]), part) << (part * i);
      warp.write(lane, d, value);
    } else if (d.kind == Operand::Kind::Vector) { // unpack
      int part = typeBits(inst.type) / int(d.elements.size());
      uint64_t value = warp.read(lane, a);
      for (size_t i = 0; i < d.elements.size(); ++i)
        warp.write(lane, d.elements[i], truncate(value >> (part * i), part));
    } else {
      warp.write(lane, d, warp.read(lane, a));
    }
  }
}

void handleAdd(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  bool subtract = inst.opcode == Opcode::Sub;
  int bits = typeBits(inst.type);
  bool floating = isFloat(inst.type);
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1)), b = warp.read(lane, op(inst, 2));
    uint64_t result;
    if (floating)
      result =
          floatBinary(inst.type, inst.has(Modifier::Ftz), a, b,
                      [&](auto x, auto y) { return subtract ? x - y : x + y; });
    else
      result = truncate(subtract ? a - b : a + b, bits);
    warp.write(lane, op(inst, 0), result);
  }
}

__int128 wideValue(uint64_t value, Type type) {
  int bits = typeBits(type);
  return isSigned(type) ? __int128(signExtend(value, bits))
                        : __int128(truncate(value, bits));
}

/// mul / mad: .lo, .hi, .wide on integers; floats.
void handleMul(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  bool mad = inst.opcode == Opcode::Mad || inst.opcode == Opcode::Fma;
  int bits = typeBits(inst.type);
  bool wide = inst.has(Modifier::Wide), high = inst.has(Modifier::Hi);
  bool ftz = inst.has(Modifier::Ftz);
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1)), b = warp.read(lane, op(inst, 2));
    uint64_t c = mad ? warp.read(lane, op(inst, 3)) : 0;
    uint64_t result;
    if (inst.type == Type::F32x2) {
      auto lane32 = [&](uint64_t x, int half) {
        return asFloat(x >> (32 * half));
      };
      result = 0;
      for (int half = 0; half < 2; ++half) {
        float r =
            mad ? std::fma(lane32(a, half), lane32(b, half), lane32(c, half))
                : lane32(a, half) * lane32(b, half);
        result |= floatBits(r) << (32 * half);
      }
    } else if (inst.type == Type::F32) {
      // fma.rn.f32.bf16 / .f32.f16 (PTX ISA 8.6, sm_100+): 16-bit a and b,
      // f32 c and d. Their product is exact in f32, so fmaf rounds once.
      auto source = [&](uint64_t bits) {
        if (inst.sourceType == Type::BF16)
          return bf16ToFloat(uint16_t(bits));
        if (inst.sourceType == Type::F16)
          return halfToFloat(uint16_t(bits));
        return asFloat(bits);
      };
      float x = source(a), y = source(b), z = asFloat(c);
      if (ftz) {
        x = flushSubnormal(x);
        y = flushSubnormal(y);
        z = flushSubnormal(z);
      }
      float r = mad ? std::fma(x, y, z) : x * y;
      result = floatBits(ftz ? flushSubnormal(r) : r);
    } else if (inst.type == Type::F64) {
      double x = asDouble(a), y = asDouble(b);
      result = doubleBits(mad ? std::fma(x, y, asDouble(c)) : x * y);
    } else {
      __int128 product = wideValue(a, inst.type) * wideValue(b, inst.type);
      if (wide) {
        result = uint64_t(product + (mad ? __int128(int64_t(c)) : 0));
        result = truncate(result, 2 * bits);
      } else if (high) {
        result = truncate(uint64_t(product >> bits) + c, bits);
      } else {
        result = truncate(uint64_t(product) + c, bits);
      }
    }
    warp.write(lane, op(inst, 0), result);
  }
}

void handleDiv(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  bool remainder = inst.opcode == Opcode::Rem;
  int bits = typeBits(inst.type);
  bool floating = isFloat(inst.type);
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1)), b = warp.read(lane, op(inst, 2));
    uint64_t result;
    if (floating) {
      result = floatBinary(inst.type, inst.has(Modifier::Ftz), a, b,
                           [](auto x, auto y) { return x / y; });
    } else if (truncate(b, bits) == 0) {
      result = truncate(~uint64_t(0), bits); // unspecified in the ISA
    } else if (isSigned(inst.type)) {
      int64_t x = signExtend(a, bits), y = signExtend(b, bits);
      result = truncate(uint64_t(remainder ? x % y : x / y), bits);
    } else {
      uint64_t x = truncate(a, bits), y = truncate(b, bits);
      result = remainder ? x % y : x / y;
    }
    warp.write(lane, op(inst, 0), result);
  }
}

uint64_t floatMinMax(const Instruction &inst, uint64_t a, uint64_t b,
                     bool isMax) {
  float x = asFloat(a), y = asFloat(b);
  if (inst.has(Modifier::Ftz)) {
    x = flushSubnormal(x);
    y = flushSubnormal(y);
  }
  float result;
  if (std::isnan(x) || std::isnan(y))
    result = inst.has(Modifier::NaN) ? std::nanf("") : std::isnan(x) ? y : x;
  else if (x == y) // -0 < +0
    result = isMax ? (std::signbit(x) ? y : x) : (std::signbit(x) ? x : y);
  else
    result = isMax ? std::max(x, y) : std::min(x, y);
  if (inst.has(Modifier::Relu) && !(result >= 0.0f))
    result = 0.0f;
  return std::isnan(result) ? 0x7fffffff : floatBits(result);
}

void handleMinMax(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  bool isMax = inst.opcode == Opcode::Max;
  int bits = typeBits(inst.type);
  bool relu = inst.has(Modifier::Relu);
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1)), b = warp.read(lane, op(inst, 2));
    uint64_t result;
    if (inst.type == Type::F32) {
      result = floatMinMax(inst, a, b, isMax);
    } else if (isSigned(inst.type)) {
      int64_t x = signExtend(a, bits), y = signExtend(b, bits);
      int64_t r = isMax ? std::max(x, y) : std::min(x, y);
      if (relu && r < 0)
        r = 0;
      result = truncate(uint64_t(r), bits);
    } else {
      uint64_t x = truncate(a, bits), y = truncate(b, bits);
      result = isMax ? std::max(x, y) : std::min(x, y);
    }
    warp.write(lane, op(inst, 0), result);
  }
}

/// not, neg, abs, popc, clz, brev of `bits`-bit integers (or float sign
/// bits); ex2, lg2, rcp, sqrt, rsqrt, sin, cos, tanh on f32.
uint64_t unaryValue(Opcode opcode, Type type, int bits, bool ftz, bool approx,
                    uint64_t a) {
  switch (opcode) {
  case Opcode::Not:
    return type == Type::Pred ? !a : truncate(~a, bits);
  case Opcode::Neg:
    return isFloat(type) ? a ^ (uint64_t(1) << (bits - 1))
                         : truncate(0 - a, bits);
  case Opcode::Abs:
    return isFloat(type)
               ? a & ~(uint64_t(1) << (bits - 1))
               : truncate(uint64_t(std::llabs(signExtend(a, bits))), bits);
  case Opcode::Popc:
    return uint64_t(__builtin_popcountll(truncate(a, bits)));
  case Opcode::Clz: {
    uint64_t value = truncate(a, bits);
    return value ? uint64_t(__builtin_clzll(value) - (64 - bits))
                 : uint64_t(bits);
  }
  case Opcode::Brev: {
    uint64_t value = truncate(a, bits), reversed = 0;
    for (int i = 0; i < bits; ++i)
      reversed |= (value >> i & 1) << (bits - 1 - i);
    return reversed;
  }
  default:
    break;
  }
  float x = asFloat(a);
  // The H100's own ex2.approx, lg2.approx and rcp.approx, where their
  // tables are loaded (FA4_EMU_SFU, Sfu.h).
  if (const SfuTables *tables = sfuTables()) {
    if (opcode == Opcode::Ex2)
      return floatBits(ftz ? ex2ApproxFtz(*tables, x) : ex2Approx(*tables, x));
    if (opcode == Opcode::Lg2)
      return floatBits(ftz ? lg2ApproxFtz(*tables, x) : lg2Approx(*tables, x));
    if (opcode == Opcode::Rcp && approx)
      return floatBits(ftz ? rcpApproxFtz(*tables, x) : rcpApprox(*tables, x));
  }
  // tanh.approx.f32 (the only tanh): the H100's, from a model of the unit.
  if (opcode == Opcode::Tanh)
    return floatBits(tanhApprox(x));
  if (ftz)
    x = flushSubnormal(x);
  float r = opcode == Opcode::Ex2     ? std::exp2(x)
            : opcode == Opcode::Lg2   ? std::log2(x)
            : opcode == Opcode::Rcp   ? 1.0f / x
            : opcode == Opcode::Sqrt  ? std::sqrt(x)
            : opcode == Opcode::Rsqrt ? 1.0f / std::sqrt(x)
            : opcode == Opcode::Sin   ? std::sin(x)
                                      : std::cos(x);
  return floatBits(ftz ? flushSubnormal(r) : r);
}

void handleUnary(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  if (inst.opcode == Opcode::Tanh && inst.type != Type::F32)
    fail(cta, warp, inst, mask, "tanh is modelled for .f32 only");
  int bits = typeBits(inst.type);
  bool ftz = inst.has(Modifier::Ftz);
  bool approx = inst.has(Modifier::Approx);
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1));
    warp.write(lane, op(inst, 0),
               unaryValue(inst.opcode, inst.type, bits, ftz, approx, a));
  }
}

void handleBitwise(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  Opcode opcode = inst.opcode;
  int bits = inst.type == Type::Pred ? 1 : typeBits(inst.type);
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1)), b = warp.read(lane, op(inst, 2));
    uint64_t result = opcode == Opcode::And  ? a & b
                      : opcode == Opcode::Or ? a | b
                                             : a ^ b;
    warp.write(lane, op(inst, 0), truncate(result, bits));
  }
}

void handleShift(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  bool left = inst.opcode == Opcode::Shl;
  int bits = typeBits(inst.type);
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1));
    uint32_t amount = uint32_t(warp.read(lane, op(inst, 2)));
    uint64_t result;
    if (left)
      result = amount >= uint32_t(bits) ? 0 : truncate(a << amount, bits);
    else if (isSigned(inst.type))
      result = truncate(
          uint64_t(signExtend(a, bits) >> std::min<uint32_t>(amount, 63)),
          bits);
    else
      result = amount >= uint32_t(bits) ? 0 : truncate(a, bits) >> amount;
    warp.write(lane, op(inst, 0), result);
  }
}

/// PTX ISA shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the 64 bits b:a (b the
/// high word) shifted by c, modulo 32 (wrap) or at most 32 (clamp); shf.l
/// keeps the high word, shf.r the low one.
void handleFunnelShift(Cta &, Warp &warp, const Instruction &inst,
                       uint32_t mask) {
  bool left = inst.mode & 1, wrap = inst.mode & 2; // Module.cpp
  FOR_LANES(mask) {
    uint64_t low = truncate(warp.read(lane, op(inst, 1)), 32);
    uint64_t high = truncate(warp.read(lane, op(inst, 2)), 32);
    uint32_t amount = uint32_t(warp.read(lane, op(inst, 3)));
    amount = wrap ? amount & 31 : std::min<uint32_t>(amount, 32);
    uint64_t both = high << 32 | low;
    uint64_t result = left ? (both << amount) >> 32 : both >> amount;
    warp.write(lane, op(inst, 0), truncate(result, 32));
  }
}

void handleBfe(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  int bits = typeBits(inst.type);
  FOR_LANES(mask) {
    uint64_t a = truncate(warp.read(lane, op(inst, 1)), bits);
    uint32_t position = uint32_t(warp.read(lane, op(inst, 2))) & 0xff;
    uint32_t length = uint32_t(warp.read(lane, op(inst, 3))) & 0xff;
    uint64_t result = 0;
    // PTX ISA bfe: bits past the msb read as the sign (signed) or zero.
    for (uint32_t i = 0; i < length && i < uint32_t(bits); ++i) {
      uint32_t from = position + i;
      uint64_t bit = from < uint32_t(bits)
                         ? (a >> from) & 1
                         : (isSigned(inst.type) ? (a >> (bits - 1)) & 1 : 0);
      result |= bit << i;
    }
    if (isSigned(inst.type) && length > 0 && length < uint32_t(bits))
      result = truncate(uint64_t(signExtend(result, int(length))), bits);
    warp.write(lane, op(inst, 0), result);
  }
}

void handleSelp(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  FOR_LANES(mask) {
    bool condition = warp.read(lane, op(inst, 3)) & 1;
    warp.write(lane, op(inst, 0), warp.read(lane, op(inst, condition ? 1 : 2)));
  }
}

/// setp's comparison of `a` and `b` of `type` (the comparison decoded
/// for the type: Module.cpp).
bool compare(Compare how, Type type, uint64_t a, uint64_t b) {
  int bits = typeBits(type);
  if (isFloat(type)) {
    double x = type == Type::F64 ? asDouble(a) : asFloat(a);
    double y = type == Type::F64 ? asDouble(b) : asFloat(b);
    bool unordered = std::isnan(x) || std::isnan(y);
    if (how == Compare::Num)
      return !unordered;
    if (how == Compare::Nan)
      return unordered;
    if (unordered)
      return how >= Compare::Equ; // equ, neu, ltu, leu, gtu, geu
    switch (how) {
    case Compare::Eq:
    case Compare::Equ:
      return x == y;
    case Compare::Ne:
    case Compare::Neu:
      return x != y;
    case Compare::Lt:
    case Compare::Ltu:
      return x < y;
    case Compare::Le:
    case Compare::Leu:
      return x <= y;
    case Compare::Gt:
    case Compare::Gtu:
      return x > y;
    default:
      return x >= y;
    }
  }
  if (how == Compare::Eq)
    return truncate(a, bits) == truncate(b, bits);
  if (how == Compare::Ne)
    return truncate(a, bits) != truncate(b, bits);
  bool unsignedCompare =
      (how >= Compare::Lo && how <= Compare::Hs) || !isSigned(type);
  __int128 x = unsignedCompare ? __int128(truncate(a, bits))
                               : __int128(signExtend(a, bits));
  __int128 y = unsignedCompare ? __int128(truncate(b, bits))
                               : __int128(signExtend(b, bits));
  if (how == Compare::Lt || how == Compare::Lo)
    return x < y;
  if (how == Compare::Le || how == Compare::Ls)
    return x <= y;
  if (how == Compare::Gt || how == Compare::Hi)
    return x > y;
  return x >= y;
}

void handleSetp(Cta &, Warp &warp, const Instruction &inst, uint32_t mask) {
  Compare how = Compare(inst.mode);
  // .and, .or, .xor with a predicate c (the last named, if several).
  Modifier combine = inst.has(Modifier::Xor)  ? Modifier::Xor
                     : inst.has(Modifier::Or) ? Modifier::Or
                                              : Modifier::And;
  bool combined = inst.has(combine);
  const Operand &d = op(inst, 0);
  FOR_LANES(mask) {
    bool p = compare(how, inst.type, warp.read(lane, op(inst, 1)),
                     warp.read(lane, op(inst, 2)));
    bool q = !p;
    if (combined) {
      bool c = warp.read(lane, op(inst, 3)) & 1;
      auto apply = [&](bool x) {
        return combine == Modifier::And  ? x && c
               : combine == Modifier::Or ? x || c
                                         : x != c;
      };
      p = apply(p);
      q = apply(q);
    }
    if (d.kind == Operand::Kind::Vector) {
      warp.write(lane, d.elements[0], p);
      warp.write(lane, d.elements[1], q);
    } else {
      warp.write(lane, d, p);
    }
  }
}

Rounding roundingOf(const Instruction &inst) {
  if (inst.has(Modifier::Rz) || inst.has(Modifier::Rzi))
    return Rounding::Zero;
  if (inst.has(Modifier::Rm) || inst.has(Modifier::Rmi))
    return Rounding::Down;
  if (inst.has(Modifier::Rp) || inst.has(Modifier::Rpi))
    return Rounding::Up;
  return Rounding::Nearest;
}

double roundToIntegral(double value, Rounding rounding) {
  switch (rounding) {
  case Rounding::Nearest:
    return std::nearbyint(value);
  case Rounding::Zero:
    return std::trunc(value);
  case Rounding::Down:
    return std::floor(value);
  case Rounding::Up:
    return std::ceil(value);
  }
  return value;
}

/// A value of float type `type` as a double.
double floatValue(uint64_t bits, Type type) {
  switch (type) {
  case Type::F16:
    return halfToFloat(uint16_t(bits));
  case Type::BF16:
    return bf16ToFloat(uint16_t(bits));
  case Type::E4M3:
    return e4m3ToFloat(uint8_t(bits));
  case Type::E5M2:
    return e5m2ToFloat(uint8_t(bits));
  case Type::F32:
    return asFloat(bits);
  default:
    return asDouble(bits);
  }
}

uint64_t toFloatType(double value, Type type, Rounding rounding) {
  switch (type) {
  case Type::F16:
    return floatToHalf(float(value));
  case Type::BF16:
    return floatToBf16(float(value), rounding);
  case Type::F32:
    return floatBits(float(value));
  default:
    return doubleBits(value);
  }
}

/// The element of an FP8 pair type.
Type f8Element(Type pair) {
  return pair == Type::E4M3x2 ? Type::E4M3 : Type::E5M2;
}

/// An FP8 element of `value` (cvt.rn.satfinite, .relu as `inst` says).
uint64_t toF8(const Instruction &inst, Type element, double value) {
  if (inst.has(Modifier::Relu) && !(value >= 0) && !std::isnan(value))
    value = 0;
  return element == Type::E4M3 ? floatToE4m3(float(value))
                               : floatToE5m2(float(value));
}

/// cvt to or from an FP8 pair (PTX ISA, cvt: .e4m3x2/.e5m2x2): from two
/// f32 (d = {cvt(a) in the upper byte, cvt(b) in the lower}) or an f16x2
/// (its halves in order), or to an f16x2 from a pair.
uint64_t convertF8Pair(const Instruction &inst, Warp &warp, int lane) {
  auto half = [&](uint64_t bits, int which) {
    return halfToFloat(uint16_t(bits >> (16 * which)));
  };
  if (inst.type == Type::F16x2) {
    Type element = f8Element(inst.sourceType);
    uint64_t a = warp.read(lane, op(inst, 1));
    uint64_t hi = floatToHalf(float(floatValue(a >> 8 & 0xff, element)));
    uint64_t lo = floatToHalf(float(floatValue(a & 0xff, element)));
    return hi << 16 | lo;
  }
  Type element = f8Element(inst.type);
  if (inst.sourceType == Type::F16x2) {
    uint64_t a = warp.read(lane, op(inst, 1));
    return toF8(inst, element, half(a, 1)) << 8 |
           toF8(inst, element, half(a, 0));
  }
  double a = asFloat(warp.read(lane, op(inst, 1)));
  double b = asFloat(warp.read(lane, op(inst, 2)));
  return toF8(inst, element, a) << 8 | toF8(inst, element, b);
}

bool isF8Pair(Type type) {
  return type == Type::E4M3x2 || type == Type::E5M2x2;
}

/// cvt of `a` from inst.sourceType to `to` (inst.type, or an element of a
/// packed inst.type), with inst's rounding and modifiers.
uint64_t convert(const Instruction &inst, Type to, uint64_t a) {
  Type from = inst.sourceType;
  Rounding rounding = roundingOf(inst);
  int toBits = typeBits(to), fromBits = typeBits(from);
  if (!isFloat(to) && !isFloat(from)) {
    int64_t value = isSigned(from) ? signExtend(a, fromBits)
                                   : int64_t(truncate(a, fromBits));
    return truncate(uint64_t(value), toBits);
  }
  if (isFloat(from) && !isFloat(to)) {
    double value = roundToIntegral(floatValue(a, from), rounding);
    if (std::isnan(value))
      return 0;
    double low = isSigned(to) ? -std::ldexp(1.0, toBits - 1) : 0;
    double high = isSigned(to) ? std::ldexp(1.0, toBits - 1) - 1
                               : std::ldexp(1.0, toBits) - 1;
    value = std::min(std::max(value, low), high);
    return truncate(isSigned(to) ? uint64_t(int64_t(value)) : uint64_t(value),
                    toBits);
  }
  double value = isFloat(from)    ? floatValue(a, from)
                 : isSigned(from) ? double(signExtend(a, fromBits))
                                  : double(truncate(a, fromBits));
  if (isFloat(from) && (inst.has(Modifier::Rni) || inst.has(Modifier::Rzi) ||
                        inst.has(Modifier::Rmi) || inst.has(Modifier::Rpi)))
    value = roundToIntegral(value, rounding);
  if (inst.has(Modifier::Ftz) && to == Type::F32)
    value = flushSubnormal(float(value));
  if (inst.has(Modifier::Sat))
    value = std::isnan(value) ? 0.0 : std::min(1.0, std::max(0.0, value));
  if (inst.has(Modifier::Relu) && !(value >= 0))
    value = 0;
  return toFloatType(value, to, rounding);
}

void handleCvt(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  if (isF8Pair(inst.type) || isF8Pair(inst.sourceType)) {
    bool nearest = roundingOf(inst) == Rounding::Nearest;
    bool valid = isF8Pair(inst.type)
                     ? (inst.sourceType == Type::F32 ||
                        inst.sourceType == Type::F16x2) &&
                           nearest && inst.has(Modifier::Satfinite)
                     : inst.type == Type::F16x2 && nearest;
    if (!valid)
      fail(cta, warp, inst, mask,
           "an FP8 cvt the emulator does not model (rn.satfinite: "
           "e4m3x2/e5m2x2 from f32 or f16x2; rn: f16x2 from "
           "e4m3x2/e5m2x2)");
    FOR_LANES(mask) {
      warp.write(lane, op(inst, 0), convertF8Pair(inst, warp, lane));
    }
    return;
  }
  bool packed = inst.type == Type::BF16x2 || inst.type == Type::F16x2;
  Type half = inst.type == Type::BF16x2 ? Type::BF16 : Type::F16;
  FOR_LANES(mask) {
    uint64_t result;
    if (packed) {
      // d = {cvt(a) in the upper half, cvt(b) in the lower}.
      uint64_t hi = convert(inst, half, warp.read(lane, op(inst, 1)));
      uint64_t lo = convert(inst, half, warp.read(lane, op(inst, 2)));
      result = hi << 16 | lo;
    } else {
      result = convert(inst, inst.type, warp.read(lane, op(inst, 1)));
    }
    warp.write(lane, op(inst, 0), result);
  }
}

void handleCvta(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  bool toSpace = inst.has(Modifier::To);
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1));
    uint64_t result = a;
    Space space = inst.space;
    if (!toSpace) {
      if (space == Space::Shared || space == Space::SharedCluster)
        result = kGenericShared + a;
      else if (space == Space::Param)
        result = kGenericParam + a;
    } else if (space == Space::Shared || space == Space::SharedCluster) {
      if (a < kGenericShared || a - kGenericShared >= kWindowBytes)
        fail(cta, warp, inst, 1u << lane,
             "cvta.to.shared of " + hex(a) + ", not a shared address");
      result = a - kGenericShared;
    } else if (space == Space::Param) {
      result = a - kGenericParam;
    }
    warp.write(lane, op(inst, 0), result);
  }
}

void handleMapa(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  FOR_LANES(mask) {
    uint64_t a = warp.read(lane, op(inst, 1));
    uint32_t rank = uint32_t(warp.read(lane, op(inst, 2)));
    if (rank >= cta.cluster->ctas.size())
      fail(cta, warp, inst, 1u << lane,
           "mapa to CTA rank " + std::to_string(rank) + " of a cluster of " +
               std::to_string(cta.cluster->ctas.size()));
    bool generic = inst.space == Space::Generic;
    uint64_t shared = generic ? a - kGenericShared : a;
    uint64_t mapped = sharedAddress(rank, shared & kOffsetMask);
    warp.write(lane, op(inst, 0), generic ? kGenericShared + mapped : mapped);
  }
}

uint64_t loadValue(const uint8_t *bytes, int size, Type type) {
  uint64_t value = 0;
  std::memcpy(&value, bytes, size_t(size));
  if (isSigned(type))
    value = uint64_t(signExtend(value, size * 8));
  return value;
}

void handleLoad(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  const Operand &d = op(inst, 0), &address = op(inst, 1);
  int size = std::max(1, typeBits(inst.type) / 8);
  FOR_LANES(mask) {
    uint64_t base = addressOf(warp, lane, address);
    uint8_t *bytes = resolve(cta, warp, inst, lane, inst.space, base,
                             uint32_t(size * inst.vector), false);
    if (d.kind == Operand::Kind::Vector)
      for (size_t i = 0; i < d.elements.size(); ++i)
        warp.write(lane, d.elements[i],
                   loadValue(bytes + i * size_t(size), size, inst.type));
    else
      warp.write(lane, d, loadValue(bytes, size, inst.type));
  }
}

void handleStore(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  const Operand &address = op(inst, 0), &value = op(inst, 1);
  int size = std::max(1, typeBits(inst.type) / 8);
  FOR_LANES(mask) {
    uint64_t base = addressOf(warp, lane, address);
    uint8_t *bytes = resolve(cta, warp, inst, lane, inst.space, base,
                             uint32_t(size * inst.vector), true);
    if (value.kind == Operand::Kind::Vector)
      for (size_t i = 0; i < value.elements.size(); ++i) {
        uint64_t v = warp.read(lane, value.elements[i]);
        std::memcpy(bytes + i * size_t(size), &v, size_t(size));
      }
    else {
      uint64_t v = warp.read(lane, value);
      std::memcpy(bytes, &v, size_t(size));
    }
  }
}

void handleShfl(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  ShuffleMode mode = ShuffleMode(inst.mode);
  uint32_t members = uint32_t(warp.read(0, op(inst, 4)));
  if ((mask & members) != mask)
    fail(cta, warp, inst, mask, "executing lanes missing from membermask");
  uint64_t values[32];
  FOR_LANES(mask) values[lane] = warp.read(lane, op(inst, 1));
  const Operand &d = op(inst, 0);
  FOR_LANES(mask) {
    uint32_t b = uint32_t(warp.read(lane, op(inst, 2))) & 31;
    uint32_t c = uint32_t(warp.read(lane, op(inst, 3)));
    uint32_t clamp = c & 31, segmask = (c >> 8) & 31;
    uint32_t maxLane = (uint32_t(lane) & segmask) | (clamp & ~segmask);
    uint32_t minLane = uint32_t(lane) & segmask;
    int j;
    bool valid;
    // PTX ISA, shfl.sync: the source lane and whether it is in range.
    if (mode == ShuffleMode::Up) {
      j = lane - int(b);
      valid = j >= int(maxLane);
    } else if (mode == ShuffleMode::Down) {
      j = lane + int(b);
      valid = j <= int(maxLane);
    } else if (mode == ShuffleMode::Bfly) {
      j = lane ^ int(b);
      valid = j <= int(maxLane);
    } else {
      j = int(minLane | (b & ~segmask));
      valid = j <= int(maxLane);
    }
    if (!valid)
      j = lane;
    if (!(mask >> j & 1))
      fail(cta, warp, inst, 1u << lane,
           "reads lane " + std::to_string(j) + ", which does not execute it");
    if (d.kind == Operand::Kind::Vector) {
      warp.write(lane, d.elements[0], values[j]);
      warp.write(lane, d.elements[1], valid);
    } else {
      warp.write(lane, d, values[j]);
    }
  }
}

void handleVote(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  VoteMode mode = VoteMode(inst.mode);
  uint32_t members = uint32_t(warp.read(0, op(inst, 2)));
  if ((mask & members) != mask)
    fail(cta, warp, inst, mask, "executing lanes missing from membermask");
  uint32_t ballot = 0;
  FOR_LANES(mask) ballot |= uint32_t(warp.read(lane, op(inst, 1)) & 1) << lane;
  FOR_LANES(mask) {
    uint64_t result = mode == VoteMode::Any   ? ballot != 0
                      : mode == VoteMode::All ? ballot == mask
                      : mode == VoteMode::Uni ? (ballot == 0 || ballot == mask)
                                              : ballot;
    warp.write(lane, op(inst, 0), result);
  }
}

void handleElect(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  uint32_t members = uint32_t(warp.read(0, op(inst, 1)));
  if ((mask & members) != mask)
    fail(cta, warp, inst, mask, "executing lanes missing from membermask");
  int leader = __builtin_ctz(mask);
  const Operand &d = op(inst, 0);
  FOR_LANES(mask) {
    if (d.kind == Operand::Kind::Vector) {
      warp.write(lane, d.elements[0], uint64_t(leader));
      warp.write(lane, d.elements[1], lane == leader);
    } else {
      warp.write(lane, d, lane == leader);
    }
  }
}

void handleExit(Cta &, Warp &warp, const Instruction &, uint32_t mask) {
  warp.live &= ~mask;
}

void handleNop(Cta &, Warp &, const Instruction &, uint32_t) {}

/// prefetch (PTX ISA, "Data Movement and Conversion Instructions: prefetch,
/// prefetchu"): brings a cache line (with .tensormap, a tensor map in
/// .const or .param space) closer for later use; it changes no state, and
/// there is no cache here. The address is not checked: the hardware does
/// not fault on it either.
void handlePrefetch(Cta &, Warp &, const Instruction &, uint32_t) {}

/// fence.proxy.async: the warp's generic writes to shared memory become
/// visible to the async proxy (TMA, wgmma); fence.proxy.tensormap's acquire
/// lets TMA use a tensor map the kernel built; other fences order nothing
/// the emulator reorders.
void handleFence(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  if (inst.has(Modifier::Proxy) && inst.has(Modifier::TensormapGeneric)) {
    if (!inst.has(Modifier::Acquire))
      fail(cta, warp, inst, mask,
           "only the acquire form of fence.proxy.tensormap is modelled");
    return acquireTensorMaps(cta, warp, inst, mask);
  }
  if (!inst.has(Modifier::Proxy) || !inst.has(Modifier::Async))
    return;
  for (const auto &[offset, bytes] : warp.genericWrites)
    std::memset(cta.genericDirty.data() + offset, 0, bytes);
  warp.genericWrites.clear();
}

void handleTrap(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  fail(cta, warp, inst, mask, "trap");
}

void handleSetmaxnreg(Cta &cta, Warp &warp, const Instruction &inst,
                      uint32_t mask) {
  requireConverged(cta, warp, inst, mask);
  uint32_t count = uint32_t(warp.read(0, op(inst, 0)));
  // PTX ISA, setmaxnreg: 24 to 256, a multiple of 8.
  if (count < 24 || count > 256 || count % 8)
    fail(cta, warp, inst, mask,
         "register count " + std::to_string(count) +
             " outside 24..256 or not a multiple of 8");
}

/// bar.warp.sync membermask (PTX ISA, bar.warp.sync): the lanes of the
/// mask meet; lanes in lockstep already have, but lanes of the mask on
/// another path would wait for each other, which the SIMT stack does not
/// model.
void handleBarWarp(Cta &cta, Warp &warp, const Instruction &inst,
                   uint32_t mask) {
  uint32_t members = uint32_t(warp.read(0, op(inst, 0)));
  uint32_t absent = members & warp.live & ~mask;
  if (absent)
    fail(cta, warp, inst, absent,
         "bar.warp.sync: lanes of its membermask are on another path");
}

/// barrier.cluster.arrive / .wait: counted in warps, a phase completes
/// once every live warp of the cluster arrived (Launch.cpp).
void handleClusterBarrier(Cta &cta, Warp &warp, const Instruction &inst,
                          uint32_t mask) {
  bool wait = inst.has(Modifier::Wait);
  requireConverged(cta, warp, inst, mask);
  Cluster &cluster = *cta.cluster;
  if (!wait) {
    ++warp.clusterArrivals;
    ++cluster.barrierArrived;
    return;
  }
  if (warp.clusterArrivals <= warp.clusterWaits)
    fail(cta, warp, inst, mask,
         "barrier.cluster.wait without a barrier.cluster.arrive");
  ++warp.clusterWaits;
  if (cluster.barrierPhases < warp.clusterWaits)
    warp.state = Warp::State::ClusterBarrier;
}

/// bar.sync / bar.arrive / barrier.sync: a named barrier of the CTA,
/// counted in threads, a warp at a time (PTX ISA, bar).
void handleBar(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  bool arriveOnly = inst.has(Modifier::Arrive);
  uint32_t id = uint32_t(warp.read(0, op(inst, 0)));
  if (id >= 16)
    fail(cta, warp, inst, mask, "barrier " + std::to_string(id) + " of 16");
  uint32_t expected = inst.operands.size() > 1
                          ? uint32_t(warp.read(0, op(inst, 1)))
                          : uint32_t(cta.warps.size() * 32);
  if (expected % 32)
    fail(cta, warp, inst, mask, "thread count not a multiple of 32");
  NamedBarrier &barrier = cta.barriers[id];
  if (barrier.arrived && barrier.expected != expected)
    fail(cta, warp, inst, mask,
         "barrier " + std::to_string(id) + " used with " +
             std::to_string(expected) + " and " +
             std::to_string(barrier.expected) + " threads at once");
  barrier.expected = expected;
  barrier.arrived += 32;
  if (!arriveOnly) {
    warp.state = Warp::State::Barrier;
    warp.barrierId = int(id);
  }
  if (barrier.arrived < expected)
    return;
  barrier.arrived = 0;
  for (Warp &other : cta.warps)
    if (other.state == Warp::State::Barrier && other.barrierId == int(id))
      other.state = Warp::State::Ready;
}

} // namespace

Handler fa4::emu::handlerFor(Opcode opcode) {
  static const Handler handlers[] = {
#define OPCODE(name, spelling, handler, typed) handler,
#include "Opcodes.def"
  };
  return handlers[size_t(opcode)];
}
