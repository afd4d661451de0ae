// tier: vectors, structs and arrays — predicated writes to components,
// fields and elements; whole arrays and structs are selected element by
// element (WGSL's select takes only scalars and vectors).
// expect: bump selects=2

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
