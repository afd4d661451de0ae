// rule: i32 remainder has the sign of the dividend (truncated division)
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "Otherwise, e1 - truncate(e1 ÷ e2) × e2 where the quotient is computed as a real value."
//
// Derivation (a % b = a - truncate(a / b) * b at run time):
// -7%2 = -7 - (-3)*2 = -1; 7%-2 = 7 - (-3)*(-2) = 1; -7%-2 = -7 - 3*(-2) = -1;
// 7%2 = 1; -1%5 = -1 - 0 = -1; -6%3 = 0; 6%-4 = 6 - (-1)*(-4) = 2; 0%-3 = 0.

fn rem_sign_of_dividend(a: i32, b: i32) -> i32 {
    return a % b;
}
