// rule: a load through an out-of-bounds index returns a value of some location of the same binding, or zero
// spec: WGSL #out-of-bounds-access-sec ("Invalid Load": any memory location(s) of the WebGPU buffer bound to the root identifier, or the zero value)
// o[1] = 9 indexes a[9] of a 4-element array: the load may return any of
// a's values, 5, 6, 7, or zero. a holds 5 twice; o[1] keeps 9.
// Expected: o = [{0, 5, 6, 7}, 9].
@group(0) @binding(0) var<storage, read> a: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> o: array<u32, 2>;

@compute @workgroup_size(1)
fn main() {
    o[0] = a[o[1]];
}
