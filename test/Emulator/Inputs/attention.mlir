// Kernels for the emulator tests: every family the Hopper kernel has at
// small, dynamic sizes (the tests pick odd ones at run time).
func.func @gqa(%q: tensor<?x?x6x128xbf16>, %k: tensor<?x?x3x128xbf16>, %v: tensor<?x?x3x128xbf16>) -> (tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x128xbf16>, tensor<?x?x3x128xbf16>, tensor<?x?x3x128xbf16> -> tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
  return %o, %lse : tensor<?x?x6x128xbf16>, tensor<?x6x?xf32>
}

func.func @causal(%q: tensor<?x?x4x64xf16>, %k: tensor<?x?x4x64xf16>, %v: tensor<?x?x4x64xf16>) -> tensor<?x?x4x64xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x4x64xf16>, tensor<?x?x4x64xf16>, tensor<?x?x4x64xf16> -> tensor<?x?x4x64xf16>
  return %o : tensor<?x?x4x64xf16>
}

func.func @window(%q: tensor<?x?x4x96xbf16>, %k: tensor<?x?x1x96xbf16>, %v: tensor<?x?x1x96xbf16>) -> tensor<?x?x4x96xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<window(37, 5)>} : tensor<?x?x4x96xbf16>, tensor<?x?x1x96xbf16>, tensor<?x?x1x96xbf16> -> tensor<?x?x4x96xbf16>
  return %o : tensor<?x?x4x96xbf16>
}

func.func @dqk192(%q: tensor<?x?x2x192xbf16>, %k: tensor<?x?x2x192xbf16>, %v: tensor<?x?x2x128xbf16>) -> tensor<?x?x2x128xbf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x2x192xbf16>, tensor<?x?x2x192xbf16>, tensor<?x?x2x128xbf16> -> tensor<?x?x2x128xbf16>
  return %o : tensor<?x?x2x128xbf16>
}
