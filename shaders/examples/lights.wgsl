// lights: Lambert diffuse lighting of a surface normal by three directional
// lights, plus per-invocation statistics kept in private globals (how many
// lights reached the surface and the strongest unscaled term), the way a
// shader keeps debug counters. Normals and light directions are small
// integer vectors and intensities powers of two, so everything is exact.
//
// Exercises: helper calls four deep (lights -> light_contrib -> lambert ->
// note_light), a void helper writing private globals, a private global with
// an initializer that is only read, a for loop with ++, a local array
// indexed at run time, an if chain returning vectors, compound assignment.
// Outputs: the return value, then lit_count, strongest, ambient.

var<private> lit_count: u32;
var<private> strongest: f32;
var<private> ambient: f32 = 0.25;

fn note_light(term: f32) {
    lit_count += 1u;
    strongest = max(strongest, term);
}

fn lambert(n: vec3<f32>, l: vec3<f32>) -> f32 {
    let t = max(dot(n, l), 0.0);
    if (t > 0.0) {
        note_light(t);
    }
    return t;
}

fn light_dir(i: i32) -> vec3<f32> {
    if (i == 0) {
        return vec3<f32>(0.0, 1.0, 0.0);
    } else if (i == 1) {
        return vec3<f32>(1.0, 1.0, 0.0);
    }
    return vec3<f32>(0.0, -1.0, 2.0);
}

fn light_contrib(n: vec3<f32>, i: i32) -> f32 {
    var intensity = array<f32, 3>(1.0, 0.5, 0.25);
    return lambert(n, light_dir(i)) * intensity[i];
}

fn lights(n: vec3<f32>) -> f32 {
    var sum = ambient;
    for (var i = 0; i < 3; i++) {
        sum += light_contrib(n, i);
    }
    return sum;
}
