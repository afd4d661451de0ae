// tier: bounded loops — a data-dependent trip count with a proven constant
// bound (i < min(n, C), a while with a counter, a loop with break if) is
// unrolled to the bound under a break mask.
// expect: steps

// loop with continuing and break if, capped at 5 iterations.
fn steps(x: u32) -> i32 {
    var n = x;
    var c = 0;
    loop {
        if (n <= 1u) {
            break;
        }
        n = n / 2u;
        c += 1;
        continuing {
            break if c >= 5;
        }
    }
    return c;
}
