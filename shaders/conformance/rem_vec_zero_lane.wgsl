// rule: vector i32 remainder applies x%0 = 0 and INT_MIN%-1 = 0 per lane
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "Remainder. Component-wise when T is a vector."
//
// Derivation (a % b, lane by lane, scalar rules as in rem_by_zero_i32,
// rem_int_min_by_minus_one and rem_sign_of_dividend):
//   (7, -7, INT_MIN, 9) % (0, 2, -1, 4) = (0, -1, 0, 1)
//   (1, 2, 3, 4) % (0, 0, 0, 0) = (0, 0, 0, 0)
//   (INT_MIN, INT_MIN, 5, -5) % (-1, 0, 0, -2) = (0, 0, 0, -1)
//   (100, -100, 100, -100) % (7, 7, 0, -7) = (2, -2, 0, -2)

fn rem_vec_zero_lane(a: vec4<i32>, b: vec4<i32>) -> vec4<i32> {
    return a % b;
}
