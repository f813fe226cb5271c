// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// The scale, softcap and mask attributes of the op.

func.func @negative_scale(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects scale to be finite and > 0, but got -1}}
  %o = attn.attention %q, %q, %q {scale = -1.0 : f32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @infinite_scale(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects scale to be finite and > 0, but got INF}}
  %o = attn.attention %q, %q, %q {scale = 0x7F800000 : f32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @scale_wrong_type(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{attribute 'scale' failed to satisfy constraint: 32-bit float attribute}}
  %o = attn.attention %q, %q, %q {scale = 2 : i32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @mask_wrong_attribute(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{attribute 'mask' failed to satisfy constraint}}
  %o = attn.attention %q, %q, %q {mask = "causal"} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @zero_softcap(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects softcap to be finite and > 0, but got 0}}
  %o = attn.attention %q, %q, %q {softcap = 0.0 : f32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @negative_softcap(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects softcap to be finite and > 0, but got -1.500000e+01}}
  %o = attn.attention %q, %q, %q {softcap = -15.0 : f32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

// -----

func.func @infinite_softcap(%q: tensor<1x8x4x64xbf16>) {
  // expected-error @+1 {{expects softcap to be finite and > 0, but got INF}}
  %o = attn.attention %q, %q, %q {softcap = 0x7F800000 : f32} : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
  return
}

