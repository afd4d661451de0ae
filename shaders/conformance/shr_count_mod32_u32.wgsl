// rule: u32 >> takes the run-time shift count modulo 32 and shifts in zeros
// spec: WGSL #bit-expr (Bit Expressions), "If S is an unsigned type, insert zero bits at the most significant positions. ... The number of bits to shift is the value of e2, modulo the bit width of e1."
//
// Derivation (x >> (s mod 32), logical): 0x80000000>>31 = 1;
// 0x80000000>>32 = 0x80000000; 0x80000000>>33 = 0x40000000;
// 0x80000000>>63 = 1; 0xFFFFFFFF>>0xFFFFFFFF = 0xFFFFFFFF>>31 = 1;
// 0xFFFFFFFF>>0 = 0xFFFFFFFF; 8>>33 = 4; 8>>3 = 1.

fn shr_count_mod32_u32(x: u32, s: u32) -> u32 {
    return x >> s;
}
