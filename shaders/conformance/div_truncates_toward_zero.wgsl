// rule: i32 division truncates toward zero
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "truncate(x) otherwise, where x is the real-valued quotient e1 ÷ e2."
//
// Derivation (a / b at run time): 7/2 = truncate(3.5) = 3; -7/2 =
// truncate(-3.5) = -3 (not the floor -4); 7/-2 = -3; -7/-2 = 3;
// -1/2 = truncate(-0.5) = 0; 1/-2 = 0; -6/4 = truncate(-1.5) = -1; 5/5 = 1.

fn div_truncates_toward_zero(a: i32, b: i32) -> i32 {
    return a / b;
}
