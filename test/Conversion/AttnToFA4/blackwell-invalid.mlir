// RUN: fa4-opt %s --attn-plan-pipeline=chip=sm_100a --convert-attn-to-fa4 -verify-diagnostics


// d = 256 plans one Q tile with a shared K/V ring: not lowered yet, and
// said so.
func.func @fa4_d256(%q: tensor<?x?x6x256xbf16>, %k: tensor<?x?x3x256xbf16>, %v: tensor<?x?x3x256xbf16>) -> tensor<?x?x6x256xbf16> {
  // expected-error @+1 {{has an sm_100a plan the FA4 kernel does not lower yet}}
  %o = attn.attention %q, %k, %v {mask = #attn.mask<none>} : tensor<?x?x6x256xbf16>, tensor<?x?x3x256xbf16>, tensor<?x?x3x256xbf16> -> tensor<?x?x6x256xbf16>
  return %o : tensor<?x?x6x256xbf16>
}
