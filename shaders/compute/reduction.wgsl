// Tree reduction: each workgroup of 8 sums its 8 inputs in workgroup
// memory, halving the active invocations after each barrier; invocation 0
// writes the workgroup's sum.
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
var<workgroup> partial: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  partial[li] = input[gid.x];
  workgroupBarrier();
  for (var stride = 4u; stride > 0u; stride = stride / 2u) {
    if (li < stride) {
      partial[li] = partial[li] + partial[li + stride];
    }
    workgroupBarrier();
  }
  if (li == 0u) {
    sums[wid.x] = partial[0];
  }
}
