// rule: storageBarrier orders storage-buffer accesses between the invocations of one workgroup
// spec: WGSL #storageBarrier-builtin (storageBarrier), "Executes a control barrier synchronization function that affects memory and atomic operations in the storage address space."
// Two workgroups of 4 exchange data through a storage buffer, each in its
// own half of it: invocation g writes scratch[g] = 3*g + 1,
// storageBarrier, reads scratch of its workgroup neighbour (li + 1) % 4
// (same workgroup: the barrier orders it; a neighbour in another
// workgroup would not be), storageBarrier, overwrites scratch[g] with
// what it read. Workgroup 0: scratch = [1, 4, 7, 10] -> [4, 7, 10, 1];
// workgroup 1: [13, 16, 19, 22] -> [16, 19, 22, 13].
@group(0) @binding(0) var<storage, read_write> scratch: array<u32, 8>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  scratch[gid.x] = 3u * gid.x + 1u;
  storageBarrier();
  let n = scratch[wid.x * 4u + (li + 1u) % 4u];
  storageBarrier();
  scratch[gid.x] = n;
}
