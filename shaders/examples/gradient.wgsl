// gradient: samples an 8-stop colour ramp (a heat-map / transfer-function
// lookup table held in a fixed-size array) at t in [0, 1] with smoothstep
// easing between stops, and writes the colour and the stop index to private
// globals (a void kernel: the writes-to-globals shader model). The cell index
// comes from a saturating f32 -> i32 conversion and is clamped into range,
// so t far outside [0, 1] (even 1e10) still indexes safely. Inputs are
// multiples of 1/16 (or huge), stops multiples of 1/8: all exact.
//
// Exercises: a void kernel, private global outputs, a local array of vec4
// with a run-time index, f32 -> i32 saturation, clamp on i32 and f32,
// smoothstep, mix with a vector weight, vec4 splat, i32 -> u32 / u32 -> f32
// conversions.

var<private> out_color: vec4<f32>;
var<private> out_stop: u32;

fn ramp_stop(i: u32) -> vec4<f32> {
    var stops = array<vec4<f32>, 8>(
        vec4<f32>(0.0, 0.0, 0.0, 1.0),
        vec4<f32>(0.25, 0.0, 0.5, 1.0),
        vec4<f32>(0.5, 0.0, 0.75, 1.0),
        vec4<f32>(0.875, 0.125, 0.5, 1.0),
        vec4<f32>(1.0, 0.375, 0.25, 1.0),
        vec4<f32>(1.0, 0.625, 0.0, 1.0),
        vec4<f32>(1.0, 0.875, 0.375, 1.0),
        vec4<f32>(1.0, 1.0, 1.0, 0.5),
    );
    return stops[min(i, 7u)];
}

fn gradient(t: f32) {
    let x = t * 7.0;
    let i = u32(clamp(i32(x), 0, 6));
    let f = clamp(x - f32(i), 0.0, 1.0);
    let w = smoothstep(0.0, 1.0, f);
    out_color = mix(ramp_stop(i), ramp_stop(i + 1u), vec4<f32>(w));
    out_stop = i;
}
