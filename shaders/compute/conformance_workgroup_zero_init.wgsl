// rule: var<workgroup> without an initializer starts as the zero value of its store type, atomics included
// spec: WGSL #var-decls (var Declarations), "For variables in the workgroup address space: When the store type is constructible, the zero value for the store type. If the store type is an atomic type, the zero value is that of the underlying type"
// Two workgroups of 4; every invocation reads the workgroup variables
// before anyone writes them (reads only: no race), then after a barrier
// writes its own slot of them. out[g] = u[li] + 10*i[li] + 100*atomicLoad(c)
// + 1000*flag + 1 with g the global index: all four read as zero in every
// workgroup (the second workgroup's memory is fresh too, not the first's
// leftovers), so out = [1, 1, 1, 1, 1, 1, 1, 1].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
var<workgroup> u: array<u32, 4>;
var<workgroup> i: array<i32, 4>;
var<workgroup> c: atomic<u32>;
var<workgroup> flag: bool;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let z = u[li] + 10u * bitcast<u32>(i[li]) + 100u * atomicLoad(&c) + 1000u * select(0u, 1u, flag) + 1u;
  workgroupBarrier();
  u[li] = 7u;
  i[li] = -7;
  atomicAdd(&c, 1u);
  if (li == 0u) {
    flag = true;
  }
  out[gid.x] = z;
}
