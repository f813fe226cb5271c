// The sm_100a planner plans what the Blackwell kernel implements: plans it
// once refused (a sweep of 1764 configurations found these three kinds).
// - fused q-heads on one Q tile: 64 q-heads of one kv-head, 4 query rows
//   (256 fused rows were planned as two Q tiles, a "decode plan" it refuses);
// - Dqk 256 / Dv 128: two Q tiles leave no room for two K/V slots (264 KB
//   were planned), so one Q tile;
// - a CTA pair at Dqk 64 / Dv 128: the pair's sixth mbarrier per Q tile.
// RUN: rm -rf %t
// RUN: fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t/a --batch-hint=1 --seq-q-hint=4 --seq-kv-hint=32768 2>&1 | FileCheck %s --check-prefix=FUSED
// RUN: fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t/b 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: fa4-compile %s --chip=sm_100a --kernel=blackwell --ptxas=none -o %t/c --batch-hint=2 --seq-q-hint=4096 --seq-kv-hint=4096 2>&1 | FileCheck %s --check-prefix=PAIR

// FUSED: numQ = 1, BM = 128: one 128-row Q tile with a single O accumulator (fused q-heads run on one tile)
// FUSED: kernel fa4_blackwell_mqa64_sm_100a
func.func @mqa64(%q: tensor<?x?x64x32xbf16>, %k: tensor<?x?x1x32xbf16>,
                 %v: tensor<?x?x1x32xbf16>) -> tensor<?x?x64x32xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x?x64x32xbf16>, tensor<?x?x1x32xbf16>, tensor<?x?x1x32xbf16>
      -> tensor<?x?x64x32xbf16>
  return %o : tensor<?x?x64x32xbf16>
}

// DEEP: numQ = 1, BM = 128: one 128-row Q tile {{.*}}or two Q tiles would leave no room for two K/V slots in shared memory)
// DEEP: kernel fa4_blackwell_deep_sm_100a
func.func @deep(%q: tensor<?x?x8x256xbf16>, %k: tensor<?x?x8x256xbf16>,
                %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x?x8x256xbf16>, tensor<?x?x8x256xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}

// PAIR: pairCta = true
// PAIR: kernel fa4_blackwell_pair64_sm_100a
func.func @pair64(%q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x8x64xbf16>,
                  %v: tensor<?x?x8x128xbf16>) -> tensor<?x?x8x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x8x128xbf16>
  return %o : tensor<?x?x8x128xbf16>
}
