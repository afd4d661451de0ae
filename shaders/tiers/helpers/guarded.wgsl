// tier: helpers — user calls are inlined, transitively, under the caller's
// predicate; a helper's early return masks only the helper.
// expect: guarded selects=2

fn safe_div(a: i32, b: i32) -> i32 {
    if (b == 0) {
        return 0;
    }
    return a / b;
}

// A helper with an early return called under a condition: its return
// value is one select, the caller's assignment another.
fn guarded(a: i32, b: i32, c: bool) -> i32 {
    var r = a;
    if (c) {
        r = safe_div(a, b);
    }
    return r;
}
