// rule: select with a vector condition picks per lane, t where the lane is true, f where false
// spec: WGSL #select-builtin (select), "Component-wise selection. Result component i is evaluated as select(f[i], t[i], cond[i])."
//
// Derivation (note the argument order: the false value comes first):
//   f (1, 2, 3, 4), t (10, 20, 30, 40):
//     cond (T, F, T, F) -> (10, 2, 30, 4)     cond (F, F, F, F) -> f
//     cond (T, T, T, T) -> t                  cond (F, T, F, T) -> (1, 20, 3, 40)
//   f (-5, INT_MIN, 0, INT_MAX), t (5, INT_MAX, -1, INT_MIN),
//     cond (T, F, F, T) -> (5, INT_MIN, 0, INT_MIN)

fn select_vector_condition(f: vec4<i32>, t: vec4<i32>, cond: vec4<bool>) -> vec4<i32> {
    return select(f, t, cond);
}
