//===- Machine.h - The state of a running grid ------------------*- C++ -*-===//
//
// Warps, CTAs, clusters and the asynchronous units, shared by the generic
// handlers (Exec.cpp) and the asynchronous ones (Async.cpp).
//
// Address encodings (docs/Emulator.md): a shared address of CTA rank r,
// shared::cta or shared::cluster alike, is (r << 24) | offset, as the
// hardware lays them out (CUTLASS finds a CTA pair's even CTA by clearing
// bit 24 of its own addresses): a shared variable's address read by CTA r
// carries r, and mapa replaces it; a generic address is a host pointer for
// global memory, kGenericShared + a shared address, or kGenericParam + a
// parameter offset.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_MACHINE_H
#define FA4_EMU_MACHINE_H

#include "Internal.h"
#include "Layouts.h"

#include <cstdlib>
#include <deque>
#include <functional>
#include <random>
#include <set>

namespace fa4::emu {

constexpr uint64_t kGenericShared = 0xffff'8000'0000'0000ull;
constexpr uint64_t kGenericParam = 0xffff'4000'0000'0000ull;
constexpr uint64_t kWindowBytes = uint64_t(1) << 32;
constexpr uint32_t kRankShift = 24;
constexpr uint32_t kOffsetMask = (1u << kRankShift) - 1;

struct Cta;
struct Cluster;
struct Machine;

/// The shared address of `offset` in the shared memory of CTA `rank`.
inline uint64_t sharedAddress(uint32_t rank, uint64_t offset) {
  return uint64_t(rank) << kRankShift | offset;
}

struct Mbarrier {
  uint32_t expected = 0; // arrivals per phase (init's count)
  uint32_t pending = 0;  // arrivals still missing in the current phase
  int64_t tx = 0;        // transaction bytes still expected
  uint32_t phase = 0;    // completed phases
  uint64_t version = 0;  // bumped on every change, wakes spinning warps
  /// A tcgen05.commit arrived in the current phase / in the last completed
  /// one (its waiters then order tcgen05 work after it: Tcgen05.cpp).
  bool commitInPhase = false, completedByCommit = false;
};

/// One wgmma.mma_async as issued: its operands captured, its arithmetic
/// done when its group is waited for (results invalid until then).
struct WgmmaOp {
  const Instruction *inst;
  int m = 64, n = 0, k = 16;
  Type abType = Type::BF16;
  std::vector<int32_t> d; // accumulator registers
  bool aFromRegisters = false;
  uint64_t aDescriptor = 0, bDescriptor = 0;
  std::vector<uint32_t> aRegisters[32]; // per lane, when from registers
  bool scaleD = true;
  int scaleA = 1, scaleB = 1;
  bool transposeA = false, transposeB = false;
};

class Warp {
public:
  enum class State { Ready, Barrier, ClusterBarrier, Spin, Done };

  Cta *cta = nullptr;
  int index = 0; // within the CTA
  /// The SIMT stack: the top entry's lanes run at its pc; an entry is
  /// popped when its pc reaches its reconvergence point, where the entry
  /// below (whose pc is that point) continues with their lanes too.
  struct Path {
    uint32_t pc;
    uint32_t mask;
    int32_t reconverge; // -1: never (the lanes exit first)
  };
  std::vector<Path> paths;
  uint32_t live = 0; // launched lanes that have not exited
  State state = State::Ready;
  int barrierId = -1;
  Mbarrier *spinOn = nullptr;
  uint32_t spinOffset = 0, spinParity = 0;
  uint64_t spinVersion = 0;
  uint64_t clusterArrivals = 0; // cluster barrier arrivals made
  uint64_t clusterWaits = 0;    // and waits
  uint64_t priority = 0;        // LaunchOptions::Schedule::Pct's
  std::vector<uint64_t> regs;   // register * 32 + lane

  std::vector<WgmmaOp> openWgmma;
  std::deque<std::vector<WgmmaOp>> wgmmaGroups;
  std::vector<uint8_t> pendingRegister; // written by an unfinished wgmma
  int pendingRegisters = 0;
  std::vector<uint64_t> openBulk; // async op ids
  std::deque<std::vector<uint64_t>> bulkGroups;
  /// cp.async (non-bulk) copies not committed to a group yet, and the
  /// groups committed and not waited for (async op ids).
  std::vector<uint64_t> openCopies;
  std::deque<std::vector<uint64_t>> copyGroups;
  std::vector<std::pair<uint32_t, uint32_t>> genericWrites; // unfenced

  /// tcgen05 (Tcgen05.cpp): MMAs issued and not yet committed, registers
  /// a tcgen05.ld fills (valid after wait::ld), TMEM columns a tcgen05.st
  /// wrote (visible after wait::st).
  std::vector<std::function<void()>> uncommittedMma;
  std::vector<uint64_t> mmaCommits; // tcgen05.commits in flight, in order
  std::vector<int32_t> tmemLoadRegisters;
  std::vector<std::pair<uint32_t, uint32_t>> tmemStores; // first, count
  /// Set when a wait saw a phase a tcgen05.commit completed: the warp's
  /// next tcgen05.ld/st/mma needs tcgen05.fence::after_thread_sync first.
  const Instruction *tcgen05FenceWanted = nullptr;

  uint64_t read(int lane, const Operand &operand) const;
  /// Marks a register an unfinished asynchronous operation writes (reads
  /// and writes of it fail until clearPending), and clears the mark.
  void markPending(int32_t reg) {
    if (pendingRegister[size_t(reg)]++ == 0)
      ++pendingRegisters;
  }
  void clearPending(int32_t reg) {
    if (--pendingRegister[size_t(reg)] == 0)
      --pendingRegisters;
  }
  void write(int lane, const Operand &operand, uint64_t value);
  uint32_t laneThread(int lane) const;
};

/// Thrown by Warp::read/write on a register an unfinished wgmma writes; the
/// scheduler reports it with the instruction's context.
struct PendingRegister {
  int32_t reg;
};

struct NamedBarrier {
  uint32_t arrived = 0;
  uint32_t expected = 0;
};

struct Cta {
  Cluster *cluster = nullptr;
  Machine *machine = nullptr;
  std::array<uint32_t, 3> ctaid{}, clusterCtaid{};
  uint32_t rank = 0; // in the cluster
  uint32_t threads = 0;
  /// Its last warp exited: its shared and tensor memory are released, and
  /// a peer reaching them is an error (docs/Emulator.md, lifetimes).
  bool exited = false;
  std::vector<uint8_t> smem;
  std::vector<uint8_t> asyncWritesPending; // per byte: TMA writes in flight
  std::vector<uint8_t> genericDirty;       // per byte: unfenced generic writes
  std::vector<Warp> warps;
  NamedBarrier barriers[16];
  std::map<uint32_t, Mbarrier> mbarriers; // by shared offset

  /// Tensor memory (sm_100a): 128 lanes x 512 columns of 32 bits, made on
  /// first use; per column, whether tcgen05.alloc owns it, and how many
  /// unfinished tcgen05.mma write it or unwaited tcgen05.st wrote it.
  std::vector<uint32_t> tmem;
  std::vector<uint16_t> tmemOwner; // 0 free, else the allocation's size
  std::vector<uint16_t> tmemMmaPending, tmemStorePending;
  bool allocPermitRelinquished = false;
  /// Columns a lenient tcgen05.dealloc freed, released at exit
  /// (LaunchOptions::tcgen05Lenient).
  std::vector<std::pair<uint32_t, uint32_t>> tmemDeferredDealloc;
  int tmemCtaGroup = 0; // the kernel's tcgen05 cta_group, once it used one
  /// Global addresses of tensor maps this CTA acquired
  /// (fence.proxy.tensormap::generic.acquire): TMA may use only those of
  /// the maps outside parameter space (per CTA, not per thread: the
  /// emulator's approximation, docs/Emulator.md).
  std::set<uint64_t> acquiredTensorMaps;
};

/// A shared variable's address (its offset) as CTA `cta` reads it.
inline uint64_t sharedAddress(const Cta &cta, uint64_t offset) {
  return sharedAddress(cta.rank, offset);
}

struct Cluster {
  std::vector<std::unique_ptr<Cta>> ctas;
  std::array<uint32_t, 3> clusterid{};
  uint64_t barrierArrived = 0; // warps arrived in the current phase
  uint64_t barrierPhases = 0;  // completed phases
};

/// Where an asynchronous operation was issued and whose shared memory it
/// touches (AsyncOp::source).
struct AsyncSource {
  const Warp *warp = nullptr;
  const Instruction *inst = nullptr;
  std::vector<const Cta *> shared;
};

struct AsyncOp {
  uint64_t id;
  uint64_t due; // scheduler step from which it may complete
  Cta *owner;
  const char *what; // a literal: "TMA load", "cp.async", ...
  std::function<void()> complete;
  /// Where it was issued, and the CTAs whose shared memory (mbarriers
  /// included) it reads or writes when it completes: none of them may
  /// exit before then.
  AsyncSource source;
};

struct Machine {
  const Kernel &kernel;
  const std::vector<uint8_t> &params;
  const LaunchOptions &options;
  Memory &memory;
  std::mt19937_64 random;
  uint64_t step = 0;
  uint64_t nextAsyncId = 1;
  std::vector<AsyncOp> async;
  uint64_t warpInstructions = 0;
  Cluster *cluster = nullptr;
  /// FA4_EMU_TRACE set: every warp instruction is printed to stderr.
  bool trace = std::getenv("FA4_EMU_TRACE") != nullptr;
  /// LaunchOptions::coverage: warp instructions executed per instruction
  /// (empty without it).
  std::vector<uint64_t> executed;

  Machine(const Kernel &kernel, const std::vector<uint8_t> &params,
          const LaunchOptions &options, Memory &memory)
      : kernel(kernel), params(params), options(options), memory(memory),
        random(options.seed) {
    if (options.coverage)
      executed.assign(kernel.code.size(), 0);
  }

  /// Queues `complete` to run after a random number of scheduler steps.
  uint64_t startAsync(Cta &owner, const char *what,
                      std::function<void()> complete, AsyncSource source = {});
  /// Runs op `id` now if it is still pending.
  void finishAsync(uint64_t id);
  bool asyncPending(uint64_t id) const;
};

/// Throws ExecutionError: "<kernel> line N (<opcode>): <what>; CTA (x, y, z)
/// warp w lane l".
[[noreturn]] void fail(const Cta &cta, const Warp &warp,
                       const Instruction &inst, uint32_t mask,
                       const std::string &what);

/// Operand `i` of `inst`, or an operand of kind None past the last.
const Operand &op(const Instruction &inst, size_t i);
/// A memory operand's address for `lane`: its base register plus offset.
uint64_t addressOf(Warp &warp, int lane, const Operand &operand);
/// `.sync.aligned`: every live lane of the warp executes it together.
void requireConverged(Cta &cta, Warp &warp, const Instruction &inst,
                      uint32_t mask);

/// The host bytes an access of `bytes` at `address` in `space` touches,
/// after checking bounds and alignment; `write` for stores.
uint8_t *resolve(Cta &cta, Warp &warp, const Instruction &inst, int lane,
                 Space space, uint64_t address, uint32_t bytes, bool write);

/// A shared address's CTA and offset; throws ExecutionError for a rank
/// outside the cluster or a CTA that has exited.
Cta &sharedTarget(Cta &cta, uint64_t address, uint32_t &offset);
/// sharedTarget, failing with the instruction's context.
Cta &sharedTarget(Cta &cta, Warp &warp, const Instruction &inst, uint32_t mask,
                  uint64_t address, uint32_t &offset);
/// Fails unless `target`, a CTA of `cta`'s cluster, is still running.
void requireRunning(Cta &cta, Warp &warp, const Instruction &inst,
                    uint32_t mask, const Cta &target);

/// Mbarrier at a shared address, created on init.
Mbarrier &mbarrierAt(Cta &cta, Warp &warp, const Instruction &inst,
                     uint64_t address, uint32_t &offset, Cta *&owner);
/// Changes of any mbarrier on this thread so far (a sleeping warp's wait
/// may have become true).
uint64_t mbarrierEventCount();
/// Counts `count` arrivals (and `txBytes` expected) on `barrier`, completing
/// its phase when both reach zero.
void arrive(Mbarrier &barrier, uint32_t count, int64_t txBytes);
/// A TMA transfer's `bytes` arrived.
void completeTx(Mbarrier &barrier, int64_t bytes);

std::mutex &statisticsMutex();
Statistics &statisticsTotals();

/// The asynchronous handlers (Async.cpp).
void handleMbarrier(Cta &, Warp &, const Instruction &, uint32_t);
void handleCpAsync(Cta &, Warp &, const Instruction &, uint32_t);
void handleWgmma(Cta &, Warp &, const Instruction &, uint32_t);
void handleTcgen05(Cta &, Warp &, const Instruction &, uint32_t);
/// tensormap.replace and tensormap.cp_fenceproxy, and the acquire fence.
void handleTensormap(Cta &, Warp &, const Instruction &, uint32_t);
void acquireTensorMaps(Cta &, Warp &, const Instruction &, uint32_t);
/// At a CTA's exit: tensor memory still allocated is an error.
void checkTmemReleased(Cta &cta);
/// Completes every wgmma group beyond the newest `keep` (wait_group).
void retireWgmma(Warp &warp, size_t keep);

} // namespace fa4::emu

#endif // FA4_EMU_MACHINE_H
