// tier: if/else — conditionals become selects under hoisted conditions.
// A twin has no if; each value an if chooses is one select.
// expect: nested selects=2

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
