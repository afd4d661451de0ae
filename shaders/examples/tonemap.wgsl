// tonemap: a Reinhard-like shoulder that maps a 12-bit HDR colour (held as
// integer-valued floats) to 8-bit RGB, with luma in the alpha channel (the
// input format FXAA expects), packed as RGBA8. The shoulder is piecewise
// linear with slopes 1, 1/2, 1/4 and 1/8, so for integer-valued inputs and a
// power-of-two exposure every operation is exact in f32 (no division, no
// rounding).
//
// Exercises: vec3<f32> arithmetic and splats, rgba swizzles, dot, max/min/
// clamp/floor, an if chain with early returns in a helper, f32 -> u32
// conversion of vectors and scalars, shifts and bitwise or.

fn luma(c: vec3<f32>) -> f32 {
    // Rec.601-like weights 1/4, 5/8, 1/8.
    return dot(c, vec3<f32>(2.0, 5.0, 1.0)) * 0.125;
}

fn shoulder(x: f32) -> f32 {
    if (x <= 64.0) {
        return x;
    }
    if (x <= 192.0) {
        return 64.0 + (x - 64.0) * 0.5;
    }
    if (x <= 448.0) {
        return 128.0 + (x - 192.0) * 0.25;
    }
    return min(192.0 + (x - 448.0) * 0.125, 255.0);
}

fn tonemap(hdr: vec3<f32>, exposure: f32) -> u32 {
    let c = max(hdr * exposure, vec3<f32>(0.0));
    let m = vec3<f32>(shoulder(c.r), shoulder(c.g), shoulder(c.b));
    let rgb = vec3<u32>(floor(m));
    let a = u32(clamp(luma(m), 0.0, 255.0));
    return rgb.r | (rgb.g << 8u) | (rgb.b << 16u) | (a << 24u);
}
