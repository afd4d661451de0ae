// rule: i32 clamp(e, low, high) is min(max(e, low), high), so low > high yields high
// spec: WGSL #clamp (clamp), "If T is an integer type, then the result is min(max(e, low), high)."
//
// Derivation (low > high only at run time, so no creation error): with
// low > high, max(e, low) >= low > high, so min(., high) = high:
// clamp(0, 10, 5) = clamp(7, 10, 5) = clamp(20, 10, 5) = 5;
// clamp(-3, 0, -5) = -5; clamp(INT_MIN, INT_MAX, INT_MIN) = INT_MIN.
// Ordinary ranges for contrast: clamp(3, 0, 5) = 3, clamp(-9, 0, 5) = 0,
// clamp(9, 0, 5) = 5.

fn clamp_low_above_high_i32(e: i32, low: i32, high: i32) -> i32 {
    return clamp(e, low, high);
}
