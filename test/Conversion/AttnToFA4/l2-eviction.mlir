// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4=l2-eviction-hints=true | FileCheck %s
// RUN: fa4-opt %s -split-input-file --attn-plan-pipeline=chip=sm_90a --convert-attn-to-fa4 | FileCheck %s --check-prefix=OFF

// With l2-eviction-hints the sm_90a prefill kernel and its looped twin load
// K and V with evict_last (every row block of the head reads them again),
// Q with evict_first, and store O with evict_first (both touched once).
// d = 128 causal: the kernel's Q in two 64-column boxes per consumer, K
// and V in two each; the plain kernel stores O by TMA box by box, and so
// does the twin (over its second Q buffer).
// CHECK-LABEL: gpu.func @fa4_fa3_prefill_sm_90a(
// CHECK-SAME: %[[Q:[a-z0-9]+]]: !fa4.tensor_map, %[[K:[a-z0-9]+]]: !fa4.tensor_map, %[[V:[a-z0-9]+]]: !fa4.tensor_map
// CHECK: fa4.tma.load %[[K]][{{.*}} l2 evict_last{{$}}
// CHECK: fa4.tma.load %[[Q]][{{.*}} l2 evict_first{{$}}
// CHECK: fa4.tma.load %[[V]][{{.*}} l2 evict_last{{$}}
// CHECK: fa4.tma.store {{.*}} l2 evict_first{{$}}
// CHECK-LABEL: gpu.func @fa4_fa3_prefill_sm_90a_persistent(
// CHECK-SAME: %[[PQ:[a-z0-9]+]]: !fa4.tensor_map, %[[PK:[a-z0-9]+]]: !fa4.tensor_map, %[[PV:[a-z0-9]+]]: !fa4.tensor_map
// CHECK: fa4.tma.load %[[PK]][{{.*}} l2 evict_last{{$}}
// CHECK: fa4.tma.load %[[PQ]][{{.*}} l2 evict_first{{$}}
// CHECK: fa4.tma.load %[[PV]][{{.*}} l2 evict_last{{$}}
// CHECK: fa4.tma.store {{.*}} l2 evict_first{{$}}
// Without the option no copy carries a priority.
// OFF-NOT: l2 evict
func.func @prefill(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x6x128xbf16>, %v: tensor<?x?x6x128xbf16>) -> tensor<?x?x6x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16>, tensor<?x?x6x128xbf16> -> tensor<?x?x6x128xbf16>
  return %o : tensor<?x?x6x128xbf16>
}

// -----

// Split-K decode streams K and V once per split: no priorities there.
// CHECK-LABEL: gpu.func @fa4_fa3_decode_sm_90a(
// CHECK-NOT: l2 evict
// CHECK: gpu.return
func.func @decode(%q: tensor<1x1x32x128xbf16>, %k: tensor<1x32768x8x128xbf16>, %v: tensor<1x32768x8x128xbf16>) -> tensor<1x1x32x128xbf16> {
  %o = attn.attention %q, %k, %v : tensor<1x1x32x128xbf16>, tensor<1x32768x8x128xbf16>, tensor<1x32768x8x128xbf16> -> tensor<1x1x32x128xbf16>
  return %o : tensor<1x1x32x128xbf16>
}
