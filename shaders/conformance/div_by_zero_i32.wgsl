// rule: i32 division by zero yields the dividend
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "If e2 is zero ... Otherwise, e1."
//
// Derivation (a / b, b a run-time zero): 7/0 = 7, -7/0 = -7, 0/0 = 0,
// INT_MIN/0 = INT_MIN, INT_MAX/0 = INT_MAX. Ordinary divisors for contrast:
// 7/2 = truncate(3.5) = 3, 6/3 = 2, -9/4 = truncate(-2.25) = -2.

fn div_by_zero_i32(a: i32, b: i32) -> i32 {
    return a / b;
}
