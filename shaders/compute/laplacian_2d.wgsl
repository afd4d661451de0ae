// 2-D five-point Laplacian on an 8×8 i32 image, image-style dispatch: 2×2
// workgroups of 4×4, one invocation per pixel at global_invocation_id.xy,
// the image width and height from num_workgroups (× 4); pixels outside the
// image count as 0. out[y][x] = 4*in[y][x] - in[y-1][x] - in[y+1][x] -
// in[y][x-1] - in[y][x+1].
// Expectation: compute_expect_test.go (laplacian2D).
@group(0) @binding(0) var<storage, read> img: array<i32, 64>;
@group(0) @binding(1) var<storage, read_write> lap: array<i32, 64>;

fn at(x: i32, y: i32, w: i32, h: i32) -> i32 {
  if (x < 0 || y < 0 || x >= w || y >= h) {
    return 0;
  }
  return img[y * w + x];
}

@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let w = i32(nwg.x * 4u);
  let h = i32(nwg.y * 4u);
  let x = i32(gid.x);
  let y = i32(gid.y);
  lap[y * w + x] = 4 * at(x, y, w, h) - at(x, y - 1, w, h) - at(x, y + 1, w, h)
                 - at(x - 1, y, w, h) - at(x + 1, y, w, h);
}
