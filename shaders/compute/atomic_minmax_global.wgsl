// Global reduction with atomics across workgroups: every invocation of 3
// workgroups of 4 does atomicMax and atomicMin on result[0] and result[1]
// (i32, signed order) and atomicAdd on total[0] with its value; the
// returned values are unused, so the final contents are determinate
// whatever order the 12 invocations run in (max, min and + commute).
// result starts at [i32 min, i32 max], total at 0.
// Expectation by hand: values = [5, -7, 12, 0, -2147483647, 3, 99, -1,
// 42, 8, -100, 6]: max 99, min -2147483647; sum 5-7+12+0 = 10, 10 +
// (-2147483647) + 3 + 99 - 1 = -2147483536, + 42 + 8 - 100 + 6 =
// -2147483580, as u32 (two's complement, the bits the i32 sum has)
// 4294967296 - 2147483580 = 2147483716.
@group(0) @binding(0) var<storage, read> values: array<i32, 12>;
@group(0) @binding(1) var<storage, read_write> result: array<atomic<i32>, 2>;
@group(0) @binding(2) var<storage, read_write> total: array<atomic<u32>, 1>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = values[gid.x];
  atomicMax(&result[0], v);
  atomicMin(&result[1], v);
  atomicAdd(&total[0], bitcast<u32>(v));
}
