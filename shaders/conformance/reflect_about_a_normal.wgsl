// rule: reflect(e1, e2) is e1 - 2 * dot(e2, e1) * e2, e2 used as given (not normalized)
// spec: WGSL #reflect-builtin (reflect), "returns the reflection direction e1 - 2 * dot(e2, e1) * e2."
//
// Derivation (every product and sum below is a small integer, exact in
// f32, so the inherited accuracy of #concrete-float-accuracy adds
// nothing): reflect((1, -1), (0, 1)): dot = -1, (1, -1) - (0, -2) = (1, 1);
// reflect((3, 2), (0, 1)): dot = 2, (3, 2) - (0, 4) = (3, -2);
// reflect((2, 5), (1, 0)): dot = 2, (2, 5) - (4, 0) = (-2, 5);
// reflect((1, 0), (0, 1)): dot = 0, the incident vector itself (1, 0);
// reflect((1, 2), (0, 2)), a normal of length 2: dot = 4,
// (1, 2) - 8 * (0, 2) = (1, -14).

fn reflect_about_a_normal(e1: vec2<f32>, e2: vec2<f32>) -> vec2<f32> {
    return reflect(e1, e2);
}
