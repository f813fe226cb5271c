// A kernel with attention sinks (GQA 8/2, d = 64, causal, LSE): the
// emulator tests' input for the serving-argument launch records.
func.func @sunk(%q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x2x64xbf16>, %v: tensor<?x?x2x64xbf16>, %s: tensor<8xf32>) -> (tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>) {
  %o, %lse = attn.attention %q, %k, %v sinks(%s : tensor<8xf32>) {mask = #attn.mask<causal>} : tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16> -> tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
  return %o, %lse : tensor<?x?x8x64xbf16>, tensor<?x8x?xf32>
}
