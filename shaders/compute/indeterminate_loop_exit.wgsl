// rule: control that depends on an indeterminate value runs every way WGSL allows; what the invocation writes is the union of the outcomes
// spec: WGSL #indeterminate-values, #differences-from-ieee754 (an f32 overflow is indeterminate), #floating-point-conversion
// Each invocation i computes n = u32(a[i] * 3e38 * 10.0). For a[i] = 1.0,
// 2.0 and -1.0 the product overflows f32, so n is an indeterminate value
// (any u32), and so is every test k < n. The loop stores k + 100 for
// k = 0, 1, 2 while k < n holds and leaves at k = 3, so o[i] ends as:
//   7 (the test fails at once: nothing stored), 100, 101 or 102.
// For a[2] = 0.0 the reference's own order gives n = 0 (no store, 7), but
// a compiler may combine the constants first (#reassociation-and-fusion):
// 0.0 * (3e38 * 10.0) is 0 times an overflow, indeterminate too (lavapipe's
// raw WGSL does so and stores 102). So every element is in the same set.
// Expected: o = [{7,100,101,102} x4].
// (Before forks, the reference kept o[0] = o[1] = 7 as determinate and
// blamed lavapipe's 102.)
@group(0) @binding(0) var<storage, read> a: array<f32, 4>;
@group(0) @binding(1) var<storage, read_write> o: array<u32, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let n = u32(a[i] * 3e38 * 10.0);
    for (var k = 0u; k < n; k += 1u) {
        if (k >= 3u) { break; }
        o[i] = k + 100u;
    }
}
