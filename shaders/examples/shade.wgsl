// shade: the worked example of the flatten reference (daslang-flatten §8.1),
// verbatim: an early return under an if, so the flattened twin is a single
// select, (x > 0.5) ? x * 2.0 : x.
//
// Exercises: f32 comparison, f32 multiplication, an early return.

fn shade(x: f32) -> f32 {
    if (x > 0.5) {
        return x * 2.0;
    }
    return x;
}
