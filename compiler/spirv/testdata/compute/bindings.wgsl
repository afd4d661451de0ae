// A uniform struct, a read-only struct binding whose last member is a
// runtime-sized array, arrayLength, builtins as struct members, a
// storageBarrier, vec3 and nested struct layout (offsets 0, 16, 28, 32).
struct Params {
  scale: vec3<f32>,
  bias: f32,
  count: u32,
}
struct Item {
  pos: vec3<f32>,
  id: u32,
  w: vec2<f32>,
}
struct Items {
  n: u32,
  items: array<Item>,
}
struct Ids {
  @builtin(global_invocation_id) gid: vec3<u32>,
  @builtin(workgroup_id) wid: vec3<u32>,
}
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: Items;
@group(1) @binding(0) var<storage, read_write> out: array<Item>;

@compute @workgroup_size(2, 2, 1)
fn main(ids: Ids, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = ids.gid.x + 2u * nwg.x * ids.gid.y;
  let inside = i < arrayLength(&out) && i < arrayLength(&input.items);
  if (inside) {
    var it = input.items[i];
    it.pos = it.pos * params.scale + params.bias;
    it.id = it.id + params.count + input.n + ids.wid.y;
    out[i] = it;
  }
  storageBarrier();
  if (inside) {
    out[i].w.y += 1.0;
  }
}
