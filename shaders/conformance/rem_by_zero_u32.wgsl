// rule: u32 remainder by zero is 0
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "if e2 is zero ... Otherwise, 0."
//
// Derivation (a % b, b a run-time zero): 7%0 = 0%0 = 0xFFFFFFFF%0 =
// 0x80000000%0 = 0. Ordinary divisors for contrast: 7%3 = 1,
// 4294967295%10 = 5 (4294967295 = 429496729*10 + 5).

fn rem_by_zero_u32(a: u32, b: u32) -> u32 {
    return a % b;
}
