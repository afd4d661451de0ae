// rule: i32 >> is arithmetic and takes the run-time shift count modulo 32
// spec: WGSL #bit-expr (Bit Expressions), "If e1 is negative, each inserted bit is 1, and so the result is also negative. ... The number of bits to shift is the value of e2, modulo the bit width of e1."
//
// Derivation (x >> (s mod 32), copies of the sign bit shifted in):
// -8>>33 = -8>>1 = -4; -8>>3 = -1; INT_MIN>>31 = -1; INT_MIN>>63 = -1;
// -1>>0xFFFFFFFF = -1; 0x40000000>>32 = 0x40000000; 0x40000000>>30 = 1;
// INT_MIN>>32 = INT_MIN.

fn shr_count_mod32_i32(x: i32, s: u32) -> i32 {
    return x >> s;
}
