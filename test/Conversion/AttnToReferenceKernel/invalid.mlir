// RUN: fa4-opt %s -split-input-file --convert-attn-to-reference-kernel=chip=sm_80 -verify-diagnostics

// expected-error @+1 {{unknown chip 'sm_80'; expected sm_100a or sm_90a}}
module {
  func.func @f(%q: tensor<1x8x4x64xbf16>) -> tensor<1x8x4x64xbf16> {
    %o = attn.attention %q, %q, %q : tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16>, tensor<1x8x4x64xbf16> -> tensor<1x8x4x64xbf16>
    return %o : tensor<1x8x4x64xbf16>
  }
}
