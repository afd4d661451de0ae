// rule: u32 << takes the run-time shift count modulo 32
// spec: WGSL #bit-expr (Bit Expressions), "The number of bits to shift is the value of e2, modulo the bit width of e1."
//
// Derivation (x << (s mod 32)): 1<<0 = 1; 1<<31 = 0x80000000; 1<<32 = 1<<0 = 1;
// 1<<33 = 1<<1 = 2; 1<<63 = 1<<31 = 0x80000000; 1<<0xFFFFFFFF = 1<<31 =
// 0x80000000; 3<<32 = 3; 0x80000001<<1 = 2 (the top bit is discarded).

fn shl_count_mod32_u32(x: u32, s: u32) -> u32 {
    return x << s;
}
