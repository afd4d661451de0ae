// rule: f32 ldexp(e1, e2) is exactly e1 * 2^e2 for every e2 up to bias + 1 = 128 whose product is a normal f32
// spec: WGSL #ldexp-builtin (ldexp), "Returns e1 * 2^e2, except: The result may be zero if e2 + bias ≤ 0."
//
// Derivation (WGSL #concrete-float-accuracy: ldexp is correctly rounded,
// and each product below is an f32 exactly, so it is the result; bias is
// 127 for f32, so e2 ≥ -126 never allows the zero): ldexp(0.75, 3) = 6;
// ldexp(-1.5, 3) = -12; ldexp(3, -1) = 1.5; ldexp(1, 0) = 1;
// ldexp(0, 100) = 0; ldexp(1, -126) = 2^-126 = 1.1754944e-38, the smallest
// normal f32 (e2 + bias = 1 > 0); ldexp(-3, -126) = -3 * 2^-126 =
// -3.526483e-38; ldexp(0.75, 127) = 1.5 * 2^126 = 1.2760589e+38;
// ldexp(1, 127) = 2^127 = 1.7014118e+38; and e2 = 128 = bias + 1, the
// largest exponent WGSL allows (e2 > bias + 1 is indeterminate), where
// only an e1 below 1 keeps the product finite: ldexp(0.75, 128) =
// 1.5 * 2^127 = 2.5521178e+38, ldexp(0.5, 128) = 2^127 = 1.7014118e+38.
// (Here e2 is a run-time value; Mesa's llvmpipe returns +Inf for a
// constant exponent 128, see compiler/spirv's TestMoreBuiltinsOnGPU.)

fn ldexp_scales_by_power_of_two(e1: f32, e2: i32) -> f32 {
    return ldexp(e1, e2);
}
