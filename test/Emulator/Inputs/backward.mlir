// Backward ops for test/Emulator/backward.test: GQA causal bf16; an f16
// window with a softcap, a scale and Dqk 72 != Dv 96 (lanes past the depth);
// MQA bf16 without a mask at d = 128.
func.func @gqa_causal(%do: tensor<?x?x8x64xbf16>, %q: tensor<?x?x8x64xbf16>, %k: tensor<?x?x2x64xbf16>, %v: tensor<?x?x2x64xbf16>, %o: tensor<?x?x8x64xbf16>, %lse: tensor<?x8x?xf32>) -> (tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>) {
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {mask = #attn.mask<causal>} : tensor<?x?x8x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x8x64xbf16>, tensor<?x8x?xf32> -> tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>
  return %dq, %dk, %dv : tensor<?x?x8x64xbf16>, tensor<?x?x2x64xbf16>, tensor<?x?x2x64xbf16>
}
func.func @window_softcap(%do: tensor<?x?x4x96xf16>, %q: tensor<?x?x4x72xf16>, %k: tensor<?x?x4x72xf16>, %v: tensor<?x?x4x96xf16>, %o: tensor<?x?x4x96xf16>, %lse: tensor<?x4x?xf32>) -> (tensor<?x?x4x72xf16>, tensor<?x?x4x72xf16>, tensor<?x?x4x96xf16>) {
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse {mask = #attn.mask<window(9, 4)>, softcap = 15.0 : f32, scale = 0.2 : f32} : tensor<?x?x4x96xf16>, tensor<?x?x4x72xf16>, tensor<?x?x4x72xf16>, tensor<?x?x4x96xf16>, tensor<?x?x4x96xf16>, tensor<?x4x?xf32> -> tensor<?x?x4x72xf16>, tensor<?x?x4x72xf16>, tensor<?x?x4x96xf16>
  return %dq, %dk, %dv : tensor<?x?x4x72xf16>, tensor<?x?x4x72xf16>, tensor<?x?x4x96xf16>
}
func.func @mqa_none(%do: tensor<?x?x4x128xbf16>, %q: tensor<?x?x4x128xbf16>, %k: tensor<?x?x1x128xbf16>, %v: tensor<?x?x1x128xbf16>, %o: tensor<?x?x4x128xbf16>, %lse: tensor<?x4x?xf32>) -> (tensor<?x?x4x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16>) {
  %dq, %dk, %dv = attn.attention_backward %do, %q, %k, %v, %o, %lse : tensor<?x?x4x128xbf16>, tensor<?x?x4x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x4x128xbf16>, tensor<?x4x?xf32> -> tensor<?x?x4x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16>
  return %dq, %dk, %dv : tensor<?x?x4x128xbf16>, tensor<?x?x1x128xbf16>, tensor<?x?x1x128xbf16>
}
