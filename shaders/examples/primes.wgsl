// primes: counts the primes in [2, min(n, 100)] by trial division and
// reports the largest, stopping after the 25th prime (97), the shape of a
// search loop with an early-out budget. Returns vec2(count, largest prime
// seen). Both loops have constant trip bounds (the outer one through
// min(n, 100u), the inner one trying divisors below 11, enough for i ≤ 120),
// so flatten can unroll them; the results equal the unbounded search's for
// every n, since the 25-prime budget ends it at 97.
//
// Exercises: nested for loops, continue in the outer loop (even numbers,
// composites), break in the inner loop (a divisor found) and in the outer
// loop (budget), u32 %, a bool flag, ++ on a counter, vec2<u32> result.

fn primes(n: u32) -> vec2<u32> {
    var count = 0u;
    var largest = 0u;
    for (var i = 2u; i <= min(n, 100u); i += 1u) {
        if (i > 2u && (i & 1u) == 0u) {
            continue;
        }
        var prime = true;
        for (var d = 3u; d < 11u; d += 2u) {
            if (d * d > i) {
                break;
            }
            if (i % d == 0u) {
                prime = false;
                break;
            }
        }
        if (!prime) {
            continue;
        }
        count++;
        largest = i;
        if (count >= 25u) {
            break;
        }
    }
    return vec2<u32>(count, largest);
}
