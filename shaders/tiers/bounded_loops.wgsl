// tier: bounded loops — a data-dependent trip count with a proven constant
// bound (i < min(n, C), a while with a counter, a loop with break if) is
// unrolled to the bound under a break mask.
// expect: prefix selects=4
// expect: countdown
// expect: steps

// i < min(n, 4): 4 live copies (the 5th, testing 4u < min(n, 4u), is
// statically false), each with one predicated write of s; i is not read
// after the loop, so its writes are dead stores.
fn prefix(a: array<i32, 4>, n: u32) -> i32 {
    var s = 0;
    var i = 0u;
    while (i < min(n, 4u)) {
        s += a[i];
        i++;
    }
    return s;
}

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
