// Parallel max and min reduction of i32 (negative values included) in
// workgroup memory: each workgroup of 8 folds its 8 inputs by halving
// strides (4, 2, 1) with a barrier after each step; invocation 0 writes
// out[2*w] = max and out[2*w + 1] = min of workgroup w. 3 workgroups.
// Expectation by hand: workgroup 0 [3, -1, 7, 2, -8, 5, 0, 4] -> 7, -8;
// workgroup 1 [-5, -5, -5, -5, -5, -5, -5, -5] -> -5, -5; workgroup 2
// [2147483647, -2147483648, 1, -1, 0, 100, -100, 42] -> 2147483647,
// -2147483648 (the i32 extremes, compared as signed).
@group(0) @binding(0) var<storage, read> input: array<i32, 24>;
@group(0) @binding(1) var<storage, read_write> out: array<i32, 6>;
var<workgroup> mx: array<i32, 8>;
var<workgroup> mn: array<i32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  mx[li] = input[gid.x];
  mn[li] = input[gid.x];
  workgroupBarrier();
  for (var stride = 4u; stride > 0u; stride = stride / 2u) {
    if (li < stride) {
      mx[li] = max(mx[li], mx[li + stride]);
      mn[li] = min(mn[li], mn[li + stride]);
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    out[2u * wid.x] = mx[0];
    out[2u * wid.x + 1u] = mn[0];
  }
}
