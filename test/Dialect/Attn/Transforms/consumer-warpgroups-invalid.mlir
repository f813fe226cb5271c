// consumer-warpgroups=3 where the plan has no room for it: refused with what
// is accepted (the option's range is checked in consumer-warpgroups.mlir).

// RUN: fa4-opt %s -split-input-file -verify-diagnostics --attn-select-config="chip=sm_90a consumer-warpgroups=3"

// Dv = 256 has no KV tile in 160 registers.
func.func @d256_three(%q: tensor<2x8192x8x256xbf16>, %k: tensor<2x8192x8x256xbf16>, %v: tensor<2x8192x8x256xbf16>) -> tensor<2x8192x8x256xbf16> {
  // expected-error @+1 {{'attn.attention' op three consumer warpgroups keep 160 registers a thread, too few for a 64 x 256 f32 O next to S and P; expected ovDepth <= 128 with consumer-warpgroups=3}}
  %o = attn.attention %q, %k, %v
      : tensor<2x8192x8x256xbf16>, tensor<2x8192x8x256xbf16>, tensor<2x8192x8x256xbf16>
      -> tensor<2x8192x8x256xbf16>
  return %o : tensor<2x8192x8x256xbf16>
}
