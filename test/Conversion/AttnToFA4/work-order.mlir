// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=l2-section-bytes=0 -canonicalize -cse | FileCheck %s --check-prefix=FLAT
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=l2-section-bytes=1048576 -canonicalize -cse | FileCheck %s --check-prefix=SMALL
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefix=SM100
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 -canonicalize -cse | FileCheck %s --check-prefix=PAIRED
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=pair-row-blocks=0 -canonicalize -cse | FileCheck %s --check-prefix=UNPAIRED

// The order of the prefill work tiles under a mask (WorkTiles::prefill).
// Heaviest row block first over every (batch, head) pair puts each CTA of a
// wave on another head, so each streams its own K and V from HBM; the
// default goes heaviest first within sections of G pairs whose K and V fit
// l2-section-bytes (32 MiB): G = min(max(C / max(Skv, 1), 1), pairs) with
// C = budget / (K and V bytes per key) * (q heads per kv head).

// GQA, 8 q heads on 2 kv heads (group 4), d = 64: 256 bytes of K and V per
// key, C = 32 MiB / 256 * 4 = 524288 (1 MiB: 16384). The producer decodes
// its work tile first; the section's width bounds the row-block pass.
// CHECK-LABEL: gpu.func @fa4_hopper_gqa_causal_sm_90a(
// CHECK-SAME: %[[B:[a-z0-9]+]]: i32, %[[SQ:[a-z0-9]+]]: i32, %[[SKV:[a-z0-9]+]]: i32,
// CHECK: fa4.warp_specialize
// CHECK: %[[HB:.*]] = arith.muli %[[B]], %c8_i32 : i32
// CHECK-NEXT: %[[SKV1:.*]] = arith.maxsi %[[SKV]], %c1_i32 : i32
// CHECK-NEXT: %[[FIT:.*]] = arith.divui %c524288_i32, %[[SKV1]] : i32
// CHECK-NEXT: %[[FIT1:.*]] = arith.maxsi %[[FIT]], %c1_i32 : i32
// CHECK-NEXT: %[[G:.*]] = arith.minsi %[[FIT1]], %[[HB]] : i32
// CHECK: %[[WIDTH:.*]] = arith.minsi %[[G]], %{{.*}} : i32
// CHECK-NEXT: %[[PASS:.*]] = arith.divui %[[WITHIN:.*]], %[[WIDTH]] : i32
// CHECK: %[[INSEC:.*]] = arith.remui %[[WITHIN]], %[[WIDTH]] : i32
// FLAT-LABEL: gpu.func @fa4_hopper_gqa_causal_sm_90a(
// FLAT: fa4.warp_specialize
// FLAT: %[[HB:.*]] = arith.muli %{{.*}}, %c8_i32 : i32
// FLAT-NEXT: %[[PASS:.*]] = arith.divui %{{.*}}, %[[HB]] : i32
// FLAT-NOT: arith.maxsi %{{.*}}, %c1_i32
// FLAT: fa4.tma.load
// SMALL-LABEL: gpu.func @fa4_hopper_gqa_causal_sm_90a(
// SMALL: arith.divui %c16384_i32,
// The sm_100a kernel orders its work items the same way (not yet measured
// there): its K and V boxes hold the same 256 bytes a key.
// SM100-LABEL: gpu.func @fa4_blackwell_gqa_causal_sm_100a(
// SM100: arith.divui %c524288_i32, %{{.*}} : i32
// pair-row-blocks (the default): the looped twin (its static stride is
// gridDim.x) takes row blocks R - 1 - k and k of a pair in consecutive
// strides (pairedSlot, which FA4ConversionTests checks is a permutation);
// the plain kernel keeps the sections. With pair-row-blocks=0 the twin
// takes the sections too.
// PAIRED-LABEL: gpu.func @fa4_hopper_gqa_causal_sm_90a(
// PAIRED: fa4.warp_specialize
// PAIRED: arith.divui %c524288_i32, %{{.*}} : i32
// PAIRED-LABEL: gpu.func @fa4_hopper_gqa_causal_sm_90a_persistent(
// PAIRED: %[[STRIDE:.*]] = arith.index_cast %grid_dim_x : index to i32
// PAIRED: fa4.warp_specialize
// PAIRED: scf.for
// PAIRED-NEXT: %[[DONE:.*]] = arith.index_cast %{{.*}} : index to i32
// PAIRED-NEXT: %[[SKIP:.*]] = arith.muli %[[DONE]], %[[STRIDE]] : i32
// PAIRED-NEXT: %[[WORK:.*]] = arith.addi %{{.*}}, %[[SKIP]] : i32
// PAIRED-NEXT: %[[HALF:.*]] = arith.divui %{{.*}}, %c2_i32 : i32
// PAIRED-NEXT: %[[ITEMS:.*]] = arith.muli %{{.*}}, %[[HALF]] : i32
// PAIRED-NEXT: %[[FULL:.*]] = arith.divui %[[ITEMS]], %[[STRIDE]] : i32
// PAIRED: %[[ROUND:.*]] = arith.divui %[[WORK]], %[[STRIDE]] : i32
// PAIRED-NOT: %c524288_i32
// PAIRED: gpu.return
// UNPAIRED-LABEL: gpu.func @fa4_hopper_gqa_causal_sm_90a_persistent(
// UNPAIRED: fa4.warp_specialize
// UNPAIRED-NOT: arith.divui %{{.*}}, %c2_i32 : i32
// UNPAIRED: arith.divui %c524288_i32, %{{.*}} : i32
// UNPAIRED: gpu.return
func.func @gqa_causal(%q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x2x64xbf16>, %v: tensor<?x?x2x64xbf16>) -> tensor<?x?x8x64xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16> -> tensor<?x?x8x64xbf16>
  return %o : tensor<?x?x8x64xbf16>
}

// -----

// A window mask goes by sections too (d = 128: 512 bytes a key, C =
// 65536).
// CHECK-LABEL: gpu.func @fa4_hopper_window_sm_90a(
// CHECK: fa4.warp_specialize
// CHECK: arith.divui %c65536_i32, %{{.*}} : i32
// FLAT-LABEL: gpu.func @fa4_hopper_window_sm_90a(
// FLAT-NOT: %c65536_i32
// SM100-LABEL: gpu.func @fa4_blackwell_window_sm_100a(
// SM100: arith.divui %c65536_i32, %{{.*}} : i32
func.func @window(%q: tensor<?x?x4x128xbf16>, %k: tensor<?x?x4x128xbf16>, %v: tensor<?x?x4x128xbf16>) -> tensor<?x?x4x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>} : tensor<?x?x4x128xbf16>, tensor<?x?x4x128xbf16>, tensor<?x?x4x128xbf16> -> tensor<?x?x4x128xbf16>
  return %o : tensor<?x?x4x128xbf16>
}

// -----

// Without a mask every row block is as heavy: the row blocks of one head
// stay adjacent (row block = work % R, pair = work / R), no sections. (At
// d = 128 the kernel's CTAs go in pairs, kv-multicast: its work items are
// 256-row pairs of blocks.)
// CHECK-LABEL: gpu.func @fa4_hopper_none_sm_90a(
// CHECK: fa4.warp_specialize
// CHECK: %[[R:.*]] = arith.divui %{{.*}}, %c256_i32 : i32
// CHECK-NEXT: %[[RB:.*]] = arith.remui %{{.*}}, %[[R]] : i32
// CHECK-NEXT: %[[PAIR:.*]] = arith.divui %{{.*}}, %[[R]] : i32
// CHECK-NOT: arith.divui %c65536_i32
// CHECK: gpu.return
// SM100-LABEL: gpu.func @fa4_blackwell_none_sm_100a(
// SM100-NOT: arith.divui %c65536_i32
// SM100: gpu.return
func.func @none(%q: tensor<?x?x4x128xbf16>, %k: tensor<?x?x4x128xbf16>, %v: tensor<?x?x4x128xbf16>) -> tensor<?x?x4x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x4x128xbf16>, tensor<?x?x4x128xbf16>, tensor<?x?x4x128xbf16> -> tensor<?x?x4x128xbf16>
  return %o : tensor<?x?x4x128xbf16>
}
