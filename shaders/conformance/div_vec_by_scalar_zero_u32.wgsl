// rule: u32 vector / scalar divides every lane by the scalar; a zero scalar leaves every lane unchanged
// spec: WGSL #arithmetic-expr (Arithmetic Expressions), "ev / es: V ... ev / V(es)"
//
// Derivation (a / s = a / vec4<u32>(s), then x/0 = x per lane):
//   (7, 0, 0xFFFFFFFF, 12) / 0 = (7, 0, 0xFFFFFFFF, 12)
//   (1, 2, 3, 4) / 0 = (1, 2, 3, 4)
//   (10, 20, 30, 40) / 10 = (1, 2, 3, 4)
//   (10, 20, 30, 40) / 3 = (3, 6, 10, 13)

fn div_vec_by_scalar_zero_u32(a: vec4<u32>, s: u32) -> vec4<u32> {
    return a / s;
}
