// rule: insertBits on i32 clamps o = min(offset, 32), c = min(count, 32 - o) and only touches bits o..o+c-1
// spec: WGSL #insertBits-builtin (insertBits), "o = min(offset, w) ... c = min(count, w - o) ... The result is e if c is 0."
//
// Derivation (bits o..o+c-1 of e replaced by bits 0..c-1 of newbits; no
// sign extension, the sign bit is bit 31 like any other):
//   (-1, 0, 28, 8): c = 4, bits 28..31 cleared: 0x0FFFFFFF = 268435455
//   (0, -1, 0, 32): all 32 bits from newbits: -1
//   (0x12345678, -1, 32, 4): o = 32, c = 0: e
//   (INT_MIN, 1, 4, 0): c = 0: e = INT_MIN
//   (0, 1, 31, 8): c = 1, bit 0 of newbits into bit 31: INT_MIN
//   (-1, 0, 16, 0xFFFFFFFF): c = 16, bits 16..31 cleared: 0x0000FFFF = 65535
//   (0, 0xAB, 8, 8): 0xAB00 = 43776

fn insert_bits_i32(e: i32, newbits: i32, offset: u32, count: u32) -> i32 {
    return insertBits(e, newbits, offset, count);
}
