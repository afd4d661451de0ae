// rule: firstTrailingBit is 0xFFFFFFFF for 0, else the index of the lowest 1 bit
// spec: WGSL #firstTrailingBit-builtin (firstTrailingBit), "T(-1) if e is zero. ... Otherwise the position of the least significant 1 bit in e."
//
// Derivation: 0 -> u32(-1) = 0xFFFFFFFF; 1 -> 0; 0x80000000 -> 31;
// 12 (1100) -> 2; 0xFFFFFFFF -> 0; 256 -> 8.

fn first_trailing_bit(x: u32) -> u32 {
    return firstTrailingBit(x);
}
