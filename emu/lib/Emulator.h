//===- Emulator.h - Run fa4's PTX on the CPU ---------------------*- C++
//-*-===//
//
// fa4-emu's execution model (docs/Emulator.md): a module of PTX is loaded
// (Ptx.h) and each entry decoded once into instructions with their
// handlers; a launch runs every cluster of the grid, the warps of all its
// CTAs in lockstep with active masks, interleaved by a seeded random
// scheduler, with the asynchronous units (TMA, wgmma, bulk stores)
// completing later in random order. Device memory is host memory; every
// global access is checked against the allocations the driver made.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_EMU_EMULATOR_H
#define FA4_EMU_EMULATOR_H

#include "Ptx.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace fa4::emu {

/// A kernel that did something the PTX ISA leaves undefined or that would
/// hang or fault on the GPU: the message says what, where (line, opcode)
/// and who (CTA, warp, lanes).
class ExecutionError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A launch that executed more warp instructions than its step limit
/// (LaunchOptions::stepLimit): a kernel that never ends would otherwise
/// run forever. The shim returns CUDA_ERROR_LAUNCH_TIMEOUT.
class StepLimitError : public ExecutionError {
public:
  using ExecutionError::ExecutionError;
};

/// Shared memory per CTA, static and dynamic together: 227 KB, the opt-in
/// maximum of the H100, the H200 and the B200
/// (CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN).
constexpr uint32_t kMaxSharedBytes = 232448;
/// Kernel parameter space: 32764 bytes (CUDA 12.1 and later, Volta on).
constexpr uint64_t kMaxParamBytes = 32764;
/// Device memory: the H200's 141 GB (143771 MiB); a larger cuMemAlloc
/// fails as on the device.
constexpr uint64_t kDeviceMemoryBytes = uint64_t(143771) << 20;
/// Warp instructions per launch before StepLimitError
/// (FA4_EMU_STEP_LIMIT): 10^9, about 800 times the largest launch of the
/// CI sample (1,234,858 on 2026-12-06) and some 25 minutes of emulation
/// on the 2-core development machine (docs/Emulator.md, "Limits and
/// lifetimes").
constexpr uint64_t kDefaultStepLimit = 1000000000;

/// Device memory: host allocations the emulated driver hands out, by base.
class Memory {
public:
  uint64_t allocate(size_t bytes);
  /// False if `address` is not the base of a live allocation.
  bool release(uint64_t address);
  /// Whether [address, address + bytes) lies inside one allocation.
  bool contains(uint64_t address, uint64_t bytes) const;
  /// Registers memory owned elsewhere (a module's globals).
  void add(uint64_t address, uint64_t bytes);

private:
  mutable std::mutex mutex;
  std::map<uint64_t, uint64_t> allocations; // base -> bytes
};

struct Kernel;

/// A loaded PTX module: its entries decoded, its globals in device memory.
class Module {
public:
  Module(const std::string &ptxText, Memory &memory);
  ~Module();
  const Kernel *kernel(const std::string &name) const;
  std::vector<const Kernel *> entries() const;
  /// A .global or .const variable: its device address and size.
  bool global(const std::string &name, uint64_t &address,
              uint64_t &bytes) const;
  const std::string &target() const { return ptx.target; }
  /// FNV-1a (64 bits) of the PTX text: names the module in coverage
  /// records (LaunchOptions::coverage).
  uint64_t hash() const { return textHash; }

private:
  ptx::Module ptx;
  uint64_t textHash = 0;
  Memory &memory;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
  struct Variable {
    std::vector<uint8_t> storage;
    uint64_t address;
  };
  std::map<std::string, Variable> globals;
};

/// What a kernel's parameters are, for cuFuncGetParamInfo.
struct ParamLayout {
  size_t offset, bytes;
};
std::vector<ParamLayout> paramLayout(const Kernel &kernel);
/// The most threads per block (.maxntid / .reqntid; 1024 when absent).
int maxThreadsPerBlock(const Kernel &kernel);
/// Static shared memory bytes (module .shared variables).
int staticSharedBytes(const Kernel &kernel);

struct LaunchOptions {
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1}, cluster{1, 1, 1};
  uint32_t dynamicSmemBytes = 0;
  /// Warp instructions the launch may execute (0: no limit); past it,
  /// StepLimitError naming the kernel. FA4_EMU_STEP_LIMIT in the shim.
  uint64_t stepLimit = kDefaultStepLimit;
  /// Scheduler seed: the same seed replays the same interleaving.
  uint64_t seed = 1;
  /// A warp of each CTA that runs only while no other warp of its cluster
  /// can (-1: none): the most adversarial schedule for it, so that a
  /// missing synchronisation with that warp shows on the first run.
  /// FA4_EMU_LAGGARD=W in the shim.
  int laggardWarp = -1;
  /// How the scheduler orders a cluster's warps and asynchronous
  /// completions (docs/Emulator.md, "Scheduler"); FA4_EMU_SCHEDULE in the
  /// shim (parseSchedule). Random: a random ready warp runs 1 to 16
  /// instructions, a due operation completes now and then. Pct
  /// (probabilistic concurrency testing, Burckhardt et al., ASPLOS 2010):
  /// every warp and every asynchronous operation gets a random priority
  /// and the highest ready one runs one instruction (or completes), so a
  /// warp runs ahead until it blocks; at pctDepth - 1 random change points
  /// the running warp drops below all others. Orders that random sampling
  /// almost never makes (a producer many instructions ahead of a reader)
  /// come with probability about 1 / warps.
  enum class Schedule : uint8_t { Random, Pct };
  Schedule schedule = Schedule::Random;
  int pctDepth = 1;
  /// Pct's change points fall in a cluster's first pctHorizon warp
  /// instructions (0: as many as the launch's previous cluster took; the
  /// first cluster 65536).
  uint64_t pctHorizon = 0;
  /// Warps of each CTA (bit W: warp W) that run only while no other warp
  /// of the cluster can, as laggardWarp: a role delayed as long as the
  /// kernel allows.
  uint32_t delayedWarps = 0;
  /// Asynchronous operations (TMA, wgmma, cp.async, tcgen05 commits)
  /// complete only when no warp can run or a wait forces them: the widest
  /// window for a read before its copy lands.
  bool delayAsync = false;
  /// Multiprocessors reported by %nsmid (the device's).
  uint32_t numSMs = 132;
  /// The tcgen05 orderings FlashAttention-4's CuTe-DSL kernels (run on
  /// B200s by their authors) leave out, relaxed for running them as a
  /// second opinion (docs/Emulator.md): a tcgen05.ld destination register
  /// is valid at its first use, as if scoreboarded, not only after
  /// tcgen05.wait::ld; tcgen05.dealloc may free columns that unfinished
  /// MMAs write, which stay readable until the CTA exits; and tcgen05 work
  /// after a wait on a commit's mbarrier needs no
  /// tcgen05.fence::after_thread_sync.
  /// Off by default: fa4's own kernels pass the strict rules.
  /// FA4_EMU_RULES=lenient in the shim.
  bool tcgen05Lenient = false;
  /// Count the warp instructions executed at each instruction, added to
  /// the process's totals (coverage()). FA4_EMU_COVERAGE in the shim.
  bool coverage = false;
};

/// Sets the scheduler of `options` from FA4_EMU_SCHEDULE's grammar:
/// "random", "pct:D" or "pct:D:H" (depth D >= 1, horizon H >= 1), or
/// "delay:LIST" (LIST: comma-separated warp indices 0 to 31, ranges A-B,
/// and "async"). Returns why `text` is not one ("" when it is).
std::string parseSchedule(const std::string &text, LaunchOptions &options);
/// The FA4_EMU_SCHEDULE and FA4_EMU_SEED that replay `options`' schedule.
std::string describeSchedule(const LaunchOptions &options);

/// Why the driver would refuse this launch configuration (a block of more
/// threads than the kernel allows, an empty grid, a grid not a multiple of
/// the cluster, more shared memory than the chip has), or "".
std::string invalidLaunch(const Kernel &kernel, const LaunchOptions &options);

/// Runs `kernel` over the whole grid with the parameters `params` (the
/// kernel's parameter space, laid out as paramLayout says); throws
/// ExecutionError.
void launch(const Kernel &kernel, const std::vector<uint8_t> &params,
            const LaunchOptions &options, Memory &memory);

/// Counters of the last launches in this process, for speed reports.
struct Statistics {
  uint64_t warpInstructions = 0;
  uint64_t largestLaunch = 0; // warp instructions of the largest launch
  double seconds = 0;
};
Statistics statistics();

/// Per kernel (a name in one module's PTX, its hash), every PTX line that
/// holds an instruction with the warp instructions executed there, summed
/// over this process's launches with LaunchOptions::coverage.
struct KernelCoverage {
  std::string kernel;
  uint64_t moduleHash = 0;
  std::map<int, uint64_t> lines;
};
std::vector<KernelCoverage> coverage();
/// Enters `kernel` in coverage() with every count 0: a kernel loaded and
/// never launched shows as such.
void addCoverage(const Kernel &kernel);

} // namespace fa4::emu

#endif // FA4_EMU_EMULATOR_H
