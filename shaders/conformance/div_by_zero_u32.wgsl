// rule: u32 division by zero yields the dividend
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "If e2 is zero ... Otherwise, e1."
//
// Derivation (a / b, b a run-time zero): 7/0 = 7, 0/0 = 0,
// 0xFFFFFFFF/0 = 0xFFFFFFFF, 0x80000000/0 = 0x80000000, 1/0 = 1. Ordinary
// divisors for contrast: 7/2 = 3, 0xFFFFFFFF/16 = 0x0FFFFFFF = 268435455.

fn div_by_zero_u32(a: u32, b: u32) -> u32 {
    return a / b;
}
