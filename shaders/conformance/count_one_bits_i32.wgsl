// rule: countOneBits on i32 counts the sign bit like any other bit
// spec: WGSL #countOneBits-builtin (countOneBits), "The number of 1 bits in the representation of e."
//
// Derivation (two's complement bits): 0 -> 0; -1 (0xFFFFFFFF) -> 32;
// INT_MIN (0x80000000) -> 1; INT_MAX (0x7FFFFFFF) -> 31; 1 -> 1;
// -2 (0xFFFFFFFE) -> 31.

fn count_one_bits_i32(x: i32) -> i32 {
    return countOneBits(x);
}
