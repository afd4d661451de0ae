// Inclusive prefix sum (Hillis-Steele) of 8 values in one workgroup, with
// two barriers per step so that reads and writes never race.
@group(0) @binding(0) var<storage, read_write> data: array<i32, 8>;
var<workgroup> buf: array<i32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
  let i = lid.x;
  buf[i] = data[i];
  workgroupBarrier();
  for (var offset = 1u; offset < 8u; offset = offset * 2u) {
    var v = buf[i];
    if (i >= offset) {
      v = v + buf[i - offset];
    }
    workgroupBarrier();
    buf[i] = v;
    workgroupBarrier();
  }
  data[i] = buf[i];
}
