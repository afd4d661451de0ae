// rule: workgroupUniformLoad through a ptr<workgroup, T> parameter (Tint's
// builtins/workgroupUniformLoad/via_param.wgsl; WGSL
// #workgroupUniformLoad-builtin takes any ptr<workgroup, T>), the pointer
// formed by a caller from a uniform index (a parameter given a constant).
// Hand derivation: v[i] = i + 5, so after foo's first barrier v = [5, 6, 7,
// 8]; bar(2) = v[2] * 10 = 70, foo(&v[3]) = 8: out[i] = 78 + i.
@group(0) @binding(0) var<storage, read_write> out: array<i32, 4>;
var<workgroup> v: array<i32, 4>;

fn foo(p: ptr<workgroup, i32>) -> i32 {
  return workgroupUniformLoad(p);
}

fn bar(k: u32) -> i32 {
  return foo(&v[k]) * 10;
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  v[i] = i32(i) + 5;
  out[i] = bar(2u) + foo(&v[3]) + i32(i);
}
