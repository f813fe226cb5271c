//===- LaunchPlan.cpp - Grid and scalar arguments of a launch -------------===//

#include "LaunchPlan.h"

#include "Error.h"

#include <algorithm>
#include <cmath>

using namespace fa4::rt;

/// The product of `factors`, or limit + 1 once it would exceed `limit`
/// (checked before each multiplication, so it never wraps).
static uint64_t product(const std::vector<GridFactor> &factors,
                        const Bindings &bindings, uint64_t limit) {
  uint64_t size = 1;
  for (const GridFactor &factor : factors) {
    uint64_t value = 0;
    switch (factor.kind) {
    case GridFactor::Kind::Constant:
      value = factor.constant;
      break;
    case GridFactor::Kind::Symbol:
      value = bindings[factor.symbol];
      break;
    case GridFactor::Kind::CeilDiv:
      value = (bindings[factor.symbol] + factor.divisor - 1) / factor.divisor;
      break;
    }
    if (value != 0 && size > limit / value)
      return limit + 1;
    size *= value;
  }
  return size;
}

uint64_t fa4::rt::evaluateWorkspaceBytes(const Manifest &manifest,
                                         const Bindings &bindings) {
  if (!manifest.combine)
    return 0;
  constexpr uint64_t limit = 1ull << 40;
  uint64_t bytes = product(manifest.workspaceBytes, bindings, limit);
  if (bytes > limit)
    throw Error(FA4_ERROR_VALIDATION,
                "the split-K workspace for these sizes exceeds 1 TiB");
  return bytes;
}

std::array<uint32_t, 3> fa4::rt::evaluateGrid(const LaunchSpec &launch,
                                              const Bindings &bindings) {
  // CUDA grid limits: x < 2^31, y and z <= 65535.
  static const uint64_t maxGrid[3] = {(1ull << 31) - 1, 65535, 65535};
  std::array<uint32_t, 3> grid;
  for (int d = 0; d < 3; ++d) {
    uint64_t size = product(launch.grid[d], bindings, maxGrid[d]);
    std::string dimName = std::string("launch grid ") + "xyz"[d];
    // A size the launch does not bind (a manifest whose grid names "skv"
    // in a paged kernel) counts 0: no kernel runs on an empty grid.
    if (size == 0)
      throw Error(FA4_ERROR_VALIDATION,
                  dimName + " is 0 blocks for these sizes (the manifest's "
                            "grid names a size this launch does not bind)");
    if (size > maxGrid[d])
      throw Error(FA4_ERROR_VALIDATION,
                  dimName + " exceeds the CUDA limit of " +
                      std::to_string(maxGrid[d]) + " blocks for these sizes");
    if (size % launch.cluster[d] != 0)
      throw Error(FA4_ERROR_VALIDATION,
                  dimName + " is " + std::to_string(size) +
                      " blocks, not a multiple of the cluster dim " +
                      std::to_string(launch.cluster[d]));
    grid[d] = static_cast<uint32_t>(size);
  }
  return grid;
}

/// The keys a split is sized for: Skv, or a serving form's most keys of
/// one sequence as the host knows it without reading the index tensors
/// (a paged cache's block-table row, or the packed Tk).
static int64_t splitKeys(const Manifest &manifest, const Bindings &bindings) {
  if (bindings.isBound(Symbol::SeqKV))
    return bindings[Symbol::SeqKV];
  if (bindings.isBound(Symbol::MaxPages))
    return bindings[Symbol::MaxPages] * manifest.problem.pageSize;
  if (bindings.isBound(Symbol::TokensK))
    return bindings[Symbol::TokensK];
  return 0;
}

/// The partitions p (1 to `most`) of `workItems` whose waves on `numSMs`
/// SMs, ceil(workItems p / numSMs), each do the most work: the fewest whose
/// cost, waves / p, is within 5% of the least. floor(numSMs / workItems)
/// alone left SMs idle between its steps: 72 work items got one partition,
/// 72 CTAs on 132 SMs, and the decode ran 9-11% behind cuDNN's (D-63).
static int64_t balancedPartitions(int64_t workItems, int64_t most,
                                  uint32_t numSMs) {
  if (workItems <= 0 || numSMs == 0 || most <= 1)
    return 1;
  auto cost = [&](int64_t p) {
    return double((workItems * p + numSMs - 1) / numSMs) / double(p);
  };
  double least = cost(1);
  for (int64_t p = 2; p <= most; ++p)
    least = std::min(least, cost(p));
  int64_t p = 1;
  while (cost(p) > least * 1.05)
    ++p;
  return p;
}

void fa4::rt::bindSplits(const Manifest &manifest, Bindings &bindings,
                         uint32_t numSMs) {
  if (!manifest.splitAtLaunch)
    return;
  const Manifest::SplitAtLaunch &rule = *manifest.splitAtLaunch;
  // The work items: the attention grid without its partitions (x).
  bindings.bind(Symbol::Splits, 1, "the split-K rule");
  std::array<uint32_t, 3> grid = evaluateGrid(manifest.launch, bindings);
  int64_t workItems = int64_t(grid[1]) * grid[2];
  int64_t keys = splitKeys(manifest, bindings);
  // Partitions of at least the minimum keys, or of one key tile where those
  // are fewer than the rule's minimum count.
  int64_t byKeys = std::max(keys / rule.minKeysPerPartition,
                            std::min(keys / rule.keyTile, rule.minPartitions));
  int64_t partitions = balancedPartitions(
      workItems, std::min(byKeys, rule.maxPartitions), numSMs);
  // No partition of the kernel's ceil(tiles / P) tiles is left empty.
  int64_t tiles = (keys + rule.keyTile - 1) / rule.keyTile;
  if (tiles > 0) {
    int64_t tilesPerPartition = (tiles + partitions - 1) / partitions;
    partitions = (tiles + tilesPerPartition - 1) / tilesPerPartition;
  }
  bindings.bind(Symbol::Splits, partitions,
                "the split-K rule for these sizes picked");
}

bool fa4::rt::persistentApplies(const LaunchSpec &launch,
                                const Bindings &bindings, uint32_t numSMs) {
  // numSMs 0: the device's count is unknown, launch the grid as written.
  return launch.persistent && numSMs != 0 &&
         bindings[Symbol::SeqKV] <= launch.persistent->maxSeqKV;
}

std::array<uint32_t, 3> fa4::rt::persistentGrid(const LaunchSpec &launch,
                                                const Bindings &bindings,
                                                std::array<uint32_t, 3> grid,
                                                uint32_t numSMs,
                                                uint32_t maxCtas) {
  if (!persistentApplies(launch, bindings, numSMs))
    return grid;
  uint64_t ctas = uint64_t(numSMs) * launch.persistent->ctasPerSM;
  if (maxCtas != 0)
    ctas = std::min<uint64_t>(ctas, maxCtas);
  // Whole clusters (version 10's pairs of CTAs), at least one.
  uint64_t clusterX = launch.cluster[0];
  ctas = std::max<uint64_t>(clusterX, ctas / clusterX * clusterX);
  grid[0] = static_cast<uint32_t>(std::min<uint64_t>(grid[0], ctas));
  return grid;
}

LaunchGrids fa4::rt::evaluateGrids(const Manifest &manifest,
                                   const Bindings &bindings) {
  LaunchGrids grids;
  grids.kernel = evaluateGrid(manifest.launch, bindings);
  if (manifest.twin)
    grids.twin = evaluateGrid(manifest.twin->launch, bindings);
  return grids;
}

LaunchChoice fa4::rt::chooseLaunch(const Manifest &manifest,
                                   const Bindings &bindings,
                                   const LaunchGrids &grids, bool hasTwin,
                                   uint32_t numSMs, uint32_t maxCtas) {
  LaunchChoice choice;
  choice.launch = &manifest.launch;
  choice.params = &manifest.params;
  choice.grid = grids.kernel;
  if (!persistentApplies(manifest.launch, bindings, numSMs))
    return choice;
  // A kernel launched in clusters beside a twin (version 10) takes one work
  // item a pair and does not loop: without the twin it runs on its whole
  // grid.
  if (!hasTwin && !manifest.launch.persistent->kernel.empty() &&
      manifest.launch.inClusters())
    return choice;
  choice.twin = hasTwin;
  if (hasTwin && manifest.twin) {
    choice.twinOwnLaunch = true;
    choice.launch = &manifest.twin->launch;
    choice.params = &manifest.twin->params;
    choice.grid = *grids.twin;
  }
  choice.grid =
      persistentGrid(*choice.launch, bindings, choice.grid, numSMs, maxCtas);
  return choice;
}

ScalarValue fa4::rt::evaluateScalar(const ScalarParam &param,
                                    const Manifest &manifest,
                                    const Bindings &bindings,
                                    const fa4_serving_args &args) {
  double value = 0;
  switch (param.source) {
  case ScalarParam::Source::Symbol:
    value = static_cast<double>(bindings[param.symbol]);
    break;
  case ScalarParam::Source::Stride: {
    TensorSlot slot = manifest.tensors[param.tensor].slot;
    value = static_cast<double>(tensorInSlot(args, slot).strides[param.dim]);
    break;
  }
  case ScalarParam::Source::Scale:
    value = manifest.problem.scale;
    break;
  case ScalarParam::Source::ScaleLog2:
    // The kernel computes softmax with exp2, so log2(e) is folded in here.
    value = manifest.problem.scale * 1.4426950408889634;
    break;
  case ScalarParam::Source::Literal:
    value = param.literal;
    break;
  }
  ScalarValue result;
  result.type = param.type;
  switch (param.type) {
  case ScalarType::I32:
    if (value < INT32_MIN || value > INT32_MAX)
      throw Error(FA4_ERROR_VALIDATION,
                  "scalar " + param.spelling + " = " +
                      std::to_string(static_cast<int64_t>(value)) +
                      " does not fit the kernel's i32 parameter");
    result.i32 = static_cast<int32_t>(value);
    break;
  case ScalarType::I64:
    result.i64 = static_cast<int64_t>(value);
    break;
  case ScalarType::F32:
    result.f32 = static_cast<float>(value);
    break;
  }
  return result;
}
