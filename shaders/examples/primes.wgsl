// primes: counts the primes in [2, n] by trial division and reports the
// largest, stopping after the 25th prime (97), the shape of a search loop
// with an early-out budget. Returns vec2(count, largest prime seen).
//
// Exercises: nested for loops, continue in the outer loop (even numbers,
// composites), break in the inner loop (a divisor found) and in the outer
// loop (budget), u32 %, a bool flag, ++ on a counter, vec2<u32> result.

fn primes(n: u32) -> vec2<u32> {
    var count = 0u;
    var largest = 0u;
    for (var i = 2u; i <= n; i += 1u) {
        if (i > 2u && (i & 1u) == 0u) {
            continue;
        }
        var prime = true;
        for (var d = 3u; d * d <= i; d += 2u) {
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
