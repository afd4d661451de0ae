// tier: break/continue — a break mask that persists across unrolled copies
// and a continue mask fresh in each copy.
// expect: find
// expect: odd_sum

// Index of the first element equal to key, or -1.
fn find(a: array<i32, 5>, key: i32) -> i32 {
    var at = -1;
    for (var i = 0; i < 5; i++) {
        if (a[i] == key) {
            at = i;
            break;
        }
    }
    return at;
}

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
