// collatz: a bounded Collatz ("3n + 1") step counter, shaped like an
// iteration-capped escape-time loop (Mandelbrot and friends): a
// data-dependent loop with an iteration budget. Returns the number of steps
// to reach 1 (0 for 0 and 1), or -1 when 200 steps do not suffice. u32
// arithmetic wraps, as WGSL requires, so 3n + 1 is taken modulo 2^32.
//
// Exercises: loop with a continuing block and break if, break out of the
// body, if/else on a bit test, u32 wrapping multiply-add, i32 counters.

fn collatz_steps(start: u32) -> i32 {
    var n = start;
    var steps = 0;
    loop {
        if (n <= 1u) {
            break;
        }
        if ((n & 1u) == 0u) {
            n = n >> 1u;
        } else {
            n = 3u * n + 1u;
        }
        steps = steps + 1;
        continuing {
            break if steps >= 200;
        }
    }
    if (n > 1u) {
        return -1;
    }
    return steps;
}
