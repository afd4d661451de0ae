// tri_setup: per-triangle setup of a software rasterizer or BVH builder: the
// plane equation (n, d) with n = cross(b - a, c - a) and d = -dot(n, a), the
// bounding box, twice the signed area of the xy projection and the facing.
// Vertices are small integer-valued floats, so cross and dot are exact.
//
// Exercises: vec3/vec4 arithmetic, vec4 constructed from vec3 + scalar,
// cross, dot, swizzles (.xy, .yx, .z), vector min/max, component-wise ==,
// all, a struct result whose vec3 members need 16-byte alignment.

struct TriSetup {
    plane: vec4<f32>,
    bbox_min: vec3<f32>,
    bbox_max: vec3<f32>,
    area2: f32,
    front: bool,
    degenerate: bool,
}

fn tri_setup(a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> TriSetup {
    let e1 = b - a;
    let e2 = c - a;
    let n = cross(e1, e2);
    var s: TriSetup;
    s.plane = vec4<f32>(n, -dot(n, a));
    s.bbox_min = min(min(a, b), c);
    s.bbox_max = max(max(a, b), c);
    // e1.x * e2.y - e1.y * e2.x, the z of the cross product, via swizzles.
    s.area2 = dot(e1.xy, e2.yx * vec2<f32>(1.0, -1.0));
    s.front = s.area2 > 0.0;
    s.degenerate = all(n == vec3<f32>(0.0));
    return s;
}
