// rule: break if is tested at the end of continuing, after the body, so the body runs at least once
// spec: WGSL #break-if-statement (Break-If Statement), "If the condition is true, control is transferred to immediately after the body of the nearest-enclosing loop statement, ending execution of that loop."
//
// Derivation: each iteration runs the body (runs += 1), then continuing
// (i += 1, then break if i >= n). n = 0: one run, i = 1 >= 0 -> 1;
// n = 1 -> 1; n = 2 -> 2; n = 5 -> 5; n = 16 -> 16 (max(n, 1) runs).
// The min(n, 64u) gives the loop a constant trip bound (so flatten can
// unroll it); every input stays below 64.

fn break_if_after_body(n: u32) -> u32 {
    var i = 0u;
    var runs = 0u;
    loop {
        runs += 1u;
        continuing {
            i += 1u;
            break if i >= min(n, 64u);
        }
    }
    return runs;
}
