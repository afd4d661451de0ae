// tier: helpers — user calls are inlined, transitively, under the caller's
// predicate; a helper's early return masks only the helper.
// expect: twice selects=0

fn dbl(x: i32) -> i32 {
    return x * 2;
}

fn quad(x: i32) -> i32 {
    return dbl(dbl(x));
}

// Straight-line helpers inline to straight-line code: no select at all.
fn twice(x: i32) -> i32 {
    return quad(x) + dbl(1);
}
