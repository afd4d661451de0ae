// tier: break/continue — a break mask that persists across unrolled copies
// and a continue mask fresh in each copy.
// expect: find

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
