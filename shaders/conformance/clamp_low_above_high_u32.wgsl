// rule: u32 clamp(e, low, high) is min(max(e, low), high), so low > high yields high
// spec: WGSL #clamp (clamp), "If T is an integer type, then the result is min(max(e, low), high)."
//
// Derivation (low > high only at run time): max(e, low) >= low > high, so
// the result is high: clamp(0, 10, 5) = clamp(7, 10, 5) = clamp(20, 10, 5)
// = 5; clamp(1, 0xFFFFFFFF, 0) = 0. Contrast: clamp(3, 0, 5) = 3,
// clamp(9, 0, 5) = 5.

fn clamp_low_above_high_u32(e: u32, low: u32, high: u32) -> u32 {
    return clamp(e, low, high);
}
