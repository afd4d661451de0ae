// tier: vectors, structs and arrays — predicated writes to components,
// fields and elements; whole arrays and structs are selected element by
// element (WGSL's select takes only scalars and vectors).
// expect: swap_xy selects=1
// expect: bump selects=2
// expect: set_elem selects=2
// expect: pick_arr selects=3

// A whole vector: one select.
fn swap_xy(v: vec2<f32>, c: bool) -> vec2<f32> {
    var r = v;
    if (c) {
        r = v.yx;
    }
    return r;
}

struct Acc {
    sum: f32,
    n: u32,
}

// Two field writes under one condition: two selects.
fn bump(a: Acc, x: f32) -> Acc {
    var r = a;
    if (x > 0.0) {
        r.sum += x;
        r.n += 1u;
    }
    return r;
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

// A whole array of three: three element selects.
fn pick_arr(a: array<u32, 3>, b: array<u32, 3>, c: bool) -> array<u32, 3> {
    var r = a;
    if (c) {
        r = b;
    }
    return r;
}
