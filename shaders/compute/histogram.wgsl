// Histogram with atomics: every invocation adds 1 to the bin of its value
// (value % 4) in workgroup memory, then after a barrier the first four
// invocations add the workgroup's bins into the storage histogram.
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 4>;
var<workgroup> local_bins: array<atomic<u32>, 4>;

@compute @workgroup_size(4, 2)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.y * 4u * nwg.x + gid.x;
  atomicAdd(&local_bins[values[i] % 4u], 1u);
  workgroupBarrier();
  if (li < 4u) {
    atomicAdd(&bins[li], atomicLoad(&local_bins[li]));
  }
}
