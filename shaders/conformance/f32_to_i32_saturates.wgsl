// rule: f32 -> i32 clamps to [-2^31, 2147483520], the i32 values f32 can represent
// spec: WGSL #floating-point-conversion (Floating Point Conversion), "Otherwise, the result is the value in T closest to truncate(X) and also exactly representable in the original floating point type."
//
// Derivation (i32(x)): 2147483520 = 2^31 - 128 is the largest f32 below
// 2^31, exactly an i32: itself. 2147483648 (2^31), 4294967296 (2^32), 1e20
// and 3.4028235e38 (the largest f32) are above INT_MAX: the closest i32 that
// is an f32 is 2147483520 (2147483647 is not an f32). -2147483648 is exactly
// INT_MIN; -2147483904 (the next f32 below) and -1e20 clamp to INT_MIN,
// itself an f32. Contrast: 1.0 -> 1, -1.0 -> -1.

fn f32_to_i32_saturates(x: f32) -> i32 {
    return i32(x);
}
