// rule: abs(INT_MIN) yields INT_MIN
// spec: WGSL #abs-float-builtin (abs), "If e is a signed integer scalar type and evaluates to the largest negative value, then the result is e."
//
// Derivation (abs(x) at run time): abs(INT_MIN) = INT_MIN. Contrast:
// abs(-2147483647) = INT_MAX; abs(-5) = 5; abs(0) = 0; abs(5) = 5;
// abs(INT_MAX) = INT_MAX.

fn abs_int_min(x: i32) -> i32 {
    return abs(x);
}
