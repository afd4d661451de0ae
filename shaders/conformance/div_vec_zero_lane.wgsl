// rule: vector i32 division applies x/0 = x and INT_MIN/-1 = INT_MIN per lane
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "Division. Component-wise when T is a vector."
//
// Derivation (a / b, lane by lane, scalar rules as in div_by_zero_i32 and
// div_int_min_by_minus_one):
//   (7, -7, INT_MIN, 9) / (0, 2, -1, 3) = (7, -3, INT_MIN, 3)
//   (1, 2, 3, 4) / (0, 0, 0, 0) = (1, 2, 3, 4)
//   (INT_MIN, INT_MIN, 5, -5) / (-1, 0, 0, -2) = (INT_MIN, INT_MIN, 5, 2)
//   (100, 100, 100, 100) / (1, 0, -7, 7) = (100, 100, -14, 14)

fn div_vec_zero_lane(a: vec4<i32>, b: vec4<i32>) -> vec4<i32> {
    return a / b;
}
