// rule: i32 negation of INT_MIN yields INT_MIN
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "If T is an integer scalar type and e evaluates to the largest negative value, then the result is e."
//
// Derivation (-x at run time): -INT_MIN = INT_MIN. Contrast: -INT_MAX =
// -2147483647; -(-2147483647) = INT_MAX; -(-1) = 1; -0 = 0; -5 = -5.

fn neg_int_min(x: i32) -> i32 {
    return -x;
}
