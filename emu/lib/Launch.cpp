//===- Launch.cpp - A grid, cluster by cluster, on a random schedule ------===//

#include "Machine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <unordered_map>

using namespace fa4::emu;

namespace {

/// Runs the instruction at the top path's pc for its lanes; a branch that
/// splits them pushes both paths to meet at the branch's reconvergence
/// point (its block's immediate post-dominator).
void stepWarp(Cta &cta, Warp &warp) {
  const Kernel &kernel = cta.machine->kernel;
  while (!warp.paths.empty()) {
    Warp::Path &top = warp.paths.back();
    top.mask &= warp.live;
    if (top.mask && int32_t(top.pc) != top.reconverge)
      break;
    warp.paths.pop_back();
  }
  if (warp.paths.empty()) {
    warp.live = 0;
    warp.state = Warp::State::Done;
    return;
  }
  Warp::Path &top = warp.paths.back();
  uint32_t pc = top.pc, mask = top.mask;
  if (pc >= kernel.code.size())
    throw ExecutionError("fa4-emu: " + kernel.name + ": warp " +
                         std::to_string(warp.index) +
                         " ran past the last instruction (no ret)");
  const Instruction &inst = kernel.code[pc];
  uint32_t active = mask;
  if (inst.guard >= 0) {
    active = 0;
    for (int lane = 0; lane < 32; ++lane)
      if (mask >> lane & 1) {
        bool guard = warp.regs[size_t(inst.guard) * 32 + size_t(lane)] & 1;
        if (guard != inst.guardNegated)
          active |= 1u << lane;
      }
  }
  ++cta.machine->warpInstructions;
  if (!cta.machine->executed.empty())
    ++cta.machine->executed[pc];
  if (cta.machine->trace)
    std::fprintf(stderr,
                 "fa4-emu trace: CTA (%u,%u,%u) warp %d line %d %s "
                 "lanes %08x\n",
                 cta.ctaid[0], cta.ctaid[1], cta.ctaid[2], warp.index,
                 inst.line, inst.name.c_str(), active);
  if (inst.target >= 0) {
    uint32_t taken = active, fallThrough = mask & ~active;
    if (!fallThrough) {
      top.pc = uint32_t(inst.target);
    } else if (!taken) {
      top.pc = pc + 1;
    } else {
      int32_t meet = kernel.reconvergence[pc];
      if (meet >= 0) {
        top.pc = uint32_t(meet);
        warp.paths.push_back({pc + 1, fallThrough, meet});
      } else {
        top.pc = pc + 1;
        top.mask = fallThrough;
      }
      warp.paths.push_back({uint32_t(inst.target), taken, meet});
    }
    return;
  }
  top.pc = pc + 1;
  if (!active)
    return;
  try {
    inst.handler(cta, warp, inst, active);
  } catch (const PendingRegister &pending) {
    fail(cta, warp, inst, active,
         "register #" + std::to_string(pending.reg) +
             " is accessed while an asynchronous operation writing it has "
             "not been waited for (wgmma.mma_async before wgmma.wait_group, "
             "tcgen05.ld before tcgen05.wait::ld)");
  }
  if (!warp.live)
    warp.state = Warp::State::Done;
}

bool ready(Warp &warp) {
  if (warp.state == Warp::State::Spin &&
      warp.spinOn->version != warp.spinVersion)
    warp.state = Warp::State::Ready;
  return warp.state == Warp::State::Ready;
}

std::string describeWait(const Cta &cta, const Warp &warp) {
  std::ostringstream out;
  out << "CTA (" << cta.ctaid[0] << ", " << cta.ctaid[1] << ", " << cta.ctaid[2]
      << ") warp " << warp.index << ": ";
  switch (warp.state) {
  case Warp::State::Barrier: {
    const NamedBarrier &barrier = cta.barriers[warp.barrierId];
    out << "bar.sync " << warp.barrierId << " (" << barrier.arrived << " of "
        << barrier.expected << " threads arrived)";
    break;
  }
  case Warp::State::ClusterBarrier:
    out << "barrier.cluster.wait";
    break;
  case Warp::State::Spin:
    out << "mbarrier at shared offset " << warp.spinOffset << ", parity "
        << warp.spinParity << " (phase " << warp.spinOn->phase
        << " in progress, " << warp.spinOn->pending << " arrivals and "
        << warp.spinOn->tx << " tx bytes missing)";
    break;
  default:
    out << "running";
  }
  return out.str();
}

std::string ctaName(const Cta &cta) {
  return "CTA (" + std::to_string(cta.ctaid[0]) + ", " +
         std::to_string(cta.ctaid[1]) + ", " + std::to_string(cta.ctaid[2]) +
         ")";
}

/// Past LaunchOptions::stepLimit: where `warp` of `cta` (the last to run)
/// was, to point at the loop that does not end.
[[noreturn]] void stepLimitExceeded(Machine &machine, const Cta &cta,
                                    const Warp &warp) {
  std::ostringstream out;
  out << "fa4-emu: " << machine.kernel.name << ": the launch executed more "
      << "than " << machine.options.stepLimit
      << " warp instructions (FA4_EMU_STEP_LIMIT; 0 lifts the limit): a "
         "kernel that never ends? "
      << ctaName(cta) << " warp " << warp.index;
  if (!warp.paths.empty() && warp.paths.back().pc < machine.kernel.code.size())
    out << " is at line " << machine.kernel.code[warp.paths.back().pc].line;
  throw StepLimitError(out.str());
}

/// A CTA exits with its last warp: its shared memory (and tensor memory)
/// is released for the cluster. An asynchronous operation still reading or
/// writing that shared memory is an error here; a peer reaching it later
/// fails in sharedTarget.
void exitIfDone(Machine &machine, Cta &cta) {
  if (cta.exited)
    return;
  for (const Warp &warp : cta.warps)
    if (warp.state != Warp::State::Done)
      return;
  cta.exited = true;
  for (const AsyncOp &op : machine.async) {
    const AsyncSource &source = op.source;
    if (std::find(source.shared.begin(), source.shared.end(), &cta) ==
        source.shared.end())
      continue;
    std::ostringstream out;
    out << "fa4-emu: " << machine.kernel.name << ": " << ctaName(cta)
        << " exited while a " << op.what;
    if (source.inst)
      out << " (line " << source.inst->line << ", " << ctaName(*op.owner)
          << " warp " << source.warp->index << ")";
    out << " that reads or writes its shared memory is in flight: a CTA's "
           "shared memory is released when it exits (wait for the copy's "
           "mbarrier or cp.async.bulk.wait_group.read first)";
    throw ExecutionError(out.str());
  }
  checkTmemReleased(cta);
}

[[noreturn]] void deadlock(Machine &machine, Cluster &cluster) {
  std::ostringstream out;
  out << "fa4-emu: " << machine.kernel.name
      << ": deadlock: every warp of the cluster waits and no asynchronous "
         "operation is in flight";
  for (const auto &cta : cluster.ctas)
    for (const Warp &warp : cta->warps)
      if (warp.state != Warp::State::Done)
        out << "\n  " << describeWait(*cta, warp);
  throw ExecutionError(out.str());
}

/// A cluster barrier phase completes once every warp that has not exited
/// arrived (exited warps count as arrived).
void completeClusterBarrier(Cluster &cluster) {
  uint64_t waiting = 0, live = 0;
  for (const auto &cta : cluster.ctas)
    for (const Warp &warp : cta->warps) {
      if (warp.state == Warp::State::Done)
        continue;
      ++live;
      waiting += warp.clusterArrivals > cluster.barrierPhases;
    }
  if (live == 0 || waiting < live)
    return;
  ++cluster.barrierPhases;
  for (const auto &cta : cluster.ctas)
    for (Warp &warp : cta->warps)
      if (warp.state == Warp::State::ClusterBarrier &&
          warp.clusterWaits <= cluster.barrierPhases)
        warp.state = Warp::State::Ready;
}

void completeSomeAsync(Machine &machine, bool any) {
  std::vector<size_t> due;
  for (size_t i = 0; i < machine.async.size(); ++i)
    if (any || machine.async[i].due <= machine.step)
      due.push_back(i);
  if (due.empty())
    return;
  size_t pick = due[machine.random() % due.size()];
  machine.finishAsync(machine.async[pick].id);
}

/// Wakes the warps sleeping on a failed try_wait, once per state of the
/// mbarriers: false when they were woken at this state already (so every
/// warp is stuck: a deadlock).
bool wakeSpinners(Cluster &cluster, uint64_t &wokeAt) {
  uint64_t now = mbarrierEventCount();
  if (wokeAt == now)
    return false;
  bool woke = false;
  for (auto &cta : cluster.ctas)
    for (Warp &warp : cta->warps)
      if (warp.state == Warp::State::Spin) {
        warp.state = Warp::State::Ready;
        woke = true;
      }
  wokeAt = now;
  return woke;
}

/// Whether warp `index` of each CTA runs only while no other can.
bool delayed(const LaunchOptions &options, size_t index) {
  return int(index) == options.laggardWarp ||
         (index < 32 && options.delayedWarps >> index & 1);
}

/// LaunchOptions::Schedule::Pct within one cluster: the priorities of its
/// asynchronous operations (drawn when first seen) and the change points,
/// in warp instructions from the cluster's start.
struct Pct {
  Machine &machine;
  std::unordered_map<uint64_t, uint64_t> asyncPriority;
  std::vector<uint64_t> changePoints;
  size_t nextChange = 0;

  Pct(Machine &machine, Cluster &cluster, uint64_t horizon) : machine(machine) {
    for (auto &cta : cluster.ctas)
      for (Warp &warp : cta->warps)
        warp.priority = draw();
    for (int i = 1; i < machine.options.pctDepth; ++i)
      changePoints.push_back(1 + machine.random() % horizon);
    std::sort(changePoints.begin(), changePoints.end());
  }

  /// Above every priority a change point gives (1 to depth - 1).
  uint64_t draw() {
    return uint64_t(machine.options.pctDepth) +
           machine.random() % (uint64_t(1) << 62);
  }

  /// The asynchronous operation of highest priority, if any.
  const AsyncOp *bestAsync(uint64_t &priority) {
    const AsyncOp *best = nullptr;
    for (const AsyncOp &op : machine.async) {
      auto [it, fresh] = asyncPriority.try_emplace(op.id, 0);
      if (fresh)
        it->second = draw();
      if (!best || it->second > priority) {
        best = &op;
        priority = it->second;
      }
    }
    // Forget operations a wait completed.
    if (asyncPriority.size() > 2 * machine.async.size() + 64)
      for (auto it = asyncPriority.begin(); it != asyncPriority.end();)
        it = machine.asyncPending(it->first) ? std::next(it)
                                             : asyncPriority.erase(it);
    return best;
  }

  /// The warp about to execute the cluster's `executed`-th instruction
  /// drops below every other at each change point passed.
  void change(Warp &warp, uint64_t executed) {
    while (nextChange < changePoints.size() &&
           changePoints[nextChange] <= executed)
      warp.priority = ++nextChange;
  }
};

void runCluster(Machine &machine, Cluster &cluster, uint64_t horizon) {
  const LaunchOptions &options = machine.options;
  std::optional<Pct> pct;
  if (options.schedule == LaunchOptions::Schedule::Pct)
    pct.emplace(machine, cluster, horizon);
  uint64_t start = machine.warpInstructions;
  std::vector<std::pair<Cta *, Warp *>> runnable, laggards;
  uint64_t wokeAt = ~uint64_t(0);
  while (true) {
    ++machine.step;
    completeClusterBarrier(cluster);
    runnable.clear();
    laggards.clear();
    bool allDone = true;
    for (auto &cta : cluster.ctas)
      for (size_t index = 0; index < cta->warps.size(); ++index) {
        Warp &warp = cta->warps[index];
        allDone &= warp.state == Warp::State::Done;
        if (ready(warp))
          (delayed(options, index) ? laggards : runnable)
              .push_back({cta.get(), &warp});
      }
    // The laggard runs only where nothing else can (LaunchOptions).
    if (runnable.empty())
      runnable.swap(laggards);
    std::pair<Cta *, Warp *> pick{nullptr, nullptr};
    if (pct) {
      // The ready warp or the operation of highest priority.
      for (auto candidate : runnable)
        if (!pick.second || candidate.second->priority > pick.second->priority)
          pick = candidate;
      uint64_t opPriority = 0;
      const AsyncOp *op = pct->bestAsync(opPriority);
      if (op && (!pick.second || opPriority > pick.second->priority)) {
        machine.finishAsync(op->id);
        continue;
      }
    } else {
      bool asyncDue = false;
      for (const AsyncOp &op : machine.async)
        asyncDue |= op.due <= machine.step;
      if (!machine.async.empty() &&
          (runnable.empty() ||
           (!options.delayAsync && asyncDue && machine.random() % 4 == 0))) {
        completeSomeAsync(machine, runnable.empty());
        continue;
      }
    }
    if (runnable.empty()) {
      if (allDone)
        return;
      if (wakeSpinners(cluster, wokeAt))
        continue;
      deadlock(machine, cluster);
    }
    int burst = 1;
    if (pct) {
      // One instruction: an operation it issues may outrank it.
      pct->change(*pick.second, machine.warpInstructions - start + 1);
    } else {
      pick = runnable[machine.random() % runnable.size()];
      burst = 1 + int(machine.random() % 16);
    }
    auto [cta, warp] = pick;
    for (int i = 0; i < burst && warp->state == Warp::State::Ready; ++i)
      stepWarp(*cta, *warp);
    if (warp->state == Warp::State::Done)
      exitIfDone(machine, *cta);
    uint64_t limit = options.stepLimit;
    if (limit && machine.warpInstructions > limit)
      stepLimitExceeded(machine, *cta, *warp);
  }
}

std::unique_ptr<Cluster> makeCluster(Machine &machine,
                                     const std::array<uint32_t, 3> &origin) {
  const LaunchOptions &options = machine.options;
  const Kernel &kernel = machine.kernel;
  auto cluster = std::make_unique<Cluster>();
  for (int d = 0; d < 3; ++d)
    cluster->clusterid[d] = origin[d] / options.cluster[d];
  uint32_t threads = options.block[0] * options.block[1] * options.block[2];
  size_t smemBytes =
      size_t(kernel.dynamicSmemOffset) + options.dynamicSmemBytes;
  for (uint32_t z = 0; z < options.cluster[2]; ++z)
    for (uint32_t y = 0; y < options.cluster[1]; ++y)
      for (uint32_t x = 0; x < options.cluster[0]; ++x) {
        auto cta = std::make_unique<Cta>();
        cta->cluster = cluster.get();
        cta->machine = &machine;
        cta->ctaid = {origin[0] + x, origin[1] + y, origin[2] + z};
        cta->clusterCtaid = {x, y, z};
        cta->rank = x + options.cluster[0] * (y + options.cluster[1] * z);
        cta->threads = threads;
        // Poisoned, as uninitialized shared memory may hold anything.
        cta->smem.assign(smemBytes, 0xa5);
        cta->asyncWritesPending.assign(smemBytes, 0);
        cta->genericDirty.assign(smemBytes, 0);
        uint32_t warps = (threads + 31) / 32;
        cta->warps.resize(warps);
        for (uint32_t w = 0; w < warps; ++w) {
          Warp &warp = cta->warps[w];
          warp.cta = cta.get();
          warp.index = int(w);
          uint32_t lanes = std::min<uint32_t>(32, threads - w * 32);
          warp.live = lanes == 32 ? ~0u : (1u << lanes) - 1;
          warp.paths = {{0, warp.live, -1}};
          warp.regs.assign(size_t(kernel.numRegisters) * 32, 0);
          warp.pendingRegister.assign(size_t(kernel.numRegisters), 0);
        }
        cluster->ctas.push_back(std::move(cta));
      }
  return cluster;
}

/// What the cluster leaves in flight that touches no CTA's shared memory
/// completes (exitIfDone refused the rest).
void drainAsync(Machine &machine) {
  while (!machine.async.empty())
    machine.finishAsync(machine.async.front().id);
}

std::string invalidLaunchReason(const Kernel &kernel,
                                const LaunchOptions &options) {
  uint64_t threads = 1, ctasPerCluster = 1;
  for (int d = 0; d < 3; ++d) {
    if (options.grid[d] == 0 || options.block[d] == 0)
      return "an empty grid or block";
    if (options.cluster[d] == 0 || options.grid[d] % options.cluster[d])
      return "grid not a multiple of the cluster";
    threads *= options.block[d];
    ctasPerCluster *= options.cluster[d];
  }
  if (threads > uint64_t(kernel.maxThreads))
    return "a block of " + std::to_string(threads) + " threads; " +
           kernel.name + " takes at most " + std::to_string(kernel.maxThreads);
  // 16: the non-portable cluster size of the H100, H200 and B200.
  if (ctasPerCluster > 16)
    return "a cluster of " + std::to_string(ctasPerCluster) +
           " CTAs (at most 16)";
  uint64_t smem = uint64_t(kernel.dynamicSmemOffset) + options.dynamicSmemBytes;
  if (smem > kMaxSharedBytes)
    return std::to_string(smem) + " bytes of shared memory per CTA (at most " +
           std::to_string(kMaxSharedBytes) + ")";
  return "";
}

} // namespace

std::string fa4::emu::invalidLaunch(const Kernel &kernel,
                                    const LaunchOptions &options) {
  std::string reason = invalidLaunchReason(kernel, options);
  return reason.empty() ? "" : kernel.name + ": " + reason;
}

namespace {

struct CoverageTotals {
  std::mutex mutex;
  /// By (module hash, kernel name): per instruction, its line and count.
  std::map<std::pair<uint64_t, std::string>,
           std::vector<std::pair<int, uint64_t>>>
      kernels;
};

/// Never destroyed: the shim reports it from a static destructor.
CoverageTotals &coverageTotals() {
  static auto *totals = new CoverageTotals;
  return *totals;
}

/// The totals' counts of `kernel` (under the lock), made on first use.
std::vector<std::pair<int, uint64_t>> &coverageOf(CoverageTotals &totals,
                                                  const Kernel &kernel) {
  auto &counts = totals.kernels[{kernel.moduleHash, kernel.name}];
  if (counts.empty())
    for (const Instruction &inst : kernel.code)
      counts.push_back({inst.line, 0});
  return counts;
}

/// Adds a launch's counts to the totals when it ends, however it ends (a
/// failing launch covered what it ran).
struct CoverageRecorder {
  const Machine &machine;
  ~CoverageRecorder() {
    if (machine.executed.empty())
      return;
    CoverageTotals &totals = coverageTotals();
    std::lock_guard<std::mutex> lock(totals.mutex);
    auto &counts = coverageOf(totals, machine.kernel);
    for (size_t i = 0; i < counts.size(); ++i)
      counts[i].second += machine.executed[i];
  }
};

} // namespace

void fa4::emu::addCoverage(const Kernel &kernel) {
  CoverageTotals &totals = coverageTotals();
  std::lock_guard<std::mutex> lock(totals.mutex);
  coverageOf(totals, kernel);
}

std::vector<KernelCoverage> fa4::emu::coverage() {
  CoverageTotals &totals = coverageTotals();
  std::lock_guard<std::mutex> lock(totals.mutex);
  std::vector<KernelCoverage> result;
  for (const auto &[key, counts] : totals.kernels) {
    KernelCoverage kernel;
    kernel.moduleHash = key.first;
    kernel.kernel = key.second;
    for (const auto &[line, count] : counts)
      kernel.lines[line] += count;
    result.push_back(std::move(kernel));
  }
  return result;
}

void fa4::emu::launch(const Kernel &kernel, const std::vector<uint8_t> &params,
                      const LaunchOptions &options, Memory &memory) {
  auto start = std::chrono::steady_clock::now();
  std::string invalid = invalidLaunch(kernel, options);
  if (!invalid.empty())
    throw ExecutionError("fa4-emu: " + invalid);
  Machine machine(kernel, params, options, memory);
  CoverageRecorder recorder{machine};
  // Pct's horizon: the previous cluster's length (LaunchOptions).
  uint64_t horizon = options.pctHorizon ? options.pctHorizon : 65536;
  for (uint32_t z = 0; z < options.grid[2]; z += options.cluster[2])
    for (uint32_t y = 0; y < options.grid[1]; y += options.cluster[1])
      for (uint32_t x = 0; x < options.grid[0]; x += options.cluster[0]) {
        std::unique_ptr<Cluster> cluster = makeCluster(machine, {x, y, z});
        machine.cluster = cluster.get();
        uint64_t before = machine.warpInstructions;
        runCluster(machine, *cluster, horizon);
        if (!options.pctHorizon)
          horizon = std::max<uint64_t>(1, machine.warpInstructions - before);
        drainAsync(machine);
      }
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  std::lock_guard<std::mutex> lock(statisticsMutex());
  Statistics &totals = statisticsTotals();
  totals.warpInstructions += machine.warpInstructions;
  totals.largestLaunch =
      std::max(totals.largestLaunch, machine.warpInstructions);
  totals.seconds += elapsed.count();
}

namespace {

/// A decimal count in [low, high], or false.
bool parseCount(const std::string &text, uint64_t low, uint64_t high,
                uint64_t &value) {
  if (text.empty() || text.size() > 18 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  value = std::stoull(text);
  return value >= low && value <= high;
}

} // namespace

std::string fa4::emu::parseSchedule(const std::string &text,
                                    LaunchOptions &options) {
  std::string why = "FA4_EMU_SCHEDULE=" + text +
                    " is not random, pct:DEPTH[:HORIZON] or "
                    "delay:WARPS (warp indices 0 to 31, ranges A-B, async)";
  if (text.empty() || text == "random") {
    options.schedule = LaunchOptions::Schedule::Random;
    return "";
  }
  if (text.rfind("pct:", 0) == 0) {
    std::string rest = text.substr(4);
    size_t colon = rest.find(':');
    uint64_t depth, horizon = 0;
    if (!parseCount(rest.substr(0, colon), 1, 64, depth) ||
        (colon != std::string::npos &&
         !parseCount(rest.substr(colon + 1), 1, ~uint64_t(0) >> 8, horizon)))
      return why;
    options.schedule = LaunchOptions::Schedule::Pct;
    options.pctDepth = int(depth);
    options.pctHorizon = horizon;
    return "";
  }
  if (text.rfind("delay:", 0) != 0)
    return why;
  std::stringstream items(text.substr(6));
  std::string item;
  uint32_t warps = 0;
  bool async = false, any = false;
  while (std::getline(items, item, ',')) {
    any = true;
    if (item == "async") {
      async = true;
      continue;
    }
    size_t dash = item.find('-');
    uint64_t first, last;
    if (!parseCount(item.substr(0, dash), 0, 31, first))
      return why;
    last = first;
    if (dash != std::string::npos &&
        (!parseCount(item.substr(dash + 1), first, 31, last)))
      return why;
    for (uint64_t w = first; w <= last; ++w)
      warps |= 1u << w;
  }
  if (!any)
    return why;
  options.schedule = LaunchOptions::Schedule::Random;
  options.delayedWarps = warps;
  options.delayAsync = async;
  return "";
}

std::string fa4::emu::describeSchedule(const LaunchOptions &options) {
  std::string schedule;
  if (options.schedule == LaunchOptions::Schedule::Pct) {
    schedule = "pct:" + std::to_string(options.pctDepth);
    if (options.pctHorizon)
      schedule += ":" + std::to_string(options.pctHorizon);
  } else if (options.delayedWarps || options.delayAsync) {
    schedule = "delay:";
    for (int w = 0; w < 32; ++w)
      if (options.delayedWarps >> w & 1)
        schedule += std::to_string(w) + ",";
    schedule += options.delayAsync ? "async" : "";
    if (schedule.back() == ',')
      schedule.pop_back();
  } else {
    schedule = "random";
  }
  std::string replay = "FA4_EMU_SCHEDULE=" + schedule +
                       " FA4_EMU_SEED=" + std::to_string(options.seed);
  if (options.laggardWarp >= 0)
    replay += " FA4_EMU_LAGGARD=" + std::to_string(options.laggardWarp);
  return replay;
}
