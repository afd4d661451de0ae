// loops: unrolled 0, kept uniform 1, masked 0
// A loop whose trip count is a uniform-buffer value (params.x rounds),
// with barriers inside: each round every invocation reads its right
// neighbour's tile entry (wrapping), waits, and stores it plus one. The
// exit depends only on params.x and the counter r, so the loop is uniform
// (WGSL #uniformity) and the twin keeps it as a loop whose barriers stay,
// guarded by the loop's mask — uniform, so every invocation of the
// workgroup reaches each barrier together, as in the source.
// Expectation (hand-derived): after R rounds tile[i] = data[(i+R) % 8] + R;
// data = 10, 20, …, 80 and R = 3 give data[3..7] + 3, then data[0..2] + 3:
// 43, 53, 63, 73, 83, 13, 23, 33.
@group(0) @binding(0) var<uniform> params: vec4<u32>;
@group(0) @binding(1) var<storage, read_write> data: array<u32, 8>;

var<workgroup> tile: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  tile[li] = data[li];
  workgroupBarrier();
  var r = 0u;
  loop {
    if (r >= params.x) {
      break;
    }
    let v = tile[(li + 1u) % 8u];
    workgroupBarrier();
    tile[li] = v + 1u;
    workgroupBarrier();
    r++;
  }
  data[li] = tile[li];
}
