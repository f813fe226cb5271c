// Query tiles that see no key: Sq > Skv under a causal mask, a window that
// ends before the first key (bottom-right aligned), at d = 64 and 256.
func.func @causal_d256(%q: tensor<?x?x2x256xbf16>, %k: tensor<?x?x2x256xbf16>, %v: tensor<?x?x2x256xbf16>) -> (tensor<?x?x2x256xbf16>, tensor<?x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x2x256xbf16>, tensor<?x?x2x256xbf16>, tensor<?x?x2x256xbf16> -> tensor<?x?x2x256xbf16>, tensor<?x2x?xf32>
  return %o, %lse : tensor<?x?x2x256xbf16>, tensor<?x2x?xf32>
}

func.func @window_d256(%q: tensor<?x?x2x256xbf16>, %k: tensor<?x?x1x256xbf16>, %v: tensor<?x?x1x256xbf16>) -> (tensor<?x?x2x256xbf16>, tensor<?x2x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<window(64, 0)>} : tensor<?x?x2x256xbf16>, tensor<?x?x1x256xbf16>, tensor<?x?x1x256xbf16> -> tensor<?x?x2x256xbf16>, tensor<?x2x?xf32>
  return %o, %lse : tensor<?x?x2x256xbf16>, tensor<?x2x?xf32>
}

func.func @causal_d64(%q: tensor<?x?x4x64xf16>, %k: tensor<?x?x2x64xf16>, %v: tensor<?x?x2x64xf16>) -> (tensor<?x?x4x64xf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x4x64xf16>, tensor<?x?x2x64xf16>, tensor<?x?x2x64xf16> -> tensor<?x?x4x64xf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x?x4x64xf16>, tensor<?x4x?xf32>
}
