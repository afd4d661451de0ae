// tier: fixed loops — a loop with constant bounds unrolls into straight-line
// copies with its counter substituted; with no data-dependent exit there
// is no mask and no select.
// expect: sum4 selects=0
// expect: poly selects=0
// expect: nested selects=0

fn sum4(v: vec4<i32>) -> i32 {
    var s = 0;
    for (var i = 0; i < 4; i++) {
        s += v[i];
    }
    return s;
}

// Horner's rule over constant coefficients, counting down.
fn poly(x: f32) -> f32 {
    var c = array<f32, 4>(1.0, -2.0, 0.5, 3.0);
    var y = 0.0;
    for (var i = 3; i >= 0; i--) {
        y = y * x + c[i];
    }
    return y;
}

// Nested fixed loops: 3 × 2 copies.
fn nested(m: array<u32, 6>) -> u32 {
    var h = 0u;
    for (var r = 0u; r < 3u; r++) {
        for (var c = 0u; c < 2u; c += 1u) {
            h = h * 31u + m[r * 2u + c];
        }
    }
    return h;
}
