// rule: insertBits clamps o = min(offset, 32), c = min(count, 32 - o) and returns e unchanged when c is 0
// spec: WGSL #insertBits-builtin (insertBits), "o = min(offset, w) ... c = min(count, w - o) ... The result is e if c is 0."
//
// Derivation (bits o..o+c-1 of e replaced by bits 0..c-1 of newbits):
//   (0, 0xFFFFFFFF, 28, 8): c = 4: 0xF0000000
//   (0x12345678, 0xAB, 8, 8): 0x1234AB78
//   (0x12345678, 0xFFFFFFFF, 32, 4): o = 32, c = 0: e = 0x12345678
//   (0x12345678, 0xFFFFFFFF, 4, 0): c = 0: e
//   (0, 0xFFFFFFFF, 0, 32): 0xFFFFFFFF
//   (0xFFFFFFFF, 0, 16, 0xFFFFFFFF): c = 16: 0x0000FFFF
//   (0xFFFFFFFF, 0, 0xFFFFFFFF, 0xFFFFFFFF): o = 32, c = 0: e
//   (0, 5, 30, 4): c = 2, the low bits 01 of 5 at bit 30: 0x40000000

fn insert_bits_u32(e: u32, newbits: u32, offset: u32, count: u32) -> u32 {
    return insertBits(e, newbits, offset, count);
}
