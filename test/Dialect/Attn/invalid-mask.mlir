// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown mask 'diagonal'; expected none, causal or window(left, right)}}
func.func private @unknown() attributes {m = #attn.mask<diagonal>}

// -----

// expected-error @+1 {{window bounds must be >= -1 (-1 = unbounded), but got window(-2, 0)}}
func.func private @window_left_below_minus_one() attributes {m = #attn.mask<window(-2, 0)>}

// -----

// expected-error @+1 {{window bounds must be >= -1 (-1 = unbounded), but got window(4, -7)}}
func.func private @window_right_below_minus_one() attributes {m = #attn.mask<window(4, -7)>}

// -----

// expected-error @+1 {{mask 'window' needs its bounds: window(left, right), -1 for an unbounded side}}
func.func private @window_without_bounds() attributes {m = #attn.mask<window>}

// -----

// expected-error @+1 {{mask 'causal' takes no window bounds}}
func.func private @causal_with_bounds() attributes {m = #attn.mask<causal(1, 2)>}

// -----

// expected-error @+1 {{mask 'none' takes no window bounds}}
func.func private @none_with_bounds() attributes {m = #attn.mask<none(0, 0)>}

// -----

// expected-error @+1 {{expected integer value}}
func.func private @window_float_bound() attributes {m = #attn.mask<window(1.5, 0)>}

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
func.func private @unterminated() attributes {m = #attn.mask<causal}
