// tier: calls in conditions — calls in if conditions, in the right
// operand of && and || (short-circuit respected: a helper's write to a
// global happens only where the source would call it) and in select arms
// (evaluated unconditionally, as WGSL's select evaluates every operand).
// expect: both_arms

var<private> probes: u32;

fn probe(x: i32) -> bool {
    probes += 1u;
    return x > 0;
}

fn both_arms(a: i32, b: i32) -> i32 {
    return select(0, 1, probe(a)) + select(i32(probe(b)), 2, a > b);
}
