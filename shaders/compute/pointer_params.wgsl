// Pointer parameters into shared memory (WGSL #ref-ptr-types,
// #function-calls; the unrestricted_pointer_parameters language extension):
// helpers take ptr<uniform>, ptr<workgroup>, ptr<storage, read> and
// ptr<storage, read_write> (an atomic, one element, a whole runtime-sized
// array passed on to another helper, a struct member).
//
// Two workgroups of 8; g = 8·wg + li, src[g] = g + 1, scale 3, bias 1.
// tile[li] = 3·src[g] + 1 = 3g + 4; after the barrier invocation g stores
// tile[li] + tile[li ^ 1] + src[0] into acc.data[g]:
//   li + (li ^ 1) = 4·(li >> 1) + 1, so workgroup 0 stores
//   3·(4·(li >> 1) + 1) + 8 + 1 = 12·(li >> 1) + 12 and workgroup 1
//   (3g + 4 = 3·li + 28) stores 12·(li >> 1) + 60;
// invocation 0 stores arrayLength (17) into the last element, and every
// invocation adds 1 to acc.hits (5 + 16 = 21).
struct Params {
  scale: u32,
  bias: u32,
}
struct Acc {
  hits: atomic<u32>,
  data: array<u32>,
}
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> acc: Acc;
@group(0) @binding(2) var<uniform> params: Params;
var<workgroup> tile: array<u32, 8>;

fn scaled(p: ptr<uniform, Params>, v: u32) -> u32 {
  return v * (*p).scale + (*p).bias;
}

fn count(c: ptr<storage, atomic<u32>, read_write>) {
  atomicAdd(c, 1u);
}

fn sum_pair(t: ptr<workgroup, array<u32, 8>>, i: u32) -> u32 {
  return (*t)[i] + (*t)[i ^ 1u];
}

fn first(s: ptr<storage, array<u32>, read>) -> u32 {
  return (*s)[0];
}

fn put(slot: ptr<storage, u32, read_write>, v: u32) {
  *slot = v;
}

fn put_at(d: ptr<storage, array<u32>, read_write>, i: u32, v: u32) {
  put(&(*d)[i], v);
}

fn last_index(d: ptr<storage, array<u32>, read_write>) -> u32 {
  return arrayLength(d) - 1u;
}

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let g = wg.x * 8u + li;
  tile[li] = scaled(&params, src[g]);
  workgroupBarrier();
  put_at(&acc.data, g, sum_pair(&tile, li) + first(&src));
  count(&acc.hits);
  if (g == 0u) {
    put(&acc.data[last_index(&acc.data)], arrayLength(&acc.data));
  }
}
