// rule: i32 INT_MIN / -1 yields INT_MIN
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "If e1 is most negative value in T, and e2 is -1 ... Otherwise, e1."
//
// Derivation (a / b at run time): INT_MIN / -1 = INT_MIN (the true quotient
// 2^31 is not an i32). Contrast: INT_MIN / 1 = INT_MIN, INT_MIN / 2 =
// -1073741824, INT_MIN / -2 = 1073741824, -2147483647 / -1 = 2147483647,
// INT_MAX / -1 = -2147483647.

fn div_int_min_by_minus_one(a: i32, b: i32) -> i32 {
    return a / b;
}
