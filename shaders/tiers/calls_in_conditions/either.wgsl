// tier: calls in conditions — calls in if conditions, in the right
// operand of && and || (short-circuit respected: a helper's write to a
// global happens only where the source would call it) and in select arms
// (evaluated unconditionally, as WGSL's select evaluates every operand).
// expect: either

var<private> probes: u32;

fn probe(x: i32) -> bool {
    probes += 1u;
    return x > 0;
}

fn either(a: i32, b: i32) -> i32 {
    var r = 0;
    if (a == 7 || probe(b)) {
        r = 1;
    }
    return r;
}
