// The block-n tuning override of attn-select-config: BN as asked when it is
// a multiple of 16 no larger than the chip allows for the tiles, a message
// naming the accepted range otherwise.
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a block-n=64" | FileCheck %s --check-prefix=SM90
// RUN: fa4-opt %s -split-input-file --attn-select-config="chip=sm_100a block-n=64" | FileCheck %s --check-prefix=SM100
// RUN: not fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a block-n=100" 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a block-n=192" 2>&1 | FileCheck %s --check-prefix=TOOBIG90
// RUN: not fa4-opt %s -split-input-file --attn-select-config="chip=sm_100a block-n=144" 2>&1 | FileCheck %s --check-prefix=TOOBIG100
// RUN: not fa4-opt %s -split-input-file --attn-select-config="chip=sm_90a block-n=-16" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// d = 128 prefill: the planner would take 176 keys on sm_90a and 128 on
// sm_100a; the override gives 64 on both and changes nothing else.
// SM90: config = #attn.config<chip = sm_90a, mma_m = 64, mma_k = 16, m_pack = 1, bm = 128, bn = 64, bk0 = 64, bk1 = 64,
// SM100: config = #attn.config<chip = sm_100a, mma_m = 128, mma_k = 16, m_pack = 1, bm = 256, bn = 64, bk0 = 64, bk1 = 64,
// TOOBIG90: error: 'attn.attention' op expected block-n to be a multiple of 16 from 16 to 176 (the largest KV tile this chip's registers and shared memory allow here), but got 192
// TOOBIG100: error: 'attn.attention' op expected block-n to be a multiple of 16 from 16 to 128 (the largest KV tile this chip's TMEM and shared memory allow here), but got 144
// ODD: error: 'attn.attention' op expected block-n to be a multiple of 16 from 16 to 176 {{.*}}, but got 100
// NEGATIVE: error: 'attn.attention' op expected block-n to be a multiple of 16 from 16 to 176 {{.*}}, but got -16
func.func @prefill(%q: tensor<2x1024x16x128xbf16>, %k: tensor<2x1024x16x128xbf16>, %v: tensor<2x1024x16x128xbf16>) -> tensor<2x1024x16x128xbf16> {
  %o = attn.attention %q, %k, %v
      : tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>, tensor<2x1024x16x128xbf16>
      -> tensor<2x1024x16x128xbf16>
  return %o : tensor<2x1024x16x128xbf16>
}
