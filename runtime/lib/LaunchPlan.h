//===- LaunchPlan.h - Grid and scalar arguments of a launch -----*- C++ -*-===//
//
// The pure part of a launch: what the manifest's grid and scalar parameters
// evaluate to for given runtime sizes. No driver calls, so it is unit-tested.
//
//===----------------------------------------------------------------------===//

#ifndef FA4_RUNTIME_LAUNCHPLAN_H
#define FA4_RUNTIME_LAUNCHPLAN_H

#include "Manifest.h"
#include "Validate.h"

#include <optional>

namespace fa4::rt {

/// Version 7: binds "splits", the partition count of a split-K picked at
/// launch (Manifest::splitAtLaunch), for these sizes on a device of
/// `numSMs` SMs (0: unknown, one partition). Does nothing without the rule.
/// Throws as evaluateGrid.
void bindSplits(const Manifest &manifest, Bindings &bindings, uint32_t numSMs);

/// Grid size in blocks. Throws Error(FA4_ERROR_VALIDATION) past the CUDA
/// grid limits or when a dim is not a multiple of the cluster dim.
std::array<uint32_t, 3> evaluateGrid(const LaunchSpec &launch,
                                     const Bindings &bindings);

/// Whether the launch runs on persistent CTAs: a persistent rule, skv at most
/// its max_seq_kv, and a known SM count (`numSMs` > 0).
bool persistentApplies(const LaunchSpec &launch, const Bindings &bindings,
                       uint32_t numSMs);

/// The grid to launch on a device of `numSMs` SMs: `grid` (evaluateGrid's),
/// with x capped at numSMs * ctas_per_sm when the launch is persistent and
/// skv is at most its max_seq_kv (never capped when numSMs is 0, unknown),
/// and then at `maxCtas` when that is not 0.
std::array<uint32_t, 3> persistentGrid(const LaunchSpec &launch,
                                       const Bindings &bindings,
                                       std::array<uint32_t, 3> grid,
                                       uint32_t numSMs, uint32_t maxCtas = 0);

/// The grids a launch may run on before the persistent cap: the kernel's
/// and, with version 6's `twin`, the twin's. Throws as evaluateGrid.
struct LaunchGrids {
  std::array<uint32_t, 3> kernel = {};
  std::optional<std::array<uint32_t, 3>> twin;
};
LaunchGrids evaluateGrids(const Manifest &manifest, const Bindings &bindings);

/// What a launch runs: the kernel on its grid, or, when the persistent rule
/// applies, on the capped grid: the kernel itself, or its twin where the
/// module has one (`hasTwin`), with the twin's own launch and parameters
/// where the manifest gives them (version 6's `twin`). `grids` are
/// evaluateGrids' for these sizes.
struct LaunchChoice {
  bool twin = false;
  /// The manifest's `twin`: its launch and parameters, not the kernel's.
  bool twinOwnLaunch = false;
  const LaunchSpec *launch = nullptr;
  const std::vector<Param> *params = nullptr;
  std::array<uint32_t, 3> grid = {};
};
LaunchChoice chooseLaunch(const Manifest &manifest, const Bindings &bindings,
                          const LaunchGrids &grids, bool hasTwin,
                          uint32_t numSMs, uint32_t maxCtas = 0);

/// Bytes of the workspace a workspace split-K needs for these sizes (0
/// without one). Throws Error(FA4_ERROR_VALIDATION) past 1 TiB.
uint64_t evaluateWorkspaceBytes(const Manifest &manifest,
                                const Bindings &bindings);

/// A kernel scalar argument, stored as the kernel reads it.
struct ScalarValue {
  ScalarType type;
  union {
    int32_t i32;
    int64_t i64;
    float f32;
  };
};

/// Throws Error(FA4_ERROR_VALIDATION) when the value does not fit the type.
ScalarValue evaluateScalar(const ScalarParam &param, const Manifest &manifest,
                           const Bindings &bindings,
                           const fa4_serving_args &args);

} // namespace fa4::rt

#endif // FA4_RUNTIME_LAUNCHPLAN_H
