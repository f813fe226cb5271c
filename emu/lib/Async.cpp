//===- Async.cpp - mbarriers, TMA tiles, bulk groups, wgmma ---------------===//
//
// The asynchronous units as the PTX ISA describes them: their effects
// happen when the operation completes, at a random later step, never at
// issue. Reading what they write before their completion is observed, and
// the async proxy reading shared memory that generic stores wrote without
// fence.proxy.async, are errors.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"
#include "Numerics.h"
#include "Sfu.h"

#include <array>
#include <cmath>
#include <cstring>

using namespace fa4::emu;

namespace {

/// An address of `space` (shared, or generic in the shared window) as a
/// shared address.
uint64_t windowAddress(Cta &cta, Warp &warp, const Instruction &inst, int lane,
                       Space space, uint64_t address) {
  if (space == Space::Generic) {
    if (address < kGenericShared || address - kGenericShared >= kWindowBytes)
      fail(cta, warp, inst, 1u << lane,
           "generic address is not in the shared window");
    return address - kGenericShared;
  }
  return address;
}

} // namespace

/// The mbarrier lane `lane`'s operand `index` addresses (shared, or generic
/// in the shared window): its CTA and offset too.
static Mbarrier &laneMbarrier(Cta &cta, Warp &warp, const Instruction &inst,
                              int lane, size_t index, uint32_t &offset,
                              Cta *&owner) {
  uint64_t address = windowAddress(cta, warp, inst, lane, inst.space,
                                   addressOf(warp, lane, op(inst, index)));
  return mbarrierAt(cta, warp, inst, address, offset, owner);
}

Mbarrier &fa4::emu::mbarrierAt(Cta &cta, Warp &warp, const Instruction &inst,
                               uint64_t address, uint32_t &offset,
                               Cta *&owner) {
  try {
    owner = &sharedTarget(cta, address, offset);
  } catch (const ExecutionError &error) {
    fail(cta, warp, inst, warp.live, error.what());
  }
  if (offset % 8)
    fail(cta, warp, inst, warp.live,
         "mbarrier at offset " + std::to_string(offset) +
             " is not 8-byte aligned");
  auto found = owner->mbarriers.find(offset);
  if (found == owner->mbarriers.end())
    fail(cta, warp, inst, warp.live,
         "mbarrier at shared offset " + std::to_string(offset) +
             " used before mbarrier.init");
  return found->second;
}

namespace {
thread_local uint64_t mbarrierEvents = 0;
} // namespace

uint64_t fa4::emu::mbarrierEventCount() { return mbarrierEvents; }

static void completePhase(Mbarrier &barrier) {
  ++mbarrierEvents;
  if (barrier.pending == 0 && barrier.tx == 0) {
    ++barrier.phase;
    barrier.pending = barrier.expected;
    barrier.completedByCommit = barrier.commitInPhase;
    barrier.commitInPhase = false;
  }
  ++barrier.version;
}

void fa4::emu::arrive(Mbarrier &barrier, uint32_t count, int64_t txBytes) {
  barrier.tx += txBytes;
  if (count > barrier.pending)
    throw ExecutionError("more arrivals than the mbarrier's pending count");
  barrier.pending -= count;
  completePhase(barrier);
}

void fa4::emu::completeTx(Mbarrier &barrier, int64_t bytes) {
  barrier.tx -= bytes;
  completePhase(barrier);
}

//===----------------------------------------------------------------------===//
// mbarrier (PTX ISA, "Parallel Synchronization and Communication
// Instructions: mbarrier")
//===----------------------------------------------------------------------===//

static void mbarrierInit(Cta &cta, Warp &warp, const Instruction &inst,
                         uint32_t mask) {
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    uint64_t address = windowAddress(cta, warp, inst, lane, inst.space,
                                     addressOf(warp, lane, op(inst, 0)));
    uint32_t count = uint32_t(warp.read(lane, op(inst, 1)));
    uint32_t offset;
    Cta &owner = sharedTarget(cta, warp, inst, 1u << lane, address, offset);
    if (count == 0 || count >= (1u << 20))
      fail(cta, warp, inst, 1u << lane,
           "mbarrier.init count " + std::to_string(count));
    Mbarrier &barrier = owner.mbarriers[offset];
    barrier = Mbarrier{count, count, 0, 0, barrier.version + 1};
    ++mbarrierEvents;
  }
}

static void mbarrierArrive(Cta &cta, Warp &warp, const Instruction &inst,
                           uint32_t mask) {
  bool expectTx = inst.has(Modifier::ExpectTx);
  bool arriveOnly = inst.opcode == Opcode::MbarrierArrive;
  // mbarrier.expect_tx [addr], tx has no state operand.
  bool expectOnly = inst.opcode == Opcode::MbarrierExpectTx;
  size_t addressIndex = expectOnly ? 0 : 1;
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    uint32_t offset;
    Cta *owner;
    Mbarrier &barrier =
        laneMbarrier(cta, warp, inst, lane, addressIndex, offset, owner);
    int64_t tx =
        expectTx ? int64_t(warp.read(lane, op(inst, addressIndex + 1))) : 0;
    uint32_t count = !expectTx && arriveOnly && inst.operands.size() > 2
                         ? uint32_t(warp.read(lane, op(inst, 2)))
                         : 1;
    uint64_t state = barrier.phase;
    if (expectOnly) {
      barrier.tx += tx;
      ++barrier.version;
      ++mbarrierEvents;
      continue;
    }
    try {
      arrive(barrier, count, tx);
    } catch (const ExecutionError &error) {
      fail(cta, warp, inst, 1u << lane,
           std::string(error.what()) + " (offset " + std::to_string(offset) +
               ")");
    }
    warp.write(lane, op(inst, 0), state);
  }
}

static void mbarrierWait(Cta &cta, Warp &warp, const Instruction &inst,
                         uint32_t mask) {
  bool parity = inst.has(Modifier::Parity);
  bool allFalse = true;
  Mbarrier *same = nullptr;
  uint32_t sameOffset = 0;
  uint64_t waitedParity = 0;
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    uint32_t offset;
    Cta *owner;
    Mbarrier &barrier = laneMbarrier(cta, warp, inst, lane, 1, offset, owner);
    uint64_t operand = warp.read(lane, op(inst, 2));
    // .parity: whether the phase of that parity has completed, i.e. the
    // current phase has the other parity; a state: whether the phase it
    // was taken in has completed.
    bool done =
        parity ? (barrier.phase & 1) != (operand & 1) : barrier.phase > operand;
    warp.write(lane, op(inst, 0), done);
    allFalse &= !done;
    if (done && barrier.completedByCommit)
      warp.tcgen05FenceWanted = &inst;
    if (!same || same == &barrier) {
      same = &barrier;
      sameOffset = offset;
      waitedParity = operand & 1;
    } else {
      allFalse = false; // lanes on different barriers: keep polling
    }
  }
  // A failed try_wait is polled again until the barrier changes: sleep
  // until then (test_wait returns to code that may do other work).
  if (allFalse && same && inst.opcode == Opcode::MbarrierTryWait) {
    warp.state = Warp::State::Spin;
    warp.spinOn = same;
    warp.spinOffset = sameOffset;
    warp.spinParity = uint32_t(waitedParity);
    warp.spinVersion = same->version;
  }
}

void fa4::emu::handleMbarrier(Cta &cta, Warp &warp, const Instruction &inst,
                              uint32_t mask) {
  switch (inst.opcode) {
  case Opcode::MbarrierInit:
    return mbarrierInit(cta, warp, inst, mask);
  case Opcode::MbarrierArrive:
  case Opcode::MbarrierExpectTx:
    return mbarrierArrive(cta, warp, inst, mask);
  case Opcode::MbarrierTryWait:
  case Opcode::MbarrierTestWait:
    return mbarrierWait(cta, warp, inst, mask);
  case Opcode::MbarrierInval:
    for (int lane = 0; lane < 32; ++lane) {
      if (!(mask >> lane & 1))
        continue;
      uint32_t offset;
      Cta &owner =
          sharedTarget(cta, warp, inst, 1u << lane,
                       windowAddress(cta, warp, inst, lane, inst.space,
                                     addressOf(warp, lane, op(inst, 0))),
                       offset);
      owner.mbarriers.erase(offset);
    }
    return;
  default:
    fail(cta, warp, inst, mask, "unsupported mbarrier operation");
  }
}

//===----------------------------------------------------------------------===//
// TMA tiles (PTX ISA, cp.async.bulk.tensor; "Tensor Memory Accelerator")
//===----------------------------------------------------------------------===//

namespace {

/// What cuTensorMapEncodeTiled would refuse, in a map the kernel built
/// (tensormap.replace leaves a field it did not write zero), or "".
std::string invalidTensorMap(const TensorMap &map) {
  if (map.rank < 1 || map.rank > 5)
    return "rank " + std::to_string(map.rank);
  if (map.elementBytes == 0)
    return "no element type";
  if (!(map.elementBytes == 1 || map.elementBytes == 2 ||
        map.elementBytes == 4 || map.elementBytes == 8))
    return std::to_string(map.elementBytes) + "-byte elements";
  if (map.globalAddress % 16)
    return "a global address not 16-byte aligned";
  for (uint32_t d = 0; d < map.rank; ++d) {
    std::string dim = " of dim " + std::to_string(d);
    if (map.boxDim[d] < 1 || map.boxDim[d] > 256)
      return "box extent " + std::to_string(map.boxDim[d]) + dim;
    if (map.globalDim[d] < 1 || map.globalDim[d] > (uint64_t(1) << 32))
      return "global extent " + std::to_string(map.globalDim[d]) + dim;
    if (map.elementStrides[d] < 1 || map.elementStrides[d] > 8)
      return "element stride " + std::to_string(map.elementStrides[d]) + dim;
    if (d > 0 && (map.globalStrides[d] % 16 ||
                  map.globalStrides[d] >= (uint64_t(1) << 40)))
      return "global stride " + std::to_string(map.globalStrides[d]) + dim;
  }
  if (map.globalStrides[0] != map.elementBytes)
    return "no element type";
  if (map.swizzle != Swizzle::None &&
      map.boxDim[0] * map.elementBytes >
          uint32_t(swizzleSpanBytes(map.swizzle)))
    return "an inner box wider than the swizzle span";
  return "";
}

/// The 128 bytes of a tensor map at `address` in `space`, checked as two
/// 64-byte accesses (a CUtensorMap is 64-byte aligned).
uint8_t *tensorMapBytes(Cta &cta, Warp &warp, const Instruction &inst, int lane,
                        Space space, uint64_t address, bool write) {
  uint8_t *bytes = resolve(cta, warp, inst, lane, space, address, 64, write);
  resolve(cta, warp, inst, lane, space, address + 64, 64, write);
  return bytes;
}

TensorMap readTensorMap(Cta &cta, Warp &warp, const Instruction &inst, int lane,
                        uint64_t address) {
  uint8_t *bytes =
      tensorMapBytes(cta, warp, inst, lane, Space::Generic, address, false);
  bool inParams =
      address >= kGenericParam && address - kGenericParam < kWindowBytes;
  // PTX ISA, "Proxies": a map written through the generic proxy (built
  // in global memory) is TMA's only after the tensormap proxy acquired it.
  if (!inParams && !cta.acquiredTensorMaps.count(address))
    fail(cta, warp, inst, 1u << lane,
         "the tensor map at " + std::to_string(address) +
             " in global memory was not acquired by this CTA "
             "(fence.proxy.tensormap::generic.acquire)");
  TensorMap map;
  std::memcpy(&map, bytes, sizeof(map));
  if (map.magic != TensorMap::kMagic)
    fail(cta, warp, inst, 1u << lane,
         "the tensor map operand is not a CUtensorMap that "
         "cuTensorMapEncodeTiled or tensormap.replace made");
  std::string invalid = invalidTensorMap(map);
  if (!invalid.empty())
    fail(cta, warp, inst, 1u << lane, "the tensor map has " + invalid);
  return map;
}

struct Tile {
  TensorMap map;
  std::array<int64_t, 5> coords{};
  uint64_t elements = 1;
  /// What complete_tx counts: the box's own bytes.
  uint32_t bytes() const { return uint32_t(elements * map.elementBytes); }
  /// What it occupies in shared memory: with a swizzle, each innermost row
  /// takes a whole span even when narrower (measured on the H200,
  /// emu/unittests/goldens/hw-layouts.txt).
  uint32_t footprint() const {
    uint32_t row = uint32_t(map.boxDim[0]) * map.elementBytes;
    uint32_t span = uint32_t(swizzleSpanBytes(map.swizzle));
    if (map.swizzle == Swizzle::None || row >= span)
      return bytes();
    return uint32_t(elements / map.boxDim[0]) * span;
  }
};

Tile tileOf(Cta &cta, Warp &warp, const Instruction &inst, int lane,
            const Operand &tensor) {
  Tile tile;
  tile.map =
      readTensorMap(cta, warp, inst, lane, addressOf(warp, lane, tensor));
  if (tensor.elements.size() != tile.map.rank)
    fail(cta, warp, inst, 1u << lane,
         std::to_string(tensor.elements.size()) +
             " coordinates for a tensor map of rank " +
             std::to_string(tile.map.rank));
  for (size_t d = 0; d < tile.map.rank; ++d) {
    tile.coords[d] = int32_t(warp.read(lane, tensor.elements[d]));
    tile.elements *= tile.map.boxDim[d];
    if (tile.map.elementStrides[d] != 1)
      fail(cta, warp, inst, 1u << lane,
           "tensor map element strides other than 1 are not modelled");
  }
  return tile;
}

/// Calls f(index, global address or 0 when out of bounds) for each box
/// element, innermost dimension fastest.
template <typename F> void forEachElement(const Tile &tile, F f) {
  const TensorMap &map = tile.map;
  std::array<uint32_t, 5> index{};
  for (uint64_t e = 0; e < tile.elements; ++e) {
    uint64_t address = map.globalAddress;
    bool inside = true;
    for (uint32_t d = 0; d < map.rank; ++d) {
      int64_t coordinate = tile.coords[d] + int64_t(index[d]);
      inside &= coordinate >= 0 && uint64_t(coordinate) < map.globalDim[d];
      address += uint64_t(coordinate) *
                 (d == 0 ? map.elementBytes : map.globalStrides[d]);
    }
    f(index, inside ? address : 0);
    for (uint32_t d = 0; d < map.rank; ++d) {
      if (++index[d] < map.boxDim[d])
        break;
      index[d] = 0;
    }
  }
}

void tmaLoad(Cta &cta, Warp &warp, const Instruction &inst, int lane) {
  Machine &machine = *cta.machine;
  Tile tile = tileOf(cta, warp, inst, lane, op(inst, 1));
  uint64_t destination = addressOf(warp, lane, op(inst, 0));
  uint64_t barrierAddress = addressOf(warp, lane, op(inst, 2));
  std::vector<Cta *> targets, signalled;
  uint32_t dstOffset, barrierOffset;
  uint32_t mask = 1u << lane;
  Cta &own = sharedTarget(cta, warp, inst, mask, destination, dstOffset);
  Cta &barrierCta =
      sharedTarget(cta, warp, inst, mask, barrierAddress, barrierOffset);
  if (inst.has(Modifier::MulticastCluster)) {
    uint32_t ctaMask = uint32_t(warp.read(lane, op(inst, 3)));
    for (uint32_t rank = 0; rank < cta.cluster->ctas.size(); ++rank)
      if (ctaMask >> rank & 1) {
        requireRunning(cta, warp, inst, mask, *cta.cluster->ctas[rank]);
        targets.push_back(cta.cluster->ctas[rank].get());
      }
  } else {
    targets.push_back(&own);
  }
  // PTX ISA, cp.async.bulk.tensor, .cta_group: under ::1 (the default) the
  // mbarrier is in the destination's CTA; under ::2 it may be in the
  // destination's CTA or its peer (rank ^ 1), the CTA the mbarrier address
  // names; a multicast signals, for each destination, the CTA of its pair
  // with the named CTA's parity, at the same offset.
  bool pair = inst.has(Modifier::CtaGroup2);
  bool multicast = inst.has(Modifier::MulticastCluster);
  for (Cta *target : targets) {
    Cta *signal = target;
    if (pair) {
      uint32_t rank = (target->rank & ~1u) | (barrierCta.rank & 1u);
      if (rank >= cta.cluster->ctas.size())
        fail(cta, warp, inst, 1u << lane,
             "TMA .cta_group::2 in a cluster without the peer CTA");
      signal = cta.cluster->ctas[rank].get();
      requireRunning(cta, warp, inst, mask, *signal);
      if (!multicast && (barrierCta.rank ^ target->rank) > 1)
        fail(cta, warp, inst, 1u << lane,
             "TMA .cta_group::2 signals an mbarrier outside the "
             "destination's CTA pair");
    } else if (!multicast && &barrierCta != target) {
      fail(cta, warp, inst, 1u << lane,
           "TMA signals an mbarrier in another CTA than its destination "
           "(only .cta_group::2 may signal the peer CTA)");
    }
    signalled.push_back(signal);
  }
  uint32_t bytes = tile.bytes(), footprint = tile.footprint();
  for (size_t t = 0; t < targets.size(); ++t) {
    Cta *target = targets[t];
    if (uint64_t(dstOffset) + footprint > target->smem.size())
      fail(cta, warp, inst, 1u << lane, "TMA box past shared memory");
    if (!signalled[t]->mbarriers.count(barrierOffset))
      fail(cta, warp, inst, 1u << lane,
           "TMA completes on an mbarrier that is not initialized");
    for (uint32_t i = 0; i < footprint; ++i)
      if (target->asyncWritesPending[dstOffset + i]++)
        fail(cta, warp, inst, 1u << lane,
             "TMA load into shared bytes another TMA load has not yet "
             "written (a stage reused before its load completed)");
  }
  // Global reads are checked at issue, where the error has a context.
  forEachElement(tile, [&](const std::array<uint32_t, 5> &, uint64_t from) {
    if (from && !machine.memory.contains(from, tile.map.elementBytes))
      fail(cta, warp, inst, 1u << lane,
           "TMA load reads outside every allocation (tensor map bounds "
           "wrong)");
  });
  AsyncSource source{&warp, &inst, {}};
  source.shared.assign(targets.begin(), targets.end());
  source.shared.insert(source.shared.end(), signalled.begin(), signalled.end());
  auto complete = [=]() {
    for (size_t t = 0; t < targets.size(); ++t) {
      Cta *target = targets[t];
      forEachElement(tile, [&](const std::array<uint32_t, 5> &index,
                               uint64_t from) {
        uint32_t at = dstOffset + tileElementOffset(tile.map, index, dstOffset);
        uint8_t *to = target->smem.data() + at;
        if (from)
          std::memcpy(to, reinterpret_cast<const void *>(from),
                      tile.map.elementBytes);
        else if (tile.map.nanFill)
          std::memset(to, 0xff, tile.map.elementBytes);
        else
          std::memset(to, 0, tile.map.elementBytes);
      });
      for (uint32_t i = 0; i < footprint; ++i)
        --target->asyncWritesPending[dstOffset + i];
      completeTx(signalled[t]->mbarriers.at(barrierOffset), bytes);
    }
  };
  machine.startAsync(cta, "TMA load", complete, std::move(source));
}

void tmaStore(Cta &cta, Warp &warp, const Instruction &inst, int lane) {
  Machine &machine = *cta.machine;
  Tile tile = tileOf(cta, warp, inst, lane, op(inst, 0));
  uint32_t srcOffset;
  Cta &source = sharedTarget(cta, warp, inst, 1u << lane,
                             addressOf(warp, lane, op(inst, 1)), srcOffset);
  uint32_t bytes = tile.footprint();
  if (uint64_t(srcOffset) + bytes > source.smem.size())
    fail(cta, warp, inst, 1u << lane, "TMA store box past shared memory");
  for (uint32_t i = 0; i < bytes; ++i)
    if (source.genericDirty[srcOffset + i])
      fail(cta, warp, inst, 1u << lane,
           "TMA store reads shared bytes that generic stores wrote without "
           "a fence.proxy.async after them");
  forEachElement(tile, [&](const std::array<uint32_t, 5> &, uint64_t to) {
    if (to && !machine.memory.contains(to, tile.map.elementBytes))
      fail(cta, warp, inst, 1u << lane,
           "TMA store writes outside every allocation");
  });
  std::vector<uint8_t> snapshot(source.smem.begin() + srcOffset,
                                source.smem.begin() + srcOffset + bytes);
  Cta *sourcePtr = &source;
  const Instruction *where = &inst;
  Warp *issuer = &warp;
  auto complete = [=]() {
    if (std::memcmp(snapshot.data(), sourcePtr->smem.data() + srcOffset,
                    bytes) != 0)
      fail(*sourcePtr, *issuer, *where, 1u << lane,
           "shared memory a TMA store reads changed before "
           "cp.async.bulk.wait_group.read");
    forEachElement(tile, [&](const std::array<uint32_t, 5> &index,
                             uint64_t to) {
      if (!to)
        return; // out of bounds: not written
      uint32_t at = srcOffset + tileElementOffset(tile.map, index, srcOffset);
      std::memcpy(reinterpret_cast<void *>(to), sourcePtr->smem.data() + at,
                  tile.map.elementBytes);
    });
  };
  warp.openBulk.push_back(machine.startAsync(cta, "TMA store", complete,
                                             {&warp, &inst, {&source}}));
}

} // namespace

//===----------------------------------------------------------------------===//
// cp.async without .bulk (PTX ISA, "cp.async", "cp.async.commit_group",
// "cp.async.wait_group", "cp.async.mbarrier.arrive"): a thread's copy of 4,
// 8 or 16 bytes from global to its CTA's shared memory, zero-filled past
// its source size. It lands later, as a generic-proxy write of the issuing
// warp (which fences it for wgmma or TMA); until then reading or writing
// its bytes is an error. The emulator tracks a warp's copies, not each
// lane's: a wait or an mbarrier arrival completes all of the warp's (the
// hardware may complete them earlier anyway).
//===----------------------------------------------------------------------===//

namespace {

void copyAsync(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  Machine &machine = *cta.machine;
  if (!inst.has(Modifier::Shared) || !inst.has(Modifier::Global))
    fail(cta, warp, inst, mask, "unsupported cp.async form");
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    uint32_t size = uint32_t(warp.read(lane, op(inst, 2)));
    if (size != 4 && size != 8 && size != 16)
      fail(cta, warp, inst, 1u << lane,
           "cp.async copies 4, 8 or 16 bytes, got " + std::to_string(size));
    if (inst.has(Modifier::Cg) && size != 16)
      fail(cta, warp, inst, 1u << lane, "cp.async.cg copies 16 bytes");
    uint32_t sourceBytes = op(inst, 3).kind == Operand::Kind::None
                               ? size
                               : uint32_t(warp.read(lane, op(inst, 3)));
    if (sourceBytes > size)
      fail(cta, warp, inst, 1u << lane,
           "cp.async source size " + std::to_string(sourceBytes) +
               " past its " + std::to_string(size) + " bytes");
    uint64_t destination = addressOf(warp, lane, op(inst, 0));
    uint64_t source = addressOf(warp, lane, op(inst, 1));
    if (destination % size || source % size)
      fail(cta, warp, inst, 1u << lane,
           "cp.async addresses not aligned to its " + std::to_string(size) +
               " bytes");
    uint8_t *to = resolve(cta, warp, inst, lane, Space::Shared, destination,
                          size, /*write=*/false);
    const uint8_t *from = sourceBytes
                              ? resolve(cta, warp, inst, lane, Space::Global,
                                        source, sourceBytes, /*write=*/false)
                              : nullptr;
    uint32_t offset = uint32_t(to - cta.smem.data());
    for (uint32_t i = 0; i < size; ++i)
      if (cta.asyncWritesPending[offset + i]++)
        fail(cta, warp, inst, 1u << lane,
             "cp.async into shared bytes another copy still writes");
    Cta *target = &cta;
    Warp *issuer = &warp;
    auto complete = [=]() {
      if (from)
        std::memcpy(target->smem.data() + offset, from, sourceBytes);
      std::memset(target->smem.data() + offset + sourceBytes, 0,
                  size - sourceBytes);
      for (uint32_t i = 0; i < size; ++i) {
        --target->asyncWritesPending[offset + i];
        target->genericDirty[offset + i] = 1;
      }
      issuer->genericWrites.push_back({offset, size});
    };
    warp.openCopies.push_back(
        machine.startAsync(cta, "cp.async", complete, {&warp, &inst, {&cta}}));
  }
}

void finishCopies(Machine &machine, const std::vector<uint64_t> &ids) {
  for (uint64_t id : ids)
    machine.finishAsync(id);
}

/// Without .noinc the barrier's pending count rises now and the arrival
/// comes once the copies land: no net arrival in the phase. With .noinc
/// the arrival is one of the phase's expected ones.
void copyAsyncArrive(Cta &cta, Warp &warp, const Instruction &inst,
                     uint32_t mask) {
  Machine &machine = *cta.machine;
  std::vector<uint64_t> copies = warp.openCopies;
  for (const std::vector<uint64_t> &group : warp.copyGroups)
    copies.insert(copies.end(), group.begin(), group.end());
  bool noinc = inst.has(Modifier::Noinc);
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    uint32_t offset;
    Cta *owner;
    Mbarrier *barrier = &laneMbarrier(cta, warp, inst, lane, 0, offset, owner);
    if (owner != &cta)
      fail(cta, warp, inst, 1u << lane,
           "cp.async.mbarrier.arrive on another CTA's barrier");
    if (!noinc) {
      ++barrier->pending;
      ++barrier->version;
    }
    Warp *issuer = &warp;
    const Instruction *where = &inst;
    auto complete = [=, &machine]() {
      finishCopies(machine, copies);
      try {
        arrive(*barrier, 1, 0);
      } catch (const ExecutionError &error) {
        fail(*owner, *issuer, *where, 1u << lane, error.what());
      }
    };
    machine.startAsync(cta, "cp.async.mbarrier.arrive", complete,
                       {&warp, &inst, {owner}});
  }
}

} // namespace

void fa4::emu::handleCpAsync(Cta &cta, Warp &warp, const Instruction &inst,
                             uint32_t mask) {
  // Bulk copies (TMA) and cp.async copies are grouped apart, alike.
  bool bulk = inst.has(Modifier::Bulk);
  std::vector<uint64_t> &open = bulk ? warp.openBulk : warp.openCopies;
  std::deque<std::vector<uint64_t>> &groups =
      bulk ? warp.bulkGroups : warp.copyGroups;
  auto commit = [&] {
    groups.push_back(std::move(open));
    open.clear();
  };
  auto waitUntilPending = [&](size_t keep) {
    while (groups.size() > keep) {
      finishCopies(*cta.machine, groups.front());
      groups.pop_front();
    }
  };
  if (inst.has(Modifier::CommitGroup))
    return commit();
  if (inst.has(Modifier::WaitGroup))
    return waitUntilPending(size_t(warp.read(0, op(inst, 0))));
  if (!bulk) {
    if (inst.has(Modifier::WaitAll)) {
      commit();
      waitUntilPending(0);
    } else if (inst.has(Modifier::Mbarrier)) {
      copyAsyncArrive(cta, warp, inst, mask);
    } else {
      copyAsync(cta, warp, inst, mask);
    }
    return;
  }
  if (inst.has(Modifier::Prefetch))
    return;
  if (!inst.has(Modifier::Tensor) || !inst.has(Modifier::Tile))
    fail(cta, warp, inst, mask, "unsupported cp.async.bulk form");
  bool load = inst.mode; // a shared::cluster destination (Module.cpp)
  for (int lane = 0; lane < 32; ++lane)
    if (mask >> lane & 1) {
      if (load)
        tmaLoad(cta, warp, inst, lane);
      else
        tmaStore(cta, warp, inst, lane);
    }
}

//===----------------------------------------------------------------------===//
// Tensor maps built by the kernel (PTX ISA: tensormap.replace,
// tensormap.cp_fenceproxy, fence.proxy.tensormap). The emulated map is the
// TensorMap the emulated cuTensorMapEncodeTiled writes; replacing a field
// of zeroed memory makes one (its magic), and TMA checks it whole at use.
//===----------------------------------------------------------------------===//

namespace {

/// PTX ISA, tensormap.replace ".elemtype": the element sizes of encodings
/// 0 to 10 (.u8, .u16, .u32, .s32, .u64, .s64, .f16, .f32, .f32.ftz, .f64,
/// .bf16); 0 for the packed types, which fa4 does not build.
uint32_t elementTypeBytes(uint64_t code) {
  static const uint32_t bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 4, 8, 2};
  return code < std::size(bytes) ? bytes[code] : 0;
}

void replaceField(Cta &cta, Warp &warp, const Instruction &inst, int lane) {
  uint32_t mask = 1u << lane;
  Space space = inst.space == Space::Generic ? Space::Global : inst.space;
  uint64_t address = addressOf(warp, lane, op(inst, 0));
  uint8_t *bytes = tensorMapBytes(cta, warp, inst, lane, space, address, true);
  TensorMap map;
  std::memcpy(&map, bytes, sizeof(map));
  map.magic = TensorMap::kMagic;
  bool ordered = inst.operands.size() == 3;
  uint64_t value = warp.read(lane, op(inst, ordered ? 2 : 1));
  uint64_t ordinal = ordered ? warp.read(lane, op(inst, 1)) : 0;
  if (ordinal > 4)
    fail(cta, warp, inst, mask, "dimension " + std::to_string(ordinal));
  switch (TensormapField(inst.mode)) {
  case TensormapField::GlobalAddress:
    map.globalAddress = value;
    break;
  case TensormapField::Rank:
    map.rank = uint32_t(value) + 1; // the field holds rank - 1
    break;
  case TensormapField::BoxDim:
    map.boxDim[ordinal] = uint16_t(std::min<uint64_t>(value, 0xffff));
    break;
  case TensormapField::GlobalDim:
    map.globalDim[ordinal] = value;
    break;
  case TensormapField::GlobalStride:
    if (ordinal > 3)
      fail(cta, warp, inst, mask,
           "global stride of dimension " + std::to_string(ordinal + 1));
    map.globalStrides[ordinal + 1] = value; // of dims 1 and up
    break;
  case TensormapField::ElementStride:
    map.elementStrides[ordinal] = uint8_t(std::min<uint64_t>(value, 0xff));
    break;
  case TensormapField::ElemType:
    map.elementBytes = elementTypeBytes(value);
    if (!map.elementBytes)
      fail(cta, warp, inst, mask,
           "element type " + std::to_string(value) + " is not modelled");
    map.globalStrides[0] = map.elementBytes;
    break;
  case TensormapField::InterleaveLayout:
    if (value != 0)
      fail(cta, warp, inst, mask, "interleaved tensor maps are not modelled");
    break;
  case TensormapField::SwizzleMode: {
    if (value > 3)
      fail(cta, warp, inst, mask,
           "swizzle mode " + std::to_string(value) + " is not modelled");
    static const Swizzle modes[] = {Swizzle::None, Swizzle::B32, Swizzle::B64,
                                    Swizzle::B128};
    map.swizzle = modes[value];
    break;
  }
  case TensormapField::FillMode:
    map.nanFill = value == 1;
    break;
  default:
    fail(cta, warp, inst, mask, "unsupported tensormap.replace field");
  }
  std::memcpy(bytes, &map, sizeof(map));
}

/// tensormap.cp_fenceproxy.global.shared::cta...sync.aligned [dst], [src],
/// 128: the warp copies the map, all lanes naming the same two addresses.
void copyTensorMap(Cta &cta, Warp &warp, const Instruction &inst,
                   uint32_t mask) {
  requireConverged(cta, warp, inst, mask);
  int first = __builtin_ctz(mask);
  uint64_t global = addressOf(warp, first, op(inst, 0));
  uint64_t shared = addressOf(warp, first, op(inst, 1));
  for (int lane = 0; lane < 32; ++lane)
    if ((mask >> lane & 1) && (addressOf(warp, lane, op(inst, 0)) != global ||
                               addressOf(warp, lane, op(inst, 1)) != shared))
      fail(cta, warp, inst, mask, "lanes name different tensor maps");
  if (warp.read(first, op(inst, 2)) != 128)
    fail(cta, warp, inst, mask, "a tensor map copy is 128 bytes");
  std::memcpy(
      tensorMapBytes(cta, warp, inst, first, Space::Global, global, true),
      tensorMapBytes(cta, warp, inst, first, Space::Shared, shared, false),
      128);
}

} // namespace

void fa4::emu::handleTensormap(Cta &cta, Warp &warp, const Instruction &inst,
                               uint32_t mask) {
  if (inst.opcode == Opcode::TensormapReplace &&
      TensormapField(inst.mode) != TensormapField::None) {
    for (int lane = 0; lane < 32; ++lane)
      if (mask >> lane & 1)
        replaceField(cta, warp, inst, lane);
    return;
  }
  if (inst.opcode == Opcode::TensormapCpFenceproxy &&
      inst.has(Modifier::Global) && inst.has(Modifier::Release))
    return copyTensorMap(cta, warp, inst, mask);
  fail(cta, warp, inst, mask, "unsupported tensormap instruction");
}

void fa4::emu::acquireTensorMaps(Cta &cta, Warp &warp, const Instruction &inst,
                                 uint32_t mask) {
  for (int lane = 0; lane < 32; ++lane)
    if (mask >> lane & 1) {
      if (warp.read(lane, op(inst, 1)) != 128)
        fail(cta, warp, inst, mask, "a tensor map fence covers 128 bytes");
      cta.acquiredTensorMaps.insert(addressOf(warp, lane, op(inst, 0)));
    }
}

//===----------------------------------------------------------------------===//
// wgmma (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate
// Instructions")
//===----------------------------------------------------------------------===//

namespace {

float elementValue(uint16_t bits, Type type) {
  return type == Type::BF16 ? bf16ToFloat(bits) : halfToFloat(bits);
}

/// One operand element from shared memory through its descriptor.
float smemElement(Cta &cta, Warp &warp, const WgmmaOp &mma, uint64_t bits,
                  bool transpose, int mn, int k) {
  WgmmaDescriptor descriptor = decodeWgmmaDescriptor(bits);
  uint32_t address = wgmmaElementAddress(descriptor, transpose, 2, mn, k);
  if (uint64_t(address) + 2 > cta.smem.size())
    fail(cta, warp, *mma.inst, warp.live,
         "wgmma operand at shared offset " + std::to_string(address) +
             " past the CTA's shared memory");
  if (cta.asyncWritesPending[address] || cta.asyncWritesPending[address + 1])
    fail(cta, warp, *mma.inst, warp.live,
         "wgmma reads shared memory a TMA load or cp.async has not yet "
         "written");
  if (cta.genericDirty[address] || cta.genericDirty[address + 1])
    fail(cta, warp, *mma.inst, warp.live,
         "wgmma reads shared memory that generic stores wrote without a "
         "fence.proxy.async after them");
  uint16_t value;
  std::memcpy(&value, cta.smem.data() + address, 2);
  return elementValue(value, mma.abType);
}

/// D += A * B for this warp's 16 rows of the 64-row tile.
void compute(Cta &cta, Warp &warp, const WgmmaOp &mma) {
  int rowBase = 16 * (warp.index % 4);
  float a[16][16];
  // A: from shared memory, or the register fragment (PTX ISA, "Register
  // Fragments": a_j of lane l holds row l/4 + 8 (j % 2), columns
  // 2 (l % 4) + 8 (j / 2) + {0, 1}).
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 16; ++k)
      if (!mma.aFromRegisters)
        a[r][k] = smemElement(cta, warp, mma, mma.aDescriptor, mma.transposeA,
                              rowBase + r, k);
  if (mma.aFromRegisters)
    for (int lane = 0; lane < 32; ++lane)
      for (int j = 0; j < 4; ++j)
        for (int h = 0; h < 2; ++h) {
          int r = lane / 4 + 8 * (j % 2);
          int k = 2 * (lane % 4) + 8 * (j / 2) + h;
          a[r][k] = elementValue(
              uint16_t(mma.aRegisters[lane][size_t(j)] >> (16 * h)),
              mma.abType);
        }
  std::vector<float> b(size_t(16 * mma.n));
  for (int k = 0; k < 16; ++k)
    for (int n = 0; n < mma.n; ++n)
      b[size_t(k * mma.n + n)] =
          smemElement(cta, warp, mma, mma.bDescriptor, mma.transposeB, n, k);
  // D fragment (PTX ISA, wgmma "Register Fragments" for D): d_i of lane l
  // is row l/4 + 8 ((i / 2) % 2), column 8 (i / 4) + 2 (l % 4) + i % 2.
  for (int lane = 0; lane < 32; ++lane)
    for (size_t i = 0; i < mma.d.size(); ++i) {
      int r = lane / 4 + 8 * int((i / 2) % 2);
      int n = 8 * int(i / 4) + 2 * (lane % 4) + int(i % 2);
      uint64_t &slot = warp.regs[size_t(mma.d[i]) * 32 + size_t(lane)];
      std::array<float, 16> left, right;
      for (int k = 0; k < 16; ++k) {
        left[size_t(k)] = mma.scaleA * a[r][k];
        right[size_t(k)] = mma.scaleB * b[size_t(k * mma.n + n)];
      }
      float accumulator = mma.scaleD ? asFloat(slot) : 0.0f;
      slot = floatBits(tensorCoreDot(accumulator, left, right));
    }
}

void issueMma(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask) {
  WgmmaOp mma;
  mma.inst = &inst;
  // m64nNk16 and the A/B type, decoded at load (Module.cpp).
  mma.m = inst.m;
  mma.n = inst.n;
  mma.k = inst.k;
  if (mma.m != 64 || mma.k != 16 || mma.n % 8 || mma.n < 8 || mma.n > 256)
    fail(cta, warp, inst, mask,
         "unsupported wgmma shape (m64nNk16, N a multiple of 8 to 256, is "
         "modelled)");
  if (inst.type != Type::F32 || inst.operands.size() < 7)
    fail(cta, warp, inst, mask, "only f32 accumulators are modelled");
  mma.abType = inst.abType;
  if (mma.abType != Type::BF16 && mma.abType != Type::F16)
    fail(cta, warp, inst, mask, "only bf16 and f16 operands are modelled");
  const Operand &d = op(inst, 0), &a = op(inst, 1);
  if (d.kind != Operand::Kind::Vector || d.elements.size() != size_t(mma.n / 2))
    fail(cta, warp, inst, mask,
         "expected " + std::to_string(mma.n / 2) + " accumulator registers");
  for (const Operand &reg : d.elements)
    mma.d.push_back(reg.reg);
  mma.aFromRegisters = a.kind == Operand::Kind::Vector;
  auto uniform = [&](const Operand &operand, const char *what) {
    uint64_t value = warp.read(0, operand);
    for (int lane = 1; lane < 32; ++lane)
      if (warp.read(lane, operand) != value)
        fail(cta, warp, inst, mask,
             std::string(what) + " differs between the warp's lanes");
    return value;
  };
  if (mma.aFromRegisters) {
    if (a.elements.size() != 4)
      fail(cta, warp, inst, mask, "A from registers needs 4 registers");
    for (int lane = 0; lane < 32; ++lane)
      for (const Operand &reg : a.elements)
        mma.aRegisters[lane].push_back(uint32_t(warp.read(lane, reg)));
  } else {
    mma.aDescriptor = uniform(a, "the A descriptor");
  }
  mma.bDescriptor = uniform(op(inst, 2), "the B descriptor");
  mma.scaleD = uniform(op(inst, 3), "scale-d") & 1;
  mma.scaleA = int64_t(warp.read(0, op(inst, 4))) == -1 ? -1 : 1;
  mma.scaleB = int64_t(warp.read(0, op(inst, 5))) == -1 ? -1 : 1;
  if (mma.aFromRegisters) {
    mma.transposeB = warp.read(0, op(inst, 6)) & 1;
  } else {
    mma.transposeA = warp.read(0, op(inst, 6)) & 1;
    mma.transposeB = warp.read(0, op(inst, 7)) & 1;
  }
  for (int32_t reg : mma.d)
    warp.markPending(reg);
  warp.openWgmma.push_back(std::move(mma));
}

} // namespace

void fa4::emu::retireWgmma(Warp &warp, size_t keep) {
  while (warp.wgmmaGroups.size() > keep) {
    for (const WgmmaOp &mma : warp.wgmmaGroups.front()) {
      for (int32_t reg : mma.d)
        warp.clearPending(reg);
      compute(*warp.cta, warp, mma);
    }
    warp.wgmmaGroups.pop_front();
  }
}

void fa4::emu::handleWgmma(Cta &cta, Warp &warp, const Instruction &inst,
                           uint32_t mask) {
  requireConverged(cta, warp, inst, mask);
  switch (inst.opcode) {
  case Opcode::WgmmaFence:
    return;
  case Opcode::WgmmaCommitGroup:
    warp.wgmmaGroups.push_back(std::move(warp.openWgmma));
    warp.openWgmma.clear();
    return;
  case Opcode::WgmmaWaitGroup:
    return retireWgmma(warp, size_t(warp.read(0, op(inst, 0))));
  case Opcode::WgmmaMmaAsync:
    return issueMma(cta, warp, inst, mask);
  default:
    fail(cta, warp, inst, mask, "unsupported wgmma operation");
  }
}
