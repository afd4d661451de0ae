// tier: if/else — conditionals become selects under hoisted conditions.
// A twin has no if; each value an if chooses is one select.
// expect: sign3 selects=2

// An else-if chain of returns: -1, 0 or 1 needs two selects.
fn sign3(x: f32) -> i32 {
    if (x < 0.0) {
        return -1;
    } else if (x == 0.0) {
        return 0;
    }
    return 1;
}
