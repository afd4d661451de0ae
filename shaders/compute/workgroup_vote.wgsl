// Workgroup-level vote with atomics in workgroup memory: each invocation
// votes v > params[0]; atomicOr gives "any", atomicAnd (after invocation 0
// stores 1 and a barrier) gives "all", atomicAdd the number of yes votes.
// After a second barrier invocation 0 writes [any, all, count] for its
// workgroup. 3 workgroups of 4, threshold 10.
// Expectation by hand: workgroup 0 [1, 2, 3, 10] -> none above 10: [0, 0,
// 0]; workgroup 1 [11, 0, 50, 7] -> [1, 0, 2]; workgroup 2 [11, 12, 4294967295, 100]
// -> [1, 1, 4].
@group(0) @binding(0) var<storage, read> params: array<u32, 1>;
@group(0) @binding(1) var<storage, read> values: array<u32, 12>;
@group(0) @binding(2) var<storage, read_write> votes: array<u32, 9>;
var<workgroup> any_yes: atomic<u32>;
var<workgroup> all_yes: atomic<u32>;
var<workgroup> yes: atomic<u32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  if (li == 0u) {
    atomicStore(&all_yes, 1u);
  }
  workgroupBarrier();
  let vote = select(0u, 1u, values[gid.x] > params[0]);
  atomicOr(&any_yes, vote);
  atomicAnd(&all_yes, vote);
  atomicAdd(&yes, vote);
  workgroupBarrier();
  if (li == 0u) {
    votes[3u * wid.x] = atomicLoad(&any_yes);
    votes[3u * wid.x + 1u] = atomicLoad(&all_yes);
    votes[3u * wid.x + 2u] = atomicLoad(&yes);
  }
}
