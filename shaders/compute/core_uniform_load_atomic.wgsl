// rule: workgroupUniformLoad of a ptr<workgroup, atomic<T>> (WGSL
// #workgroupUniformLoad-builtin, the overload returning T: a barrier, an
// atomic load, a barrier; the result is uniform), directly and returned
// from a helper (Tint's builtins/gen/*/workgroupUniformLoad/7ea8de, 92df56).
// Hand derivation: invocation i adds i + 1 to count, so after the first
// barrier count = 1 + 2 + 3 + 4 = 10 = n, and each subtracts 1 from neg:
// r = -4. The loop runs n % 3 = 1 time (k = 0; its bound is uniform, so its
// barrier is valid): w[i] = i, then s = w[3 - i] = 3 - i.
// out = [10, 10, 10, 10, 3, 2, 1, 0], rs = [-4, -4, -4, -4].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> rs: array<i32, 4>;
var<workgroup> count: atomic<u32>;
var<workgroup> neg: atomic<i32>;
var<workgroup> w: array<u32, 4>;

fn total() -> u32 {
  return workgroupUniformLoad(&count);
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  atomicAdd(&count, i + 1u);
  atomicSub(&neg, 1);
  let n = total();
  var r: i32 = workgroupUniformLoad(&neg);
  var s = 0u;
  for (var k = 0u; k < n % 3u; k++) {
    w[i] = k + i;
    workgroupBarrier();
    s += w[3u - i];
  }
  out[i] = n;
  out[4u + i] = s;
  rs[i] = r;
}
