// A CTA pair's kernel (pair_cta with a long prefill's hints): GQA, causal,
// f16, O without LSE.
func.func @pair_causal(%q: tensor<?x?x8x128xf16>, %k: tensor<?x?x2x128xf16>, %v: tensor<?x?x2x128xf16>) -> tensor<?x?x8x128xf16> {
  %o = attn.attention %q, %k, %v {mask = #attn.mask<causal>} : tensor<?x?x8x128xf16>, tensor<?x?x2x128xf16>, tensor<?x?x2x128xf16> -> tensor<?x?x8x128xf16>
  return %o : tensor<?x?x8x128xf16>
}
