// rule: signed extractBits clamps o = min(offset, 32), c = min(count, 32 - o) and sign-extends from bit c-1
// spec: WGSL #extractBits-signed-builtin (extractBits (signed)), "o = min(offset, w) ... c = min(count, w - o) ... The result is 0 if c is 0. ... Other bits of the result are the same as bit c - 1 of the result."
//
// Derivation, e = 0xDEADBEEF = -559038737 (bits o..o+c-1, then copies of
// bit c-1 above):
//   (4, 8): 0xEE, top bit 1: -18           (0, 32): -559038737
//   (28, 8): c = 4: 0xD = 1101: -3          (32, 4): c = 0: 0
//   (4, 0): c = 0: 0                        (16, 0xFFFFFFFF): c = 16: 0xDEAD: -8531
//   (8, 4): 0xE = 1110: -2
// e = 0x12345678 for contrast: (4, 8): 0x67 = 103 (top bit 0);
// (28, 8): c = 4: 0x1 = 1; (0, 33): c = 32: 0x12345678.

fn extract_bits_i32(e: i32, offset: u32, count: u32) -> i32 {
    return extractBits(e, offset, count);
}
