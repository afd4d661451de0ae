// tier: bounded loops — a data-dependent trip count with a proven constant
// bound (i < min(n, C), a while with a counter, a loop with break if) is
// unrolled to the bound under a break mask.
// expect: countdown

// A counter stepping down to a constant, with an early exit on the data.
fn countdown(x: u32) -> u32 {
    var k = 6;
    var acc = x;
    loop {
        if (k <= 0) {
            break;
        }
        if (acc > 1000u) {
            break;
        }
        acc = acc * 3u + 1u;
        k -= 1;
    }
    return acc;
}
