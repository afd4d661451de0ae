// rule: i32 INT_MIN % -1 is 0
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "If e1 is the most negative value in T, and e2 is -1 ... Otherwise, 0."
//
// Derivation (a % b at run time): INT_MIN % -1 = 0. Contrast: INT_MIN % 1 = 0;
// INT_MIN % 5 = -3 (2147483648 = 429496729*5 + 3, sign of the dividend);
// INT_MIN % -3 = -2 (2147483648 = 715827882*3 + 2); -2147483647 % -1 = 0;
// INT_MAX % -1 = 0.

fn rem_int_min_by_minus_one(a: i32, b: i32) -> i32 {
    return a % b;
}
