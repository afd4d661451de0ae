// rule: countOneBits counts the 1 bits of all 32 bits of a u32
// spec: WGSL #countOneBits-builtin (countOneBits), "The number of 1 bits in the representation of e."
//
// Derivation: 0 -> 0; 1 -> 1; 0xFFFFFFFF -> 32; 0x80000000 -> 1;
// 0x12345678 -> 1+1+2+1+2+2+3+1 = 13 (per hex digit); 0xF0F0F0F0 -> 16; 3 -> 2.

fn count_one_bits_u32(x: u32) -> u32 {
    return countOneBits(x);
}
