// rule: min and max of +0.0 and -0.0 return a zero (WGSL leaves its sign free)
// spec: WGSL #min-float-builtin (min), "Returns e2 if e2 is less than e1, and e1 otherwise."
//
// Derivation ((min(a, b), max(a, b)); WGSL #max-float-builtin: max returns
// e2 if e1 < e2, else e1): -0.0 < 0.0 is false and 0.0 < -0.0 is false
// (zeros compare equal, WGSL #overview-of-ieee-754), so both return e1:
// (-0, 0) -> (-0, -0); (0, -0) -> (0, 0). That sign is not pinned:
// "Implementations may ignore the sign field of a floating point zero
// value" (WGSL #differences-from-ieee754), and gpudiff compares zeros
// without their sign, so what this kernel checks is that the result is a
// zero. Contrast: (-0, 1) -> (-0, 1); (0, -1) -> (-1, 0);
// (1.5, -2.5) -> (-2.5, 1.5).

fn min_max_signed_zero(a: f32, b: f32) -> vec2<f32> {
    return vec2<f32>(min(a, b), max(a, b));
}
