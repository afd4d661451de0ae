// tier: if/else — conditionals become selects under hoisted conditions.
// A twin has no if; each value an if chooses is one select.
// expect: pick selects=1
// expect: sign3 selects=2
// expect: nested selects=2

// One if/else choosing one value: one select.
fn pick(c: bool, a: i32, b: i32) -> i32 {
    var r: i32;
    if (c) {
        r = a;
    } else {
        r = b;
    }
    return r;
}

// An else-if chain of returns: -1, 0 or 1 needs two selects.
fn sign3(x: f32) -> i32 {
    if (x < 0.0) {
        return -1;
    } else if (x == 0.0) {
        return 0;
    }
    return 1;
}

// Nested ifs writing one variable at two depths: one select per write.
fn nested(a: u32, b: u32) -> u32 {
    var r = 0u;
    if (a > 4u) {
        r = a;
        if (b > a) {
            r = b;
        }
    }
    return r;
}
