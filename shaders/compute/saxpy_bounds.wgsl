// y = a*x + y on runtime-sized i32 arrays with the usual arrayLength bounds
// check: 3 workgroups of 4 (12 invocations) over x of 10 and y of 9
// elements, so invocations 9..11 skip (i >= min of the two lengths);
// params = {a: -3, bias: 5}, y[i] = a*x[i] + y[i] + bias. Invocation 0
// also records both lengths in lens.
// Expectation by hand: y[i] = -3*x[i] + y[i] + 5 for i < 9 with x = 0..9
// and y = 10, 20, ..., 90: 15, 22, 29, 36, 43, 50, 57, 64, 71;
// lens = [10, 9].
struct Params {
  a: i32,
  bias: i32,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<i32>;
@group(0) @binding(2) var<storage, read_write> y: array<i32>;
@group(0) @binding(3) var<storage, read_write> lens: array<u32, 2>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i == 0u) {
    lens[0] = arrayLength(&x);
    lens[1] = arrayLength(&y);
  }
  if (i >= min(arrayLength(&x), arrayLength(&y))) {
    return;
  }
  y[i] = params.a * x[i] + y[i] + params.bias;
}
