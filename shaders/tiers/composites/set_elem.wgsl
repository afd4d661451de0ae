// tier: vectors, structs and arrays — predicated writes to components,
// fields and elements; whole arrays and structs are selected element by
// element (WGSL's select takes only scalars and vectors).
// expect: set_elem selects=2

struct Acc {
    sum: f32,
    n: u32,
}

// One element write with a run-time index: one select for the store and
// one guarding the index where the path is dead.
fn set_elem(a: array<i32, 4>, k: u32, c: bool) -> array<i32, 4> {
    var r = a;
    if (c) {
        r[k] = 0;
    }
    return r;
}
