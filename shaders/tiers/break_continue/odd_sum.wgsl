// tier: break/continue — a break mask that persists across unrolled copies
// and a continue mask fresh in each copy.
// expect: odd_sum

// Sum of the odd elements, skipping even ones with continue.
fn odd_sum(a: array<u32, 4>) -> u32 {
    var s = 0u;
    for (var i = 0; i < 4; i++) {
        if ((a[i] & 1u) == 0u) {
            continue;
        }
        s += a[i];
    }
    return s;
}
