// rule: signed firstLeadingBit is -1 for 0 and -1, else the highest bit differing from the sign bit
// spec: WGSL #firstLeadingBit-signed-builtin (firstLeadingBit (signed)), "-1 if e is 0 or -1. ... Otherwise the position of the most significant bit in e that is different from e's sign bit."
//
// Derivation: 0 -> -1; -1 -> -1; INT_MIN (1000...0: bit 30 is the highest
// 0) -> 30; 1 -> 0; INT_MAX (0111...1) -> 30; -2 (1...10) -> 0;
// 256 -> 8; -257 (~256 = 0xFFFFFEFF) -> 8.

fn first_leading_bit_i32(x: i32) -> i32 {
    return firstLeadingBit(x);
}
