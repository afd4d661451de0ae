// rule: reverseBits mirrors all 32 bits (bit k of the result is bit 31-k)
// spec: WGSL #reverseBits-builtin (reverseBits), "The bit at position k of the result equals the bit at position 31 -k of e."
//
// Derivation: 0 -> 0; 1 -> 0x80000000; 0x80000000 -> 1; 0xFFFFFFFF ->
// 0xFFFFFFFF; 0x12345678 = 0001 0010 0011 0100 0101 0110 0111 1000 ->
// 0001 1110 0110 1010 0010 1100 0100 1000 = 0x1E6A2C48 = 510274632;
// 0x0000FFFF -> 0xFFFF0000.

fn reverse_bits(x: u32) -> u32 {
    return reverseBits(x);
}
