// tier: vectors, structs and arrays — predicated writes to components,
// fields and elements; whole arrays and structs are selected element by
// element (WGSL's select takes only scalars and vectors).
// expect: pick_arr selects=3

struct Acc {
    sum: f32,
    n: u32,
}

// A whole array of three: three element selects.
fn pick_arr(a: array<u32, 3>, b: array<u32, 3>, c: bool) -> array<u32, 3> {
    var r = a;
    if (c) {
        r = b;
    }
    return r;
}
