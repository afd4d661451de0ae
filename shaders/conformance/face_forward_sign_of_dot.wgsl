// rule: faceForward(e1, e2, e3) is e1 when dot(e2, e3) < 0 and -e1 otherwise, a zero dot included
// spec: WGSL #faceForward-builtin (faceForward), "Returns e1 if dot(e2, e3) is negative, and -e1 otherwise."
//
// Derivation (the dots are small integers, exact; the result is e1 or its
// negation, exact): e1 = (1, -2, 3) throughout.
// e2 = (1, 0, 0), e3 = (-1, 0, 0): dot = -1 < 0, (1, -2, 3);
// e2 = (1, 0, 0), e3 = (1, 0, 0): dot = 1, (-1, 2, -3);
// e2 = (1, 0, 0), e3 = (0, 1, 0): dot = 0, not negative, (-1, 2, -3);
// e2 = (2, 3, 0), e3 = (3, -2, 5): dot = 6 - 6 + 0 = 0, (-1, 2, -3);
// e2 = (1, 2, 3), e3 = (1, 1, -2): dot = 1 + 2 - 6 = -3 < 0, (1, -2, 3).

fn face_forward_sign_of_dot(e1: vec3<f32>, e2: vec3<f32>, e3: vec3<f32>) -> vec3<f32> {
    return faceForward(e1, e2, e3);
}
