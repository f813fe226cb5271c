// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the fa4 kernel dialect: the op verifiers of
// FA4Ops.cpp, the type parsers and verifiers of FA4Dialect.cpp, and, where
// an ODS trait or the declarative format catches a mistake first, that
// diagnostic.

//===----------------------------------------------------------------------===//
// fa4.warp_specialize
//===----------------------------------------------------------------------===//

func.func @warp_specialize_budget_count() {
  // expected-error @+1 {{'fa4.warp_specialize' op needs one warpgroup count and one register budget per role region, got 2 counts, 1 budgets and 2 regions}}
  fa4.warp_specialize warpgroups [1, 2] registers [240] {
  ^bb0(%index: i32, %thread: i32):
  }, {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

func.func @warp_specialize_region_count() {
  // expected-error @+1 {{got 2 counts, 2 budgets and 1 regions}}
  fa4.warp_specialize warpgroups [1, 2] registers [24, 240] {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

func.func @warp_specialize_no_roles() {
  // expected-error @+1 {{needs one warpgroup count and one register budget per role region, got 0 counts, 0 budgets and 0 regions}}
  fa4.warp_specialize warpgroups [] registers []
  return
}

// -----

func.func @warp_specialize_role_without_warpgroups() {
  // expected-error @+1 {{'fa4.warp_specialize' op role 1 has no warpgroups: 0}}
  fa4.warp_specialize warpgroups [1, 0] registers [24, 240] {
  ^bb0(%index: i32, %thread: i32):
  }, {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

func.func @warp_specialize_registers_not_multiple_of_8() {
  // expected-error @+1 {{'fa4.warp_specialize' op role 1 asks for 236 registers; setmaxnreg takes a multiple of 8 in [24, 256]}}
  fa4.warp_specialize warpgroups [1, 2] registers [24, 236] {
  ^bb0(%index: i32, %thread: i32):
  }, {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

func.func @warp_specialize_registers_below_24() {
  // expected-error @+1 {{role 0 asks for 16 registers; setmaxnreg takes a multiple of 8 in [24, 256]}}
  fa4.warp_specialize warpgroups [1, 2] registers [16, 240] {
  ^bb0(%index: i32, %thread: i32):
  }, {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

func.func @warp_specialize_registers_above_256() {
  // expected-error @+1 {{role 0 asks for 264 registers; setmaxnreg takes a multiple of 8 in [24, 256]}}
  fa4.warp_specialize warpgroups [1] registers [264] {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

func.func @warp_specialize_one_region_argument() {
  // expected-error @+1 {{'fa4.warp_specialize' op role 1 must take (warpgroup in role: i32, thread in warpgroup: i32)}}
  fa4.warp_specialize warpgroups [1, 2] registers [24, 240] {
  ^bb0(%index: i32, %thread: i32):
  }, {
  ^bb0(%thread: i32):
  }
  return
}

// -----

func.func @warp_specialize_i64_region_argument() {
  // expected-error @+1 {{role 0 must take (warpgroup in role: i32, thread in warpgroup: i32)}}
  fa4.warp_specialize warpgroups [1, 2] registers [24, 240] {
  ^bb0(%index: i32, %thread: i64):
  }, {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

// 384 threads launch with 65536 / 384 = 170, down to 168 registers each:
// 64512 in all, but 128 * 24 + 256 * 256 = 68608 are asked for.
func.func @warp_specialize_register_pool() {
  // expected-error @+1 {{'fa4.warp_specialize' op register budgets need 68608 registers but a 384-thread CTA launches with 64512 (168 per thread); setmaxnreg.inc would wait forever}}
  fa4.warp_specialize warpgroups [1, 2] registers [24, 256] {
  ^bb0(%index: i32, %thread: i32):
  }, {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

// One warpgroup launches with at most 255 registers, 248 after rounding:
// setmaxnreg.inc to 256 would never get them.
func.func @warp_specialize_register_pool_one_warpgroup() {
  // expected-error @+1 {{register budgets need 32768 registers but a 128-thread CTA launches with 31744 (248 per thread)}}
  fa4.warp_specialize warpgroups [1] registers [256] {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

//===----------------------------------------------------------------------===//
// fa4.tma.load
//===----------------------------------------------------------------------===//

// -----

func.func @tma_load_no_coordinates(%map: !fa4.tensor_map, %dst: i32, %bar: !fa4.mbarrier) {
  // expected-error @+1 {{'fa4.tma.load' op takes 1 to 5 coordinates (a tensor map's rank), got 0}}
  fa4.tma.load %map[] to %dst, %bar
  return
}

// -----

func.func @tma_load_six_coordinates(%map: !fa4.tensor_map, %c: i32, %bar: !fa4.mbarrier) {
  // expected-error @+1 {{'fa4.tma.load' op takes 1 to 5 coordinates (a tensor map's rank), got 6}}
  fa4.tma.load %map[%c, %c, %c, %c, %c, %c] to %c, %bar
  return
}

// -----

func.func @tma_load_unknown_eviction(%map: !fa4.tensor_map, %c: i32, %bar: !fa4.mbarrier) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'l2Eviction' [evict_first, evict_last]}}
  fa4.tma.load %map[%c] to %c, %bar l2 evict_normal
  return
}

// -----

func.func @tma_load_empty_multicast(%map: !fa4.tensor_map, %c: i32, %bar: !fa4.mbarrier) {
  // expected-error @+1 {{'fa4.tma.load' op multicasts to a mask of cluster ranks in [1, 0xFFFF], got 0}}
  fa4.tma.load %map[%c] to %c, %bar multicast 0
  return
}

// -----

func.func @tma_load_multicast_past_cluster(%map: !fa4.tensor_map, %c: i32, %bar: !fa4.mbarrier) {
  // expected-error @+1 {{'fa4.tma.load' op multicasts to a mask of cluster ranks in [1, 0xFFFF], got 65536}}
  fa4.tma.load %map[%c] to %c, %bar multicast 65536
  return
}

// -----

func.func @tma_load_multicast_and_peer_barrier(%map: !fa4.tensor_map, %c: i32, %bar: !fa4.mbarrier) {
  // expected-error @+1 {{'fa4.tma.load' op multicasts or counts its bytes on a peer's barrier (in_cta), not both}}
  fa4.tma.load %map[%c] to %c, %bar in_cta %c multicast 3
  return
}

// -----

func.func @mbarrier_arrive_cta_scope_on_own_barrier(%bar: !fa4.mbarrier) {
  // expected-error @+1 {{'fa4.mbarrier.arrive' op takes cta_scope only on a peer's barrier (in_cta); on its own a release is at CTA scope}}
  fa4.mbarrier.arrive %bar cta_scope
  return
}

// -----

func.func @mbarrier_arrive_zero_count(%bar: !fa4.mbarrier) {
  // expected-error @+1 {{'fa4.mbarrier.arrive' op attribute 'count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  fa4.mbarrier.arrive %bar count 0
  return
}

//===----------------------------------------------------------------------===//
// fa4.splat
//===----------------------------------------------------------------------===//

// -----

func.func @splat_bf16_rows(%value: f32) {
  // expected-error @+1 {{rows hold one f32 per row of a 64- or 128-row frag, got 64x'bf16'}}
  %rows = fa4.splat %value : !fa4.rows<64xbf16>
  return
}

// -----

func.func @splat_bf16_frag(%value: f32) {
  // expected-error @+1 {{'fa4.splat' op splats an f32 into an f32 frag or rows, got '!fa4.frag<64x176xbf16>'}}
  %frag = fa4.splat %value : !fa4.frag<64x176xbf16>
  return
}

//===----------------------------------------------------------------------===//
// fa4.mma
//===----------------------------------------------------------------------===//

// -----

func.func @mma_bf16_accumulator(%q: !fa4.smem_tile<64x128xbf16, k_major>, %k: !fa4.smem_tile<176x128xbf16, k_major>, %acc: !fa4.frag<64x176xbf16>) {
  // expected-error @+1 {{'fa4.mma' op accumulates in f32, got '!fa4.frag<64x176xbf16>'}}
  %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<64x128xbf16, k_major>, !fa4.smem_tile<176x128xbf16, k_major>, !fa4.frag<64x176xbf16>
  return
}

// -----

// AllTypesMatch<["acc", "result"]> refuses a result type other than the
// accumulator's before the C++ verifier's own check.
func.func @mma_result_type(%q: !fa4.smem_tile<64x128xbf16, k_major>, %k: !fa4.smem_tile<176x128xbf16, k_major>, %acc: !fa4.frag<64x176xf32>) {
  // expected-error @+1 {{'fa4.mma' op failed to verify that all of {acc, result} have same type}}
  %s = "fa4.mma"(%q, %k, %acc) : (!fa4.smem_tile<64x128xbf16, k_major>, !fa4.smem_tile<176x128xbf16, k_major>, !fa4.frag<64x176xf32>) -> !fa4.frag<128x176xf32>
  return
}

// -----

func.func @mma_k_extent_not_whole_steps(%p: !fa4.frag<64x176xbf16>, %v: !fa4.smem_tile<176x128xbf16, mn_major>, %acc: !fa4.frag<64x128xf32>) {
  // expected-error @+1 {{'fa4.mma' op k_extent 100 is not a multiple of 16 up to K = 176}}
  %o = fa4.mma %p, %v, %acc {k_extent = 100 : i64} : !fa4.frag<64x176xbf16>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  return
}

// -----

func.func @mma_k_extent_past_k(%p: !fa4.frag<64x176xbf16>, %v: !fa4.smem_tile<176x128xbf16, mn_major>, %acc: !fa4.frag<64x128xf32>) {
  // expected-error @+1 {{'fa4.mma' op k_extent 192 is not a multiple of 16 up to K = 176}}
  %o = fa4.mma %p, %v, %acc {k_extent = 192 : i64} : !fa4.frag<64x176xbf16>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  return
}

// -----

func.func @mma_k_extent_zero(%p: !fa4.frag<64x176xbf16>, %v: !fa4.smem_tile<176x128xbf16, mn_major>, %acc: !fa4.frag<64x128xf32>) {
  // expected-error @+1 {{'fa4.mma' op attribute 'k_extent' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %o = fa4.mma %p, %v, %acc {k_extent = 0 : i64} : !fa4.frag<64x176xbf16>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  return
}

// -----

func.func @mma_f32_frag_a(%p: !fa4.frag<64x176xf32>, %v: !fa4.smem_tile<176x128xbf16, mn_major>, %acc: !fa4.frag<64x128xf32>) {
  // expected-error @+1 {{'fa4.mma' op takes A from registers as a 16-bit frag; truncate it first (fa4.truncf), got '!fa4.frag<64x176xf32>'}}
  %o = fa4.mma %p, %v, %acc : !fa4.frag<64x176xf32>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  return
}

// -----

func.func @mma_frag_a_rows(%p: !fa4.frag<128x176xbf16>, %v: !fa4.smem_tile<176x128xbf16, mn_major>, %acc: !fa4.frag<64x128xf32>) {
  // expected-error @+1 {{'fa4.mma' op A has 128 rows, the accumulator 64}}
  %o = fa4.mma %p, %v, %acc : !fa4.frag<128x176xbf16>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  return
}

// -----

func.func @mma_smem_a_rows(%q: !fa4.smem_tile<64x128xbf16, k_major>, %k: !fa4.smem_tile<176x128xbf16, k_major>, %acc: !fa4.frag<128x176xf32>) {
  // expected-error @+1 {{'fa4.mma' op A has 64 rows, the accumulator 128}}
  %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<64x128xbf16, k_major>, !fa4.smem_tile<176x128xbf16, k_major>, !fa4.frag<128x176xf32>
  return
}

// -----

func.func @mma_mn_major_smem_a(%q: !fa4.smem_tile<64x128xbf16, mn_major>, %k: !fa4.smem_tile<176x128xbf16, k_major>, %acc: !fa4.frag<64x176xf32>) {
  // expected-error @+1 {{'fa4.mma' op takes a shared-memory A only K-major, got '!fa4.smem_tile<64x128xbf16, mn_major>'}}
  %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<64x128xbf16, mn_major>, !fa4.smem_tile<176x128xbf16, k_major>, !fa4.frag<64x176xf32>
  return
}

// -----

// K-major B has N rows: 128 keys do not cover N = 176.
func.func @mma_k_major_b_short_of_n(%q: !fa4.smem_tile<64x128xbf16, k_major>, %k: !fa4.smem_tile<128x128xbf16, k_major>, %acc: !fa4.frag<64x176xf32>) {
  // expected-error @+1 {{'fa4.mma' op B '!fa4.smem_tile<128x128xbf16, k_major>' is not K = 128 by N = 176 (k_major)}}
  %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<64x128xbf16, k_major>, !fa4.smem_tile<128x128xbf16, k_major>, !fa4.frag<64x176xf32>
  return
}

// -----

// K-major B has K columns: 192 is not Q's K = 128.
func.func @mma_k_major_b_wrong_k(%q: !fa4.smem_tile<64x128xbf16, k_major>, %k: !fa4.smem_tile<176x192xbf16, k_major>, %acc: !fa4.frag<64x176xf32>) {
  // expected-error @+1 {{is not K = 128 by N = 176 (k_major)}}
  %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<64x128xbf16, k_major>, !fa4.smem_tile<176x192xbf16, k_major>, !fa4.frag<64x176xf32>
  return
}

// -----

// MN-major B has K rows: 160 is not P's K = 176.
func.func @mma_mn_major_b_wrong_k(%p: !fa4.frag<64x176xbf16>, %v: !fa4.smem_tile<160x128xbf16, mn_major>, %acc: !fa4.frag<64x128xf32>) {
  // expected-error @+1 {{'fa4.mma' op B '!fa4.smem_tile<160x128xbf16, mn_major>' is not K = 176 by N = 128 (mn_major)}}
  %o = fa4.mma %p, %v, %acc : !fa4.frag<64x176xbf16>, !fa4.smem_tile<160x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  return
}

// -----

// MN-major B has N columns: 128 do not cover N = 192.
func.func @mma_mn_major_b_short_of_n(%p: !fa4.frag<64x176xbf16>, %v: !fa4.smem_tile<176x128xbf16, mn_major>, %acc: !fa4.frag<64x192xf32>) {
  // expected-error @+1 {{is not K = 176 by N = 192 (mn_major)}}
  %o = fa4.mma %p, %v, %acc : !fa4.frag<64x176xbf16>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x192xf32>
  return
}

// -----

func.func @mma_element_types(%p: !fa4.frag<64x176xf16>, %v: !fa4.smem_tile<176x128xbf16, mn_major>, %acc: !fa4.frag<64x128xf32>) {
  // expected-error @+1 {{'fa4.mma' op A holds 'f16' but B holds 'bf16'}}
  %o = fa4.mma %p, %v, %acc : !fa4.frag<64x176xf16>, !fa4.smem_tile<176x128xbf16, mn_major>, !fa4.frag<64x128xf32>
  return
}

// (MmaOp::verify's "K = ... is not a multiple of 16" cannot be reached: the
// type verifiers already make K a multiple of 64 (shared-memory A) or of 16
// (frag A).)

//===----------------------------------------------------------------------===//
// fa4.softmax, fa4.scale_rows
//===----------------------------------------------------------------------===//

// -----

func.func @softmax_bf16_scores(%s: !fa4.frag<64x176xbf16>, %m: !fa4.rows<64xf32>, %scale: f32) {
  // expected-error @+1 {{'fa4.softmax' op takes f32 scores, got '!fa4.frag<64x176xbf16>'}}
  %p, %m1, %l1, %c = fa4.softmax %s max %m sum %m scale %scale : !fa4.frag<64x176xbf16>, !fa4.rows<64xf32>
  return
}

// -----

func.func @softmax_packed_64_rows(%s: !fa4.frag<64x176xf32>, %m: !fa4.rows<64xf32>, %scale: f32) {
  // expected-error @+1 {{'fa4.softmax' op packs a thread's row in pairs, which needs a 128-row frag (a row per thread), got '!fa4.frag<64x176xf32>'}}
  %p, %m1, %l1, %c = fa4.softmax %s max %m sum %m scale %scale {packedPairs} : !fa4.frag<64x176xf32>, !fa4.rows<64xf32>
  return
}

// -----

func.func @softmax_rows_mismatch(%s: !fa4.frag<64x176xf32>, %m: !fa4.rows<128xf32>, %scale: f32) {
  // expected-error @+1 {{'fa4.softmax' op max '!fa4.rows<128xf32>' must be one f32 per row of '!fa4.frag<64x176xf32>'}}
  %p, %m1, %l1, %c = fa4.softmax %s max %m sum %m scale %scale : !fa4.frag<64x176xf32>, !fa4.rows<128xf32>
  return
}

// -----

// Rows are f32 whatever the frag: the type itself refuses bf16.
// expected-error @+1 {{rows hold one f32 per row of a 64- or 128-row frag, got 64x'bf16'}}
func.func @softmax_bf16_rows(%s: !fa4.frag<64x176xf32>, %m: !fa4.rows<64xbf16>, %scale: f32) {
  return
}

// -----

// AllTypesMatch: max and sum (and the three row results) share one type.
func.func @softmax_sum_type(%s: !fa4.frag<64x176xf32>, %m: !fa4.rows<64xf32>, %l: !fa4.rows<128xf32>, %scale: f32) {
  // expected-error @+1 {{'fa4.softmax' op failed to verify that all of {max, sum, newMax, newSum, correction} have same type}}
  %p, %m1, %l1, %c = "fa4.softmax"(%s, %m, %l, %scale) : (!fa4.frag<64x176xf32>, !fa4.rows<64xf32>, !fa4.rows<128xf32>, f32) -> (!fa4.frag<64x176xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>)
  return
}

// -----

// A fold needs at least one chain.
func.func @softmax_no_chains(%s: !fa4.frag<64x176xf32>, %m: !fa4.rows<64xf32>, %scale: f32) {
  // expected-error @+1 {{'fa4.softmax' op attribute 'reductionChains' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %p, %m1, %l1, %c = fa4.softmax %s max %m sum %m scale %scale {reductionChains = 0 : i64} : !fa4.frag<64x176xf32>, !fa4.rows<64xf32>
  return
}

// -----

func.func @scale_rows_bf16_tile(%o: !fa4.frag<64x128xbf16>, %c: !fa4.rows<64xf32>) {
  // expected-error @+1 {{'fa4.scale_rows' op scales an f32 frag, got '!fa4.frag<64x128xbf16>'}}
  %o1 = fa4.scale_rows %o by %c : !fa4.frag<64x128xbf16>, !fa4.rows<64xf32>
  return
}

// -----

func.func @scale_rows_rows_mismatch(%o: !fa4.frag<64x128xf32>, %c: !fa4.rows<128xf32>) {
  // expected-error @+1 {{'fa4.scale_rows' op factors '!fa4.rows<128xf32>' must be one f32 per row of '!fa4.frag<64x128xf32>'}}
  %o1 = fa4.scale_rows %o by %c : !fa4.frag<64x128xf32>, !fa4.rows<128xf32>
  return
}

//===----------------------------------------------------------------------===//
// fa4.truncf
//===----------------------------------------------------------------------===//

// -----

func.func @truncf_shape(%s: !fa4.frag<64x176xf32>) {
  // expected-error @+1 {{'fa4.truncf' op rounds an f32 frag to an MMA operand frag (16- or 8-bit) of the same shape, got '!fa4.frag<64x176xf32>' to '!fa4.frag<64x128xbf16>'}}
  %p = fa4.truncf %s : !fa4.frag<64x176xf32> to !fa4.frag<64x128xbf16>
  return
}

// -----

func.func @truncf_rows(%s: !fa4.frag<64x176xf32>) {
  // expected-error @+1 {{got '!fa4.frag<64x176xf32>' to '!fa4.frag<128x176xbf16>'}}
  %p = fa4.truncf %s : !fa4.frag<64x176xf32> to !fa4.frag<128x176xbf16>
  return
}

// -----

func.func @truncf_to_f32(%s: !fa4.frag<64x176xf32>) {
  // expected-error @+1 {{rounds an f32 frag to an MMA operand frag (16- or 8-bit) of the same shape, got '!fa4.frag<64x176xf32>' to '!fa4.frag<64x176xf32>'}}
  %p = fa4.truncf %s : !fa4.frag<64x176xf32> to !fa4.frag<64x176xf32>
  return
}

// -----

func.func @truncf_from_16_bit(%s: !fa4.frag<64x176xbf16>) {
  // expected-error @+1 {{rounds an f32 frag to an MMA operand frag (16- or 8-bit) of the same shape, got '!fa4.frag<64x176xbf16>' to '!fa4.frag<64x176xf16>'}}
  %p = fa4.truncf %s : !fa4.frag<64x176xbf16> to !fa4.frag<64x176xf16>
  return
}

//===----------------------------------------------------------------------===//
// fa4.epilogue
//===----------------------------------------------------------------------===//

// -----

func.func @epilogue_bf16_out(%o: !fa4.frag<64x128xbf16>, %m: !fa4.rows<64xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op stores an f32 accumulator, got '!fa4.frag<64x128xbf16>'}}
  fa4.epilogue %o, %m, %m to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 128 of bf16 : !fa4.frag<64x128xbf16>, !fa4.rows<64xf32>, !llvm.ptr<1>
  return
}

// -----

func.func @epilogue_rows_mismatch(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<128xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op max '!fa4.rows<128xf32>' must be one f32 per row of '!fa4.frag<64x128xf32>'}}
  fa4.epilogue %o, %m, %m to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 128 of bf16 : !fa4.frag<64x128xf32>, !fa4.rows<128xf32>, !llvm.ptr<1>
  return
}

// -----

// AllTypesMatch<["max", "sum"]> catches a sum that differs from max before
// the verifier's own "sum ... must be one f32 per row" check.
func.func @epilogue_sum_type(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %l: !fa4.rows<128xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op failed to verify that all of {max, sum} have same type}}
  "fa4.epilogue"(%o, %m, %l, %out, %i, %i, %i, %s, %s, %s, %i) <{depth = 128 : i64, elementType = bf16, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 3, 1, 0, 0>}> : (!fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !fa4.rows<128xf32>, !llvm.ptr<1>, i32, i32, i32, i64, i64, i64, i32) -> ()
  return
}

// -----

func.func @epilogue_two_out_strides(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op takes O's batch, row and head strides (3), got 2}}
  fa4.epilogue %o, %m, %m to %out[%i, %i, %i] strides [%s, %s] sq %i depth 128 of bf16 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>
  return
}

// -----

func.func @epilogue_four_out_strides(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{takes O's batch, row and head strides (3), got 4}}
  fa4.epilogue %o, %m, %m to %out[%i, %i, %i] strides [%s, %s, %s, %s] sq %i depth 128 of bf16 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>
  return
}

// -----

func.func @epilogue_one_lse_stride(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %out: !llvm.ptr<1>, %lse: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op takes LSE's batch and head strides (2) exactly when it stores LSE}}
  fa4.epilogue %o, %m, %m to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 128 of bf16 lse %lse strides [%s] : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>, !llvm.ptr<1>
  return
}

// -----

// The custom form cannot write LSE strides without an LSE pointer; the
// generic form can, and the verifier refuses it.
func.func @epilogue_lse_strides_without_lse(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{takes LSE's batch and head strides (2) exactly when it stores LSE}}
  "fa4.epilogue"(%o, %m, %m, %out, %i, %i, %i, %s, %s, %s, %i, %s, %s) <{depth = 128 : i64, elementType = bf16, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 3, 1, 0, 2>}> : (!fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>, i32, i32, i32, i64, i64, i64, i32, i64, i64) -> ()
  return
}

// -----

func.func @epilogue_depth_zero(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op stores 0 of the tile's 128 columns}}
  fa4.epilogue %o, %m, %m to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 0 of bf16 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>
  return
}

// -----

func.func @epilogue_depth_past_tile(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op stores 192 of the tile's 128 columns}}
  fa4.epilogue %o, %m, %m to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 192 of bf16 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>
  return
}

// -----

func.func @epilogue_integer_output(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op stores bf16, f16 or f32 (a split-K workspace partial), got 'i32'}}
  fa4.epilogue %o, %m, %m to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 128 of i32 : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>, !llvm.ptr<1>
  return
}

// -----

func.func @workspace_combine_two_strides(%ws: !llvm.ptr<1>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.workspace_combine' op takes O's batch, row and head strides (3), got 2}}
  fa4.splitk.workspace_combine %i partials from %ws to %out[%i, %i, %i] column %i strides [%s, %s] b %i sq %i heads 8 depth 128 of bf16 : !llvm.ptr<1>, !llvm.ptr<1>
  return
}

// -----

func.func @workspace_combine_lse_strides_without_lse(%ws: !llvm.ptr<1>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.workspace_combine' op takes LSE's batch and head strides (2) exactly when it stores LSE}}
  fa4.splitk.workspace_combine %i partials from %ws to %out[%i, %i, %i] column %i strides [%s, %s, %s] b %i sq %i heads 8 depth 128 of bf16 lse %out strides [%s] : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>
  return
}

// -----

func.func @workspace_combine_f32_output(%ws: !llvm.ptr<1>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.workspace_combine' op stores bf16 or f16, got 'f32'}}
  fa4.splitk.workspace_combine %i partials from %ws to %out[%i, %i, %i] column %i strides [%s, %s, %s] b %i sq %i heads 8 depth 128 of f32 : !llvm.ptr<1>, !llvm.ptr<1>
  return
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{shared-memory tiles hold bf16, f16, f8E4M3FN or f8E5M2, got 'f32'}}
func.func @smem_tile_f32(%t: !fa4.smem_tile<64x128xf32, k_major>)

// -----

// expected-error @+1 {{a shared-memory tile has a positive multiple of 8 rows and of 64 columns (swizzled boxes of 64 columns; K-major, of one MMA's 32 bytes: 16 16-bit or 32 8-bit columns), got 60x128}}
func.func @smem_tile_rows(%t: !fa4.smem_tile<60x128xbf16, k_major>)

// -----

// expected-error @+1 {{a shared-memory tile has a positive multiple of 8 rows and of 64 columns (swizzled boxes of 64 columns; K-major, of one MMA's 32 bytes: 16 16-bit or 32 8-bit columns), got 64x96}}
func.func @smem_tile_columns(%t: !fa4.smem_tile<64x96xbf16, mn_major>)

// -----

// expected-error @+1 {{a shared-memory tile has a positive multiple of 8 rows and of 64 columns (swizzled boxes of 64 columns; K-major, of one MMA's 32 bytes: 16 16-bit or 32 8-bit columns), got 64x40}}
func.func @smem_tile_k_columns(%t: !fa4.smem_tile<64x40xbf16, k_major>)

// -----

// 8-bit elements: a K-major K in 32s (one MMA's 32 bytes).
// expected-error @+1 {{a shared-memory tile has a positive multiple of 8 rows and of 64 columns (swizzled boxes of 64 columns; K-major, of one MMA's 32 bytes: 16 16-bit or 32 8-bit columns), got 64x48}}
func.func @smem_tile_f8_columns(%t: !fa4.smem_tile<64x48xf8E4M3FN, k_major>)

// -----

// 8-bit elements: an MN-major N in whole 64-column boxes (64 bytes, the
// 64-byte swizzle), as 16-bit ones.
// expected-error @+1 {{a shared-memory tile has a positive multiple of 8 rows and of 64 columns (swizzled boxes of 64 columns; K-major, of one MMA's 32 bytes: 16 16-bit or 32 8-bit columns), got 64x96}}
func.func @smem_tile_f8_mn_columns(%t: !fa4.smem_tile<64x96xf8E4M3FN, mn_major>)

// -----

// expected-error @+1 {{expected 'k_major' or 'mn_major', got 'row_major'}}
func.func @smem_tile_major(%t: !fa4.smem_tile<64x128xbf16, row_major>)

// -----

// expected-error @+1 {{expected 2 dimensions, got 3}}
func.func @smem_tile_rank(%t: !fa4.smem_tile<2x64x128xbf16, k_major>)

// -----

// expected-error @+1 {{a frag holds f32 (an accumulator), bf16/f16 or, on sm_100a, f8E4M3FN/f8E5M2 (an MMA operand), got 'i32'}}
func.func @frag_i32(%f: !fa4.frag<64x128xi32>)

// -----

// expected-error @+1 {{a frag is 64 or 128 rows (one warpgroup's MMA tile) by a positive multiple of 16 columns (8 for f32, 32 for 8-bit types), got 32x128}}
func.func @frag_rows(%f: !fa4.frag<32x128xf32>)

// -----

// expected-error @+1 {{a frag is 64 or 128 rows (one warpgroup's MMA tile) by a positive multiple of 16 columns (8 for f32, 32 for 8-bit types), got 64x40}}
func.func @frag_columns(%f: !fa4.frag<64x40xbf16>)

// -----

// expected-error @+1 {{a frag is 64 or 128 rows (one warpgroup's MMA tile) by a positive multiple of 16 columns (8 for f32, 32 for 8-bit types), got 64x12}}
func.func @frag_f32_columns(%f: !fa4.frag<64x12xf32>)

// -----

// An 8-bit frag is P on sm_100a: 128 rows, a row per thread.
// expected-error @+1 {{an 8-bit frag is an sm_100a operand of 128 rows (P in tensor memory), got 64 rows}}
func.func @frag_f8_rows(%f: !fa4.frag<64x128xf8E4M3FN>)

// -----

// An 8-bit frag's columns are whole MMA steps of 32.
// expected-error @+1 {{a frag is 64 or 128 rows (one warpgroup's MMA tile) by a positive multiple of 16 columns (8 for f32, 32 for 8-bit types), got 128x48}}
func.func @frag_f8_columns(%f: !fa4.frag<128x48xf8E5M2>)

// -----

// expected-error @+1 {{expected 2 dimensions, got 1}}
func.func @frag_rank(%f: !fa4.frag<64xf32>)

// -----

// expected-error @+1 {{expected 1 dimension, got 2}}
func.func @rows_rank(%r: !fa4.rows<64x1xf32>)

// -----

// Tiles have static shapes.
// expected-error @+1 {{expected static shape}}
func.func @frag_dynamic(%f: !fa4.frag<?x128xf32>)

// -----

// More than 8 warpgroups: no CTA has 1152 threads.
func.func @warp_specialize_too_many_threads() {
  // expected-error @+1 {{'fa4.warp_specialize' op roles need more than 8 warpgroups; a CTA has at most 1024 threads}}
  fa4.warp_specialize warpgroups [9] registers [24] {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

// Counts that would overflow the thread total are refused the same way.
func.func @warp_specialize_huge_count() {
  // expected-error @+1 {{roles need more than 8 warpgroups}}
  fa4.warp_specialize warpgroups [72057594037927936] registers [24] {
  ^bb0(%index: i32, %thread: i32):
  }
  return
}

// -----

// expected-error @+1 {{rows hold one f32 per row of a 64- or 128-row frag, got 0x'f32'}}
func.func @rows_empty(%r: !fa4.rows<0xf32>) {
  return
}

// -----

func.func @mask_bf16(%p: !fa4.frag<64x176xbf16>, %i: i32) {
  // expected-error @+1 {{'fa4.mask' op masks f32 scores, got '!fa4.frag<64x176xbf16>'}}
  %m = fa4.mask %p mask #attn.mask<causal> keys %i rows %i sq %i skv %i : !fa4.frag<64x176xbf16>
  return
}

// -----

func.func @mbarrier_init_zero(%i: i32) {
  %b = fa4.mbarrier.get %i offset 0
  // expected-error @+1 {{'fa4.mbarrier.init' op attribute 'count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  fa4.mbarrier.init %b count 0
  return
}

// -----

func.func @mbarrier_expect_negative(%i: i32) {
  %b = fa4.mbarrier.get %i offset 0
  // expected-error @+1 {{attribute 'bytes' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  fa4.mbarrier.expect_tx %b bytes -5
  return
}

// -----

func.func @mbarrier_negative_offset(%i: i32) {
  // expected-error @+1 {{attribute 'offset' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %b = fa4.mbarrier.get %i offset -8
  return
}

// -----

func.func @mma_wait_negative() {
  // expected-error @+1 {{attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  fa4.mma.wait {pending = -1 : i64}
  return
}

// -----

// B must be exactly N wide: a 176-row K tile cannot feed a 64-column
// accumulator.
func.func @mma_b_wider_than_n(%qo: i32, %ko: i32, %acc: !fa4.frag<64x64xf32>) {
  %q = fa4.smem.tile %qo : !fa4.smem_tile<64x128xbf16, k_major>
  %k = fa4.smem.tile %ko : !fa4.smem_tile<176x128xbf16, k_major>
  // expected-error @+1 {{is not K = 128 by N = 64 (k_major)}}
  %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<64x128xbf16, k_major>, !fa4.smem_tile<176x128xbf16, k_major>, !fa4.frag<64x64xf32>
  return
}

// -----

func.func @combine_odd_band(%r: i32, %out: !llvm.ptr<1>, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.combine' op stores column pairs: the band (7) must be even}}
  fa4.splitk.combine rank %r of 16 band 7 from 0 rows 64 columns 128 to %out[%r, %r, %r] strides [%s, %s, %s] sq %r depth 128 of bf16 : !llvm.ptr<1>
  return
}

// -----

func.func @combine_bands_short(%r: i32, %out: !llvm.ptr<1>, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.combine' op 4 bands of 8 columns do not cover the depth 128}}
  fa4.splitk.combine rank %r of 4 band 8 from 0 rows 64 columns 128 to %out[%r, %r, %r] strides [%s, %s, %s] sq %r depth 128 of bf16 : !llvm.ptr<1>
  return
}

// -----

func.func @combine_cluster_limit(%r: i32, %out: !llvm.ptr<1>, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.combine' op a cluster has at most 16 CTAs, got 32 partitions}}
  fa4.splitk.combine rank %r of 32 band 4 from 0 rows 64 columns 128 to %out[%r, %r, %r] strides [%s, %s, %s] sq %r depth 128 of bf16 : !llvm.ptr<1>
  return
}

// -----

func.func @combine_no_partials(%r: i32, %out: !llvm.ptr<1>, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.combine' op attribute 'partials' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  fa4.splitk.combine rank %r of 8 band 16 from 0 rows 64 columns 128 to %out[%r, %r, %r] strides [%s, %s, %s] sq %r depth 128 of bf16 {partials = 0} : !llvm.ptr<1>
  return
}

// -----

func.func @combine_depth(%r: i32, %out: !llvm.ptr<1>, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.combine' op stores 192 of the staged 128 columns}}
  fa4.splitk.combine rank %r of 16 band 12 from 0 rows 64 columns 128 to %out[%r, %r, %r] strides [%s, %s, %s] sq %r depth 192 of bf16 : !llvm.ptr<1>
  return
}

// -----

func.func @combine_lse_strides(%r: i32, %out: !llvm.ptr<1>, %s: i64) {
  // expected-error @+1 {{'fa4.splitk.combine' op takes LSE's batch and head strides (2) exactly when it stores LSE}}
  "fa4.splitk.combine"(%r, %out, %r, %r, %r, %s, %s, %s, %r, %s) <{band = 8 : i64, columns = 128 : i64, depth = 128 : i64, elementType = bf16, offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 3, 1, 0, 1>, partitions = 16 : i64, rows = 64 : i64}> : (i32, !llvm.ptr<1>, i32, i32, i32, i64, i64, i64, i32, i64) -> ()
  return
}

// -----

func.func @stage_bf16(%o: !fa4.frag<64x128xbf16>, %m: !fa4.rows<64xf32>) {
  // expected-error @+1 {{'fa4.splitk.stage' op stages an f32 accumulator, got '!fa4.frag<64x128xbf16>'}}
  fa4.splitk.stage %o, %m, %m at 0 : !fa4.frag<64x128xbf16>, !fa4.rows<64xf32>
  return
}

// -----

func.func @tmem_alloc_not_power_of_two() {
  // expected-error @+1 {{'fa4.tmem.alloc' op allocates a power of two of 32 to 512 columns, got 48}}
  fa4.tmem.alloc 48 columns to 0
  return
}

// -----

// expected-error @+1 {{a TMEM tile is 128 lanes by a multiple of 16 columns up to 512, got 64x128}}
func.func @tmem_tile_lanes(%t: !fa4.tmem_tile<64x128xf32>) {
  return
}

// -----

// expected-error @+1 {{a TMEM tile holds f32, bf16/f16 or f8E4M3FN/f8E5M2, got 'i32'}}
func.func @tmem_tile_type(%t: !fa4.tmem_tile<128x128xi32>) {
  return
}

// -----

// Under `pair` each CTA holds half of B's N: a whole 128-key K tile is the
// single-CTA shape.
func.func @tmem_mma_pair_whole_b(%q: !fa4.smem_tile<128x128xbf16, k_major>, %k: !fa4.smem_tile<128x128xbf16, k_major>, %d: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op B '!fa4.smem_tile<128x128xbf16, k_major>' is not K = 128 by N = 64 (half of the pair's N) (k_major)}}
  fa4.tmem.mma %q, %k into %d accumulate %acc pair : !fa4.smem_tile<128x128xbf16, k_major>, !fa4.smem_tile<128x128xbf16, k_major>, !fa4.tmem_tile<128x128xf32>
  return
}

// -----

func.func @tmem_mma_bf16_d(%q: !fa4.smem_tile<128x128xbf16, k_major>, %k: !fa4.smem_tile<128x128xbf16, k_major>, %d: !fa4.tmem_tile<128x128xbf16>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op accumulates into an f32 TMEM tile, got '!fa4.tmem_tile<128x128xbf16>'}}
  fa4.tmem.mma %q, %k into %d accumulate %acc : !fa4.smem_tile<128x128xbf16, k_major>, !fa4.smem_tile<128x128xbf16, k_major>, !fa4.tmem_tile<128x128xbf16>
  return
}

// -----

func.func @tmem_mma_f32_a(%p: !fa4.tmem_tile<128x128xf32>, %v: !fa4.smem_tile<128x128xbf16, mn_major>, %d: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op takes A from TMEM as 16-bit or 8-bit, got '!fa4.tmem_tile<128x128xf32>'}}
  fa4.tmem.mma %p, %v into %d accumulate %acc : !fa4.tmem_tile<128x128xf32>, !fa4.smem_tile<128x128xbf16, mn_major>, !fa4.tmem_tile<128x128xf32>
  return
}

// -----

func.func @tmem_mma_a_rows(%q: !fa4.smem_tile<64x128xbf16, k_major>, %k: !fa4.smem_tile<128x128xbf16, k_major>, %d: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op takes a shared-memory A K-major with 128 rows, got '!fa4.smem_tile<64x128xbf16, k_major>'}}
  fa4.tmem.mma %q, %k into %d accumulate %acc : !fa4.smem_tile<64x128xbf16, k_major>, !fa4.smem_tile<128x128xbf16, k_major>, !fa4.tmem_tile<128x128xf32>
  return
}

// -----

func.func @tmem_mma_b_shape(%q: !fa4.smem_tile<128x128xbf16, k_major>, %k: !fa4.smem_tile<64x128xbf16, k_major>, %d: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op B '!fa4.smem_tile<64x128xbf16, k_major>' is not K = 128 by N = 128 (k_major)}}
  fa4.tmem.mma %q, %k into %d accumulate %acc : !fa4.smem_tile<128x128xbf16, k_major>, !fa4.smem_tile<64x128xbf16, k_major>, !fa4.tmem_tile<128x128xf32>
  return
}

// -----

func.func @tmem_mma_types(%q: !fa4.smem_tile<128x128xbf16, k_major>, %k: !fa4.smem_tile<128x128xf16, k_major>, %d: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op A holds 'bf16' but B holds 'f16'}}
  fa4.tmem.mma %q, %k into %d accumulate %acc : !fa4.smem_tile<128x128xbf16, k_major>, !fa4.smem_tile<128x128xf16, k_major>, !fa4.tmem_tile<128x128xf32>
  return
}

// -----

// N = 272 is past tcgen05 kind::f16's 256.
func.func @tmem_mma_n(%q: !fa4.smem_tile<128x128xbf16, k_major>, %k: !fa4.smem_tile<272x128xbf16, k_major>, %d: !fa4.tmem_tile<128x272xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op needs K a multiple of 16 and N a multiple of 16 up to 256 (tcgen05 kind::f16, M = 128), got K = 128, N = 272}}
  fa4.tmem.mma %q, %k into %d accumulate %acc : !fa4.smem_tile<128x128xbf16, k_major>, !fa4.smem_tile<272x128xbf16, k_major>, !fa4.tmem_tile<128x272xf32>
  return
}

// -----

func.func @tmem_load_shape(%t: !fa4.tmem_tile<128x128xf32>) {
  // expected-error @+1 {{'fa4.tmem.load' op moves '!fa4.frag<128x64xf32>' to or from '!fa4.tmem_tile<128x128xf32>'; shapes and types must match}}
  %f = fa4.tmem.load %t : !fa4.tmem_tile<128x128xf32> -> !fa4.frag<128x64xf32>
  return
}

// -----

func.func @tmem_store_type(%f: !fa4.frag<128x128xf32>, %t: !fa4.tmem_tile<128x128xbf16>) {
  // expected-error @+1 {{'fa4.tmem.store' op moves '!fa4.frag<128x128xf32>' to or from '!fa4.tmem_tile<128x128xbf16>'; shapes and types must match}}
  fa4.tmem.store %f, %t : !fa4.frag<128x128xf32>, !fa4.tmem_tile<128x128xbf16>
  return
}

// -----

func.func @tmem_scale_rows(%t: !fa4.tmem_tile<128x128xbf16>, %r: !fa4.rows<128xf32>) {
  // expected-error @+1 {{'fa4.tmem.scale_rows' op scales the rows of an f32 TMEM tile by one f32 per row, got '!fa4.tmem_tile<128x128xbf16>' by '!fa4.rows<128xf32>'}}
  fa4.tmem.scale_rows %t by %r : !fa4.tmem_tile<128x128xbf16>, !fa4.rows<128xf32>
  return
}

// -----

func.func @epilogue_bf16_tmem(%t: !fa4.tmem_tile<128x128xbf16>, %r: !fa4.rows<128xf32>, %out: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.epilogue' op stores an f32 accumulator, got '!fa4.tmem_tile<128x128xbf16>'}}
  fa4.epilogue %t, %r, %r to %out[%i, %i, %i] strides [%s, %s, %s] sq %i depth 128 of bf16 : !fa4.tmem_tile<128x128xbf16>, <128xf32>, !llvm.ptr<1>
  return
}

// -----

func.func @stage_bf16_tmem(%t: !fa4.tmem_tile<128x64xbf16>, %r: !fa4.rows<128xf32>) {
  // expected-error @+1 {{'fa4.splitk.stage' op stages an f32 accumulator, got '!fa4.tmem_tile<128x64xbf16>'}}
  fa4.splitk.stage %t, %r, %r at 0 : !fa4.tmem_tile<128x64xbf16>, <128xf32>
  return
}

// -----

func.func @stage_tmem_rows(%t: !fa4.tmem_tile<128x64xf32>, %r: !fa4.rows<64xf32>) {
  // expected-error @+1 {{'fa4.splitk.stage' op max '!fa4.rows<64xf32>' must be one f32 per row of '!fa4.frag<128x64xf32>'}}
  fa4.splitk.stage %t, %r, %r at 0 : !fa4.tmem_tile<128x64xf32>, <64xf32>
  return
}

// -----

func.func @epilogue_stage_f32(%o: !fa4.tmem_tile<128x128xf32>, %m: !fa4.rows<128xf32>) {
  // expected-error @+1 {{'fa4.epilogue.stage' op stages bf16 or f16 (64-column boxes of 128-byte rows), got 'f32'}}
  fa4.epilogue.stage %o, %m to 0 of f32 : !fa4.tmem_tile<128x128xf32>, !fa4.rows<128xf32>
  return
}

// -----

func.func @epilogue_stage_part_box(%o: !fa4.tmem_tile<128x96xf32>, %m: !fa4.rows<128xf32>) {
  // expected-error @+1 {{'fa4.epilogue.stage' op stages whole 64-column boxes, got 96 columns}}
  fa4.epilogue.stage %o, %m to 0 of bf16 : !fa4.tmem_tile<128x96xf32>, !fa4.rows<128xf32>
  return
}

// -----

func.func @epilogue_stage_box_past_tile(%o: !fa4.frag<64x128xf32>, %m: !fa4.rows<64xf32>) {
  // expected-error @+1 {{'fa4.epilogue.stage' op box 2 is past the tile's 2 64-column boxes}}
  fa4.epilogue.stage %o, %m to 0 of bf16 {box = 2 : i64} : !fa4.frag<64x128xf32>, !fa4.rows<64xf32>
  return
}

// -----

func.func @epilogue_stage_box_from_tmem(%o: !fa4.tmem_tile<128x128xf32>, %m: !fa4.rows<128xf32>) {
  // expected-error @+1 {{'fa4.epilogue.stage' op stages one box only from a register frag}}
  fa4.epilogue.stage %o, %m to 0 of bf16 {box = 0 : i64} : !fa4.tmem_tile<128x128xf32>, !fa4.rows<128xf32>
  return
}

// -----

func.func @epilogue_stage_base_from_tmem(%o: !fa4.tmem_tile<128x128xf32>, %m: !fa4.rows<128xf32>, %base: i32) {
  // expected-error @+1 {{'fa4.epilogue.stage' op takes a run-time base only with a register frag (sm_90a); a TMEM tile stages at its constant offset}}
  fa4.epilogue.stage %o, %m to 0 plus %base of bf16 : !fa4.tmem_tile<128x128xf32>, !fa4.rows<128xf32>
  return
}

// -----

func.func @epilogue_stage_misaligned(%o: !fa4.tmem_tile<128x128xf32>, %m: !fa4.rows<128xf32>) {
  // expected-error @+1 {{'fa4.epilogue.stage' op stages at a 1024-byte aligned offset (the 128B swizzle's atom), got 512}}
  fa4.epilogue.stage %o, %m to 512 of bf16 : !fa4.tmem_tile<128x128xf32>, !fa4.rows<128xf32>
  return
}

// -----

func.func @epilogue_stage_rows(%o: !fa4.tmem_tile<128x128xf32>, %m: !fa4.rows<64xf32>) {
  // expected-error @+1 {{'fa4.epilogue.stage' op sum '!fa4.rows<64xf32>' must be one f32 per row of '!fa4.frag<128x128xf32>'}}
  fa4.epilogue.stage %o, %m to 0 of bf16 : !fa4.tmem_tile<128x128xf32>, !fa4.rows<64xf32>
  return
}

// -----

func.func @lse_store_strides(%m: !fa4.rows<128xf32>, %lse: !llvm.ptr<1>, %i: i32, %s: i64) {
  // expected-error @+1 {{'fa4.lse.store' op takes LSE's batch and head strides (2), got 3}}
  fa4.lse.store %m, %m to %lse[%i, %i, %i] strides [%s, %s, %s] sq %i : !fa4.rows<128xf32>, !llvm.ptr<1>
  return
}

// -----

func.func @tma_store_rank(%map: !fa4.tensor_map, %i: i32) {
  // expected-error @+1 {{'fa4.tma.store' op takes 1 to 5 coordinates (a tensor map's rank), got 6}}
  fa4.tma.store %map[%i, %i, %i, %i, %i, %i] from %i
  return
}

//===----------------------------------------------------------------------===//
// fa4.tensor_map.stage, fa4.tensor_map.publish
//===----------------------------------------------------------------------===//

// -----

func.func @stage_misaligned(%p: !llvm.ptr<1>, %d: i32, %s: i64) {
  // expected-error @+1 {{'fa4.tensor_map.stage' op stages a tensor map at byte 64 of shared memory; it needs a non-negative multiple of 128}}
  fa4.tensor_map.stage %p dims [%d, %d] strides [%s] box [64, 8] element_bytes 2 swizzle 128 to 64 : !llvm.ptr<1>
  return
}

// -----

func.func @stage_ranks(%p: !llvm.ptr<1>, %d: i32, %s: i64) {
  // expected-error @+1 {{'fa4.tensor_map.stage' op needs a box of rank 1 to 5 with as many dims and one stride fewer, got a box of rank 2, 2 dims and 2 strides}}
  fa4.tensor_map.stage %p dims [%d, %d] strides [%s, %s] box [64, 8] element_bytes 2 swizzle 128 to 0 : !llvm.ptr<1>
  return
}

// -----

func.func @stage_box(%p: !llvm.ptr<1>, %d: i32, %s: i64) {
  // expected-error @+1 {{'fa4.tensor_map.stage' op has a box extent of 257; TMA boxes are 1 to 256 per dim}}
  fa4.tensor_map.stage %p dims [%d, %d] strides [%s] box [64, 257] element_bytes 2 swizzle 128 to 0 : !llvm.ptr<1>
  return
}

// -----

func.func @stage_element(%p: !llvm.ptr<1>, %d: i32, %s: i64) {
  // expected-error @+1 {{'fa4.tensor_map.stage' op has 3-byte elements; expected 1, 2, 4 or 8}}
  fa4.tensor_map.stage %p dims [%d, %d] strides [%s] box [64, 8] element_bytes 3 swizzle 128 to 0 : !llvm.ptr<1>
  return
}

// -----

func.func @stage_swizzle(%p: !llvm.ptr<1>, %d: i32, %s: i64) {
  // expected-error @+1 {{'fa4.tensor_map.stage' op has a 96-byte swizzle; expected 0, 32, 64 or 128}}
  fa4.tensor_map.stage %p dims [%d, %d] strides [%s] box [64, 8] element_bytes 2 swizzle 96 to 0 : !llvm.ptr<1>
  return
}

// -----

func.func @stage_inner_box(%p: !llvm.ptr<1>, %d: i32, %s: i64) {
  // expected-error @+1 {{'fa4.tensor_map.stage' op has an inner box of 256 bytes; TMA needs a multiple of 16 within the swizzle span}}
  fa4.tensor_map.stage %p dims [%d, %d] strides [%s] box [128, 8] element_bytes 2 swizzle 128 to 0 : !llvm.ptr<1>
  return
}

// -----

func.func @publish_misaligned(%p: !llvm.ptr<1>) {
  // expected-error @+1 {{'fa4.tensor_map.publish' op stages a tensor map at byte 32 of shared memory; it needs a non-negative multiple of 128}}
  fa4.tensor_map.publish %p from 32 : !llvm.ptr<1>
  return
}

// -----

func.func @copy_async_partial_rows(%base: !llvm.ptr<1>, %n: i32, %s: i64) {
  // expected-error @+1 {{'fa4.copy_async.box' op has 66 lines, not whole rows of 4}}
  fa4.copy_async.box %base rows %n stride %s group 4 stride %s lines 66 chunks 8 to %n thread %n of 128 : !llvm.ptr<1>
  return
}

// -----

func.func @copy_async_partial_lines(%base: !llvm.ptr<1>, %n: i32, %s: i64) {
  // expected-error @+1 {{'fa4.copy_async.box' op copies with 100 threads; whole 8-chunk lines per round need a multiple of 8}}
  fa4.copy_async.box %base rows %n stride %s group 1 stride %s lines 64 chunks 8 to %n thread %n of 100 : !llvm.ptr<1>
  return
}

// -----

func.func @copy_async_nine_chunks(%base: !llvm.ptr<1>, %n: i32, %s: i64) {
  // expected-error @+1 {{'fa4.copy_async.box' op attribute 'chunks' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 whose maximum value is 8}}
  fa4.copy_async.box %base rows %n stride %s group 1 stride %s lines 64 chunks 9 to %n thread %n of 128 : !llvm.ptr<1>
  return
}

// -----

func.func @copy_async_no_threads(%base: !llvm.ptr<1>, %n: i32, %s: i64) {
  // expected-error @+1 {{'fa4.copy_async.box' op attribute 'threads' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  fa4.copy_async.box %base rows %n stride %s group 1 stride %s lines 64 chunks 8 to %n thread %n of 0 : !llvm.ptr<1>
  return
}

// -----

// fa4.softcap caps f32 scores, and keeps their type.
func.func @softcap_bf16(%s: !fa4.frag<64x176xbf16>, %k: f32) {
  // expected-error @+1 {{'fa4.softcap' op caps an f32 frag of scores, got '!fa4.frag<64x176xbf16>'}}
  %t = fa4.softcap %s scale %k : !fa4.frag<64x176xbf16>
  return
}

// -----

func.func @softcap_type_changes(%s: !fa4.frag<64x176xf32>, %k: f32) {
  // expected-error @+1 {{'fa4.softcap' op failed to verify that all of {scores, result} have same type}}
  %t = "fa4.softcap"(%s, %k) : (!fa4.frag<64x176xf32>, f32) -> !fa4.frag<64x128xf32>
  return
}

// -----

// fa4.sink.rows gives max and sum of one rows type, and a group of at
// least one head.
func.func @sink_rows_types_differ(%p: !llvm.ptr<1>, %h: i32, %c: i1) {
  // expected-error @+1 {{'fa4.sink.rows' op failed to verify that all of {max, sum} have same type}}
  %m, %s = "fa4.sink.rows"(%p, %h, %c) : (!llvm.ptr<1>, i32, i1) -> (!fa4.rows<64xf32>, !fa4.rows<128xf32>)
  return
}

// -----

func.func @sink_rows_group_zero(%p: !llvm.ptr<1>, %h: i32, %c: i1) {
  // expected-error @+1 {{'fa4.sink.rows' op attribute 'group' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %m, %s = fa4.sink.rows %p[%h] if %c {group = 0 : i64} : !fa4.rows<64xf32>, !llvm.ptr<1>
  return
}

// -----

// kind::f8f6f4 mixes 8-bit types but not an 8-bit with a 16-bit one.
func.func @tmem_mma_f8_bf16(%q: !fa4.smem_tile<128x128xf8E4M3FN, k_major>, %k: !fa4.smem_tile<64x128xbf16, k_major>, %s: !fa4.tmem_tile<128x64xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op A holds 'f8E4M3FN' but B holds 'bf16'}}
  fa4.tmem.mma %q, %k into %s accumulate %acc : !fa4.smem_tile<128x128xf8E4M3FN, k_major>, !fa4.smem_tile<64x128xbf16, k_major>, !fa4.tmem_tile<128x64xf32>
  return
}

// -----

// An 8-bit A in TMEM whose K (48) is not whole MMAs of 32.
func.func @tmem_mma_f8_k(%p: !fa4.tmem_tile<128x48xf8E4M3FN>, %v: !fa4.smem_tile<48x128xf8E4M3FN, mn_major>, %o: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op needs K a multiple of 32 and N a multiple of 16 up to 256 (tcgen05 kind::f8f6f4, M = 128), got K = 48, N = 128}}
  fa4.tmem.mma %p, %v into %o accumulate %acc : !fa4.tmem_tile<128x48xf8E4M3FN>, !fa4.smem_tile<48x128xf8E4M3FN, mn_major>, !fa4.tmem_tile<128x128xf32>
  return
}

// -----

func.func @tmem_mma_f8_pair(%q: !fa4.smem_tile<128x128xf8E4M3FN, k_major>, %k: !fa4.smem_tile<64x128xf8E4M3FN, k_major>, %s: !fa4.tmem_tile<128x128xf32>, %acc: i1) {
  // expected-error @+1 {{'fa4.tmem.mma' op issues 8-bit operands (kind::f8f6f4) only with cta_group::1}}
  fa4.tmem.mma %q, %k into %s accumulate %acc pair : !fa4.smem_tile<128x128xf8E4M3FN, k_major>, !fa4.smem_tile<64x128xf8E4M3FN, k_major>, !fa4.tmem_tile<128x128xf32>
  return
}

// -----

// sm_90a's wgmma takes 16-bit operands here; its FP8 form is not lowered.
func.func @mma_f8(%q: !fa4.smem_tile<64x128xf8E4M3FN, k_major>, %k: !fa4.smem_tile<176x128xf8E4M3FN, k_major>, %acc: !fa4.frag<64x176xf32>) {
  // expected-error @+1 {{'fa4.mma' op takes bf16 or f16 operands (wgmma k16), got 'f8E4M3FN'}}
  %s = fa4.mma %q, %k, %acc : !fa4.smem_tile<64x128xf8E4M3FN, k_major>, !fa4.smem_tile<176x128xf8E4M3FN, k_major>, !fa4.frag<64x176xf32>
  return
}
