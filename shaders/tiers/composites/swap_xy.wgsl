// tier: vectors, structs and arrays — predicated writes to components,
// fields and elements; whole arrays and structs are selected element by
// element (WGSL's select takes only scalars and vectors).
// expect: swap_xy selects=1

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
