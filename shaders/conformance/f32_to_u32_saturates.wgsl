// rule: f32 -> u32 clamps to [0, 4294967040], the u32 values f32 can represent
// spec: WGSL #floating-point-conversion (Floating Point Conversion), "Otherwise, the result is the value in T closest to truncate(X) and also exactly representable in the original floating point type."
//
// Derivation (u32(x)): -1.0 -> 0 (the spec's own example: "-1f converted
// to u32 is 0u"); -0.5 truncates to 0; -1e20 and -2147483904 -> 0, the
// closest u32. 4294967040 = 2^32 - 256 is the largest f32 below 2^32,
// exactly a u32: itself. 4294967296 (2^32), 1e20, 3.4028235e38 -> 4294967040
// (4294967295 is not an f32). Contrast: 3.9 -> 3; 2147483648 -> 2147483648.

fn f32_to_u32_saturates(x: f32) -> u32 {
    return u32(x);
}
