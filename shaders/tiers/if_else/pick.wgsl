// tier: if/else — conditionals become selects under hoisted conditions.
// A twin has no if; each value an if chooses is one select.
// expect: pick selects=1

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
