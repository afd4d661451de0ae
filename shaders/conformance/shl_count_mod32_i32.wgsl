// rule: i32 << takes the run-time shift count modulo 32
// spec: WGSL #bit-expr (Bit Expressions), "The number of bits to shift is the value of e2, modulo the bit width of e1."
//
// Derivation (x << (s mod 32), bits shifted out are discarded; a run-time
// shift may change the sign): 1<<31 = INT_MIN; 1<<32 = 1; 1<<33 = 2;
// -1<<33 = -1<<1 = -2; -1<<0xFFFFFFFF = -1<<31 = INT_MIN; 5<<0 = 5;
// INT_MIN<<32 = INT_MIN; 3<<64 = 3<<0 = 3.

fn shl_count_mod32_i32(x: i32, s: u32) -> i32 {
    return x << s;
}
