// rule: a let of a pointer names the memory view formed at the let
// (WGSL #let-decls, #address-of-expr): a typed let into storage, a let of
// a pointer parameter and a let of an element of it, a let of an element
// of a function-scope array; writes and reads through each.
// One workgroup of 4, dyn.arr = [100, 200, 300, 400]. via_param adds 5
// through &tile[li]: tile[li] = li + 5. Each invocation's acc = [1, 2]
// gets +10 at li % 2: acc[li % 2] = 11 (even li) or 12 (odd li). After
// the barrier dyn.arr[li] += tile[3 - li] + acc[li % 2] = (8 - li) +
// (11 | 12): li 0 → 100 + 19, li 1 → 200 + 19, li 2 → 300 + 17,
// li 3 → 400 + 17. dyn.arr = [119, 219, 317, 417].
struct DynamicArray { arr: array<u32> }
@group(0) @binding(0) var<storage, read_write> dyn: DynamicArray;
var<workgroup> tile: array<u32, 4>;
fn index_unsized(i: i32, v: u32) {
  let p: ptr<storage, DynamicArray, read_write> = &dyn;
  let val = (*p).arr[i];
  (*p).arr[i] = val + v;
}
fn via_param(t: ptr<workgroup, array<u32, 4>>, i: u32) {
  let q = t;
  let e = &(*q)[i];
  *e = *e + 5u;
}
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
  var acc = array<u32, 2>(1u, 2u);
  let a = &acc[li % 2u];
  *a += 10u;
  tile[li] = li;
  via_param(&tile, li);
  workgroupBarrier();
  index_unsized(i32(li), tile[3u - li] + acc[li % 2u]);
}
