// RUN: fa4-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{unknown mask 'diagonal'; expected none, causal or window(left, right)}}
func.func private @unknown() attributes {m = #attn.mask<diagonal>}

// -----

// expected-error @+1 {{window bounds must be -1 (unbounded) or 0 to 1073741823 (kernels compute them in 32 bits), but got window(-2, 0)}}
func.func private @window_left_below_minus_one() attributes {m = #attn.mask<window(-2, 0)>}

// -----

// expected-error @+1 {{window bounds must be -1 (unbounded) or 0 to 1073741823 (kernels compute them in 32 bits), but got window(4, -7)}}
func.func private @window_right_below_minus_one() attributes {m = #attn.mask<window(4, -7)>}

// -----

// A bound past 32 bits is refused with its real value (it once wrapped to
// window(1, 0) in the kernel).
// expected-error @+1 {{window bounds must be -1 (unbounded) or 0 to 1073741823 (kernels compute them in 32 bits), but got window(4294967297, 0)}}
func.func private @window_left_past_32_bits() attributes {m = #attn.mask<window(4294967297, 0)>}

// -----

// right + 1 must stay in 32 bits (INT32_MAX once added -2^31).
// expected-error @+1 {{window bounds must be -1 (unbounded) or 0 to 1073741823 (kernels compute them in 32 bits), but got window(0, 2147483647)}}
func.func private @window_right_int32_max() attributes {m = #attn.mask<window(0, 2147483647)>}

// -----

// The largest bound a kernel represents.
func.func private @window_at_the_limit() attributes {m = #attn.mask<window(1073741823, 1073741823)>}

// -----

// expected-error @+1 {{window bounds must be -1 (unbounded) or 0 to 1073741823 (kernels compute them in 32 bits), but got window(1073741824, 0)}}
func.func private @window_one_past_the_limit() attributes {m = #attn.mask<window(1073741824, 0)>}

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
