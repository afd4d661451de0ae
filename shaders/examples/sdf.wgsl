// sdf: the signed distance from a point to a 2D scene of a box and a circle,
// the inner loop of every SDF ray marcher and UI renderer (Inigo Quilez's
// sdBox and sdCircle). WGSL's sqrt (and so length) is not correctly rounded,
// so the inputs are chosen to make every length() argument a Pythagorean or
// axis-aligned vector with dyadic components: then each length is exact on
// any conforming implementation.
//
// Exercises: vec2<f32>, vector abs/max/min/length, vector splat, swizzle
// components, helper calls, min of two distances.

fn sd_box(p: vec2<f32>, half_size: vec2<f32>) -> f32 {
    let d = abs(p) - half_size;
    return length(max(d, vec2<f32>(0.0))) + min(max(d.x, d.y), 0.0);
}

fn sd_circle(p: vec2<f32>, r: f32) -> f32 {
    return length(p) - r;
}

fn scene(p: vec2<f32>) -> f32 {
    let to_box = sd_box(p - vec2<f32>(8.0, 0.0), vec2<f32>(3.0, 2.0));
    let to_circle = sd_circle(p - vec2<f32>(-8.0, 0.0), 5.0);
    return min(to_box, to_circle);
}
