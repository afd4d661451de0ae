// A race the detector once missed: both invocations of workgroup 0 and of
// workgroup 1 read buf[0]; after a storage barrier, which orders only
// accesses within one workgroup (WGSL #sync-builtin-functions), invocation
// 0 of workgroup 1 writes buf[0]. Workgroup 0's reads are unordered with
// that write (invocations of different workgroups are never ordered:
// WGSL #memory-model), so buf[0] is indeterminate and one race is
// reported. buf[1] is written by invocation 1 of workgroup 0 only: 42.
@group(0) @binding(0) var<storage, read_write> buf: array<u32, 2>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  let v = buf[0];
  storageBarrier();
  if (wid.x == 1u && li == 0u) {
    buf[0] = v + 1u;
  }
  if (wid.x == 0u && li == 1u) {
    buf[1] = 42u;
  }
}
