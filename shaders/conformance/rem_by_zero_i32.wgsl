// rule: i32 remainder by zero is 0
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "if e2 is zero ... Otherwise, 0."
//
// Derivation (a % b, b a run-time zero): 7%0 = -7%0 = 0%0 = INT_MIN%0 =
// INT_MAX%0 = 0. Ordinary divisors for contrast: 7%3 = 7 - 2*3 = 1,
// -7%3 = -7 - truncate(-2.33)*3 = -7 + 6 = -1.

fn rem_by_zero_i32(a: i32, b: i32) -> i32 {
    return a % b;
}
