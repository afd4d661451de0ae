// tier: fixed loops — a loop with constant bounds unrolls into straight-line
// copies with its counter substituted; with no data-dependent exit there
// is no mask and no select.
// expect: poly selects=0

// Horner's rule over constant coefficients, counting down.
fn poly(x: f32) -> f32 {
    var c = array<f32, 4>(1.0, -2.0, 0.5, 3.0);
    var y = 0.0;
    for (var i = 3; i >= 0; i--) {
        y = y * x + c[i];
    }
    return y;
}
