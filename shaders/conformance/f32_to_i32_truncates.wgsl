// rule: f32 -> i32 rounds toward zero
// spec: WGSL #i32-builtin (i32), "e is converted to i32, rounding towards zero."
//
// Derivation (i32(x) = truncate(x) for x in range): 2.5 -> 2; -2.5 -> -2
// (not -3: toward zero, not down, not to even); 2.9999998 (3 - 2^-22) -> 2
// and -2.9999998 -> -2 (not rounded to nearest); 0.5 -> 0; -0.5 -> 0;
// -0.99999994 (-(1 - 2^-24)) -> 0; 16777215 -> 16777215 (an integer);
// -8388607.5 -> -8388607.

fn f32_to_i32_truncates(x: f32) -> i32 {
    return i32(x);
}
