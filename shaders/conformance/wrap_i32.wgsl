// rule: i32 + - * wrap modulo 2^32 (two's complement)
// spec: WGSL #integer-types (Integer Types), "Expressions on concrete integer types that overflow produce a result that is modulo 2^bitwidth"
//
// Derivation ((a + b, a - b, a * b), each reduced modulo 2^32 into
// [-2^31, 2^31)):
//   (INT_MAX, 1): (INT_MIN, 2147483646, INT_MAX)
//   (INT_MIN, -1): (INT_MAX, -2147483647, INT_MIN)      2^31 wraps to -2^31
//   (INT_MIN, 1): (-2147483647, INT_MAX, INT_MIN)
//   (65536, 65536): (131072, 0, 0)                        2^32 wraps to 0
//   (46341, 46341): (92682, 0, -2147479015)     2147488281 - 2^32
//   (INT_MAX, INT_MAX): (-2, 0, 1)                (2^31-1)^2 = 2^62 - 2^32 + 1
//   (-2, 3): (1, -5, -6)                                  no overflow

fn wrap_i32(a: i32, b: i32) -> vec3<i32> {
    return vec3<i32>(a + b, a - b, a * b);
}
