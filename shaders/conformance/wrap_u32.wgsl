// rule: u32 + - * wrap modulo 2^32
// spec: WGSL #integer-types (Integer Types), "Expressions on concrete integer types that overflow produce a result that is modulo 2^bitwidth"
//
// Derivation ((a + b, a - b, a * b), each reduced modulo 2^32 into [0, 2^32)):
//   (0xFFFFFFFF, 1): (0, 0xFFFFFFFE, 0xFFFFFFFF)
//   (0, 1): (1, 0xFFFFFFFF, 0)                            -1 wraps to 2^32 - 1
//   (0x80000000, 0x80000000): (0, 0, 0)
//   (65536, 65537): (131073, 0xFFFFFFFF, 65536)           65536*65537 = 2^32 + 2^16
//   (0xFFFFFFFF, 0xFFFFFFFF): (0xFFFFFFFE, 0, 1)          (2^32-1)^2 = 2^64 - 2^33 + 1
//   (3, 5): (8, 0xFFFFFFFE, 15)

fn wrap_u32(a: u32, b: u32) -> vec3<u32> {
    return vec3<u32>(a + b, a - b, a * b);
}
