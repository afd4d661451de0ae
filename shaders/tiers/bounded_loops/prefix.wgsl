// tier: bounded loops — a data-dependent trip count with a proven constant
// bound (i < min(n, C), a while with a counter, a loop with break if) is
// unrolled to the bound under a break mask.
// expect: prefix selects=4

// i < min(n, 4): 4 live copies (the 5th, testing 4u < min(n, 4u), is
// statically false), each with one predicated write of s; i is not read
// after the loop, so its writes are dead stores.
fn prefix(a: array<i32, 4>, n: u32) -> i32 {
    var s = 0;
    var i = 0u;
    while (i < min(n, 4u)) {
        s += a[i];
        i++;
    }
    return s;
}
