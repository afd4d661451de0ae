// rule: an atomicLoad unordered with other invocations' atomicAdds returns a value between the adds it must see and all of them; after a barrier, all of them
// spec: WGSL #memory-model (atomics are not ordered with each other across invocations without a barrier), #atomic-rmw, #sync-builtin-functions
// Sixteen invocations per workgroup each atomicAdd(&count, 1) on a
// workgroup counter that starts at 0. Invocation 0 then reads it twice:
//   early[w] = atomicLoad before any barrier: at least its own add (1), at
//             most all sixteen: any value in [1, 16];
//   late[w]  = atomicLoad after workgroupBarrier: every add is ordered
//             before it: exactly 16.
// Four workgroups: early = [[1,16] x4], late = [16 x4].
@group(0) @binding(0) var<storage, read_write> early: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> late: array<u32, 4>;
var<workgroup> count: atomic<u32>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) w: vec3<u32>) {
    atomicAdd(&count, 1u);
    if (l == 0u) {
        early[w.x] = atomicLoad(&count);
    }
    workgroupBarrier();
    if (l == 0u) {
        late[w.x] = atomicLoad(&count);
    }
}
