// attn-explain on the default example (examples/attention.mlir: Llama-3-8B
// GQA, causal, bf16, dynamic sizes) planned for batch 2 x 8192 x 8192, on both
// chips: one section per plan (config, split-K, tmem or none, swizzle, smem),
// each decision with the rule behind it.

// RUN: fa4-opt %S/../../../../examples/attention.mlir --attn-plan-pipeline="chip=sm_100a batch-hint=2 seq-q-hint=8192 seq-kv-hint=8192" --attn-explain -o /dev/null | FileCheck %s --check-prefix=SM100 --match-full-lines
// RUN: fa4-opt %S/../../../../examples/attention.mlir --attn-plan-pipeline="chip=sm_90a batch-hint=2 seq-q-hint=8192 seq-kv-hint=8192" --attn-explain -o /dev/null | FileCheck %s --check-prefix=SM90 --match-full-lines

// Explain prints only the plans present, and says when there is none.
// RUN: fa4-opt %s --attn-explain -o /dev/null | FileCheck %s --check-prefix=NO-PLAN
// RUN: fa4-opt %s --attn-select-config=chip=sm_90a --attn-explain -o /dev/null | FileCheck %s --check-prefix=CONFIG-ONLY
// RUN: fa4-opt %s --attn-select-config=chip=sm_100a --attn-plan-tmem --attn-explain -o /dev/null | FileCheck %s --check-prefix=CONFIG-TMEM

// SM100: attn.attention at loc({{.*}}examples/attention.mlir":7:14)
// SM100-NEXT: problem: bf16, Hq 32 / Hkv 8 (group 4), Dqk 128, Dv 128, mask #attn.mask<causal>, scale 8.838835e-02 (default 1/sqrt(Dqk))
// SM100-NEXT: config: sm_100a, bf16 in, bf16 out, 512 threads
// SM100-NEXT:   depths: qk 128 -> 128, ov 128 -> 128, nope 128 -> 128 (padded to whole 64-element swizzle rows, multiples of MMA_K 16)
// SM100-NEXT:   heads: 32 q / 8 kv, group 4; fuseGqa = false
// SM100-NEXT:   numQ = 2, BM = 256: two 128-row Q tiles ping-pong between the softmax warpgroups, one's softmax hiding behind the other's MMAs
// SM100-NEXT:   BN = 128: S0,S1 (2 x 128) + O0,O1 (2 x 128) = 512 of 512 TMEM columns; at most 128 so a softmax thread holds its S row
// SM100-NEXT:   MMA_M = 256, pairCta = true: long prefill with enough pair tiles for every SM pair; each CTA loads half of K and V
// SM100-NEXT:   BK0 = 64, BK1 = 64: one swizzle row of depth per Q/K box, as many keys per P@V step
// SM100-NEXT:   useSharedKv = false: separate K and V rings
// SM100-NEXT:   pageSize = 0 (contiguous K/V)
// SM100-NEXT: split-K: none, P = 1: 1024 work item(s) x 2 CTA(s) already occupy the 148 SMs
// SM100-NEXT: tmem: S0 = 0, S1 = 128, O0 = 256, O1 = 384, P0 = 64, P1 = 192
// SM100-NEXT:   S tiles take BN = 128 columns and O tiles Dv = 128; one O tile per Q tile
// SM100-NEXT:   P (bf16, 2 per 32-bit column) overwrites the upper 64 columns of its S tile after softmax has read S
// SM100-NEXT:   used 512 of 512 columns; tcgen05.alloc 512 (a power of two in [32, 512])
// SM100-NEXT: swizzle: P stays in TMEM, never in shared memory
// SM100-NEXT:   Q: box 128 x 64 (128-byte rows), 128B swizzle: the span equals the row
// SM100-NEXT:   K: box 64 x 64 (128-byte rows), 128B swizzle: the span equals the row
// SM100-NEXT:   V: box 128 x 64 (128-byte rows), 128B swizzle: the span equals the row
// SM100-NEXT:   O: box 128 x 64 (128-byte rows), 128B swizzle: the span equals the row
// SM100-NEXT:   K/V path: contiguous: one tensor map over contiguous K and V
// SM100-NEXT: smem: 198936 of 232448 bytes; kvStages = 4 per K and per V ring, as many as fit up to 4, or max-kv-stages
// SM100-NEXT:   qkStages = 2, pvStages = 1: K and V tiles land in depth boxes with a barrier each, so the MMAs start on the first box
// SM100-NEXT:   q: [0, 65536), align 1024
// SM100-NEXT:   oStaging: [0, 65536), align 1024
// SM100-NEXT:   kRing: [65536, 131072), align 1024
// SM100-NEXT:   vRing: [131072, 196608), align 1024
// SM100-NEXT:   correction: [196608, 198656), align 128
// SM100-NEXT:   tmemAddress: [198656, 198660), align 4
// SM100-NEXT:   barriers: [198664, 198936), align 8
// SM100-NEXT:   34 mbarriers

// SM90: attn.attention at loc({{.*}}examples/attention.mlir":7:14)
// SM90-NEXT: problem: bf16, Hq 32 / Hkv 8 (group 4), Dqk 128, Dv 128, mask #attn.mask<causal>, scale 8.838835e-02 (default 1/sqrt(Dqk))
// SM90-NEXT: config: sm_90a, bf16 in, bf16 out, 384 threads
// SM90-NEXT:   depths: qk 128 -> 128, ov 128 -> 128, nope 128 -> 128 (padded to whole 64-element swizzle rows, multiples of MMA_K 16)
// SM90-NEXT:   heads: 32 q / 8 kv, group 4; fuseGqa = false
// SM90-NEXT:   MMA_M = 64 (wgmma), numQ = 2, BM = 128: two consumer warpgroups own one 64-row tile each and ping-pong
// SM90-NEXT:   BN = 128 (S + P + O: 160 registers of 208 of the consumer's 240): the largest multiple of 16 <= 176 whose S + P + O fits and two K+V stages next to Q in shared memory; at most 96 when a work item's rows fit one 64-row tile (decode: more, smaller stages in flight); at most causal-block-n (default 128) under a causal mask up to 8192 keys (or an unknown Skv), so tiles end on the 128-row blocks' diagonals; or block-n
// SM90-NEXT:   BK0 = 64, BK1 = 64: one swizzle row of depth per Q/K box, as many keys per P@V step
// SM90-NEXT:   useSharedKv = false: separate K and V rings
// SM90-NEXT:   pageSize = 0 (contiguous K/V)
// SM90-NEXT: split-K: none, P = 1: 4096 work item(s) x 1 CTA(s) already occupy the 132 SMs
// SM90-NEXT: tmem: none; sm_90a keeps S and O in registers
// SM90-NEXT: swizzle: P stays in registers, never in shared memory
// SM90-NEXT:   Q: box 64 x 64 (128-byte rows), 128B swizzle: the span equals the row
// SM90-NEXT:   K: box 128 x 64 (128-byte rows), 128B swizzle: the span equals the row
// SM90-NEXT:   V: box 128 x 64 (128-byte rows), 128B swizzle: the span equals the row
// SM90-NEXT:   O: box 64 x 64 (128-byte rows), 128B swizzle: the span equals the row
// SM90-NEXT:   K/V path: contiguous: one tensor map over contiguous K and V
// SM90-NEXT: smem: 163968 of 232448 bytes; kvStages = 2 per K and per V ring, as many as fit up to 6, fewer (down to 2) where a prefill kernel's looped twin stages O past the plan (Dv <= 128, a dynamic Skv or one up to 4096), or max-kv-stages
// SM90-NEXT:   qkStages = 2, pvStages = 2: K and V tiles land in depth boxes with a barrier each, so the MMAs start on the first box
// SM90-NEXT:   q: [0, 32768), align 1024
// SM90-NEXT:   oStaging: [0, 32768), align 1024
// SM90-NEXT:   kRing: [32768, 98304), align 1024
// SM90-NEXT:   vRing: [98304, 163840), align 1024
// SM90-NEXT:   barriers: [163840, 163968), align 8
// SM90-NEXT:   16 mbarriers

// NO-PLAN: attn.attention at loc({{.*}}explain.mlir":{{[0-9]+}}:8)
// NO-PLAN-NEXT: problem: f16, Hq 16 / Hkv 2 (group 8), Dqk 64, Dv 64, mask #attn.mask<window(128, 0)>, scale 1.250000e-01 (default 1/sqrt(Dqk))
// NO-PLAN-NEXT: no plan: run attn-select-config first

// CONFIG-ONLY: config: sm_90a, f16 in, f16 out, 384 threads
// CONFIG-ONLY: heads: 16 q / 2 kv, group 8; fuseGqa = true: the q-heads of one kv-head share an M tile, so K/V is read once per kv-head
// CONFIG-ONLY-NOT: split-K:
// CONFIG-ONLY: tmem: none; sm_90a keeps S and O in registers
// CONFIG-ONLY-NOT: swizzle:
// CONFIG-ONLY-NOT: smem:

// CONFIG-TMEM: config: sm_100a, f16 in, f16 out, 512 threads
// CONFIG-TMEM: numQ = 1, BM = 128: one 128-row Q tile with a single O accumulator (fused q-heads run on one tile)
// CONFIG-TMEM-NOT: split-K:
// CONFIG-TMEM: tmem: S0 = 0, S1 = 128, O0 = 256, P0 = 64, P1 = 192
// CONFIG-TMEM-NEXT: S tiles take BN = 128 columns and O tiles Dv = 64; singleO: one O tile
// CONFIG-TMEM: used 320 of 512 columns; tcgen05.alloc 512 (a power of two in [32, 512])
// CONFIG-TMEM-NOT: swizzle:
// CONFIG-TMEM-NOT: smem:
func.func @explain_unplanned_window(%q: tensor<1x4x16x64xf16>, %k: tensor<1x2048x2x64xf16>, %v: tensor<1x2048x2x64xf16>) -> tensor<1x4x16x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(128, 0)>}
      : tensor<1x4x16x64xf16>, tensor<1x2048x2x64xf16>, tensor<1x2048x2x64xf16>
      -> tensor<1x4x16x64xf16>
  return %o : tensor<1x4x16x64xf16>
}
