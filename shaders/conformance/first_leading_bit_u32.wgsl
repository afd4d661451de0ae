// rule: unsigned firstLeadingBit is 0xFFFFFFFF for 0, else the index of the highest 1 bit
// spec: WGSL #firstLeadingBit-unsigned-builtin (firstLeadingBit (unsigned)), "T(-1) if e is zero. ... Otherwise the position of the most significant 1 bit in e."
//
// Derivation: 0 -> u32(-1) = 0xFFFFFFFF; 1 -> 0; 0xFFFFFFFF -> 31;
// 0x80000000 -> 31; 256 -> 8; 255 -> 7.

fn first_leading_bit_u32(x: u32) -> u32 {
    return firstLeadingBit(x);
}
