// rule: unsigned extractBits clamps o = min(offset, 32), c = min(count, 32 - o) and zero-extends
// spec: WGSL #extractBits-unsigned-builtin (extractBits (unsigned)), "o = min(offset, w) ... c = min(count, w - o) ... The result is 0 if c is 0."
//
// Derivation, e = 0xDEADBEEF (bits o..o+c-1 of e, the rest 0):
//   (offset 4, count 8): 0xEE              (0, 32): 0xDEADBEEF (c = 32)
//   (28, 8): o+count > 32, c = 4: 0xD      (32, 4): o = 32, c = 0: 0
//   (4, 0): c = 0: 0                       (40, 8): o = 32, c = 0: 0
//   (16, 0xFFFFFFFF): c = 16: 0xDEAD       (0xFFFFFFFF, 0xFFFFFFFF): 0
//   (31, 1): bit 31: 1                     (0, 33): c = 32: 0xDEADBEEF

fn extract_bits_u32(e: u32, offset: u32, count: u32) -> u32 {
    return extractBits(e, offset, count);
}
