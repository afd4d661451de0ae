// tier: void functions writing private globals — the writes-to-globals
// shader model; a write under a condition is a predicated store.
// expect: tally selects=2

var<private> pos_count: u32;

var<private> neg_sum: i32;

// Two writes under two exclusive conditions: two selects.
fn tally(x: i32) {
    if (x > 0) {
        pos_count += 1u;
    } else {
        neg_sum += x;
    }
}
