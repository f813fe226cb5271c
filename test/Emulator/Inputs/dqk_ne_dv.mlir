// Dqk != Dv (192 / 128, DeepSeek-style heads without MLA's latent cache) in
// every kernel form: prefill, decode (split-K over a cluster, and through
// the workspace), and CTA pairs, GQA 8/2 with LSE.
func.func @dqk_ne_dv(%q: tensor<?x?x8x192xbf16>, %k: tensor<?x?x2x192xbf16>, %v: tensor<?x?x2x128xbf16>) -> (tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x192xbf16>, tensor<?x?x2x192xbf16>, tensor<?x?x2x128xbf16> -> tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x128xbf16>, tensor<?x8x?xf32>
}
