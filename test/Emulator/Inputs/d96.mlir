// GQA 4/2 at d = 96: the second 64-column box of Q, K and V holds 32
// columns of the tensor, the rest zero-filled.
func.func @d96(%q: tensor<?x?x4x96xbf16>, %k: tensor<?x?x2x96xbf16>, %v: tensor<?x?x2x96xbf16>) -> (tensor<?x?x4x96xbf16>, tensor<?x4x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x4x96xbf16>, tensor<?x?x2x96xbf16>, tensor<?x?x2x96xbf16> -> tensor<?x?x4x96xbf16>, tensor<?x4x?xf32>
  return %o, %lse : tensor<?x?x4x96xbf16>, tensor<?x4x?xf32>
}
