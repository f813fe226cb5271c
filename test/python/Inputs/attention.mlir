// The default attention (examples/attention.mlir): GQA 32/8, depth 128,
// causal, bf16, dynamic batch and sequences, returning O and the LSE.
func.func @attention(%q: tensor<?x?x32x128xbf16>, %k: tensor<?x?x8x128xbf16>,
                     %v: tensor<?x?x8x128xbf16>)
    -> (tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<causal>}
      : tensor<?x?x32x128xbf16>, tensor<?x?x8x128xbf16>, tensor<?x?x8x128xbf16>
      -> tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
  return %o, %lse : tensor<?x?x32x128xbf16>, tensor<?x32x?xf32>
}
