// tier: fixed loops — a loop with constant bounds unrolls into straight-line
// copies with its counter substituted; with no data-dependent exit there
// is no mask and no select.
// expect: sum4 selects=0

fn sum4(v: vec4<i32>) -> i32 {
    var s = 0;
    for (var i = 0; i < 4; i++) {
        s += v[i];
    }
    return s;
}
