// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -verify-diagnostics


// MLA (576/512) plans 64-row tiles packed two rows per TMEM lane: not
// lowered yet, and said so.
func.func @fa4_mla(%q: tensor<?x?x16x576xbf16>, %k: tensor<?x?x1x576xbf16>, %v: tensor<?x?x1x512xbf16>) -> tensor<?x?x16x512xbf16> {
  // expected-error @+1 {{has an sm_100a MLA plan, which the FA4 kernel does not lower yet (it implements 128-row Q tiles, one CTA or a CTA pair)}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x16x576xbf16>, tensor<?x?x1x576xbf16>, tensor<?x?x1x512xbf16> -> tensor<?x?x16x512xbf16>
  return %o : tensor<?x?x16x512xbf16>
}
