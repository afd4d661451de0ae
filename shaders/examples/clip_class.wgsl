// clip_class: Cohen–Sutherland classification of a line segment against the
// 640x480 viewport in integer pixel coordinates: 0 = trivially inside,
// 1 = trivially outside, 2/3/4/5 = must be clipped first against the left/
// right/bottom/top edge (the edge of the first outside endpoint),
// 6 = a degenerate segment (a point) inside the viewport.
//
// Exercises: nested if/else and else-if chains with early returns at several
// depths, vec2<i32> parameters, component-wise == with all, |=, & and | on
// outcodes, select, a helper returning u32.

fn outcode(p: vec2<i32>) -> u32 {
    var code = 0u;
    if (p.x < 0) {
        code |= 1u;
    } else if (p.x > 639) {
        code |= 2u;
    }
    if (p.y < 0) {
        code |= 4u;
    } else if (p.y > 479) {
        code |= 8u;
    }
    return code;
}

fn clip_class(a: vec2<i32>, b: vec2<i32>) -> i32 {
    let ca = outcode(a);
    if (all(a == b)) {
        if (ca == 0u) {
            return 6;
        }
        return 1;
    }
    let cb = outcode(b);
    if ((ca | cb) == 0u) {
        return 0;
    }
    if ((ca & cb) != 0u) {
        return 1;
    }
    let c = select(cb, ca, ca != 0u);
    if ((c & 1u) != 0u) {
        return 2;
    } else if ((c & 2u) != 0u) {
        return 3;
    } else {
        if ((c & 4u) != 0u) {
            return 4;
        }
        return 5;
    }
}
