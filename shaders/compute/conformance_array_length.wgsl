// rule: arrayLength of a runtime-sized array is its element count as bound, for any element size
// spec: WGSL #arrayLength-builtin (arrayLength), "Returns NRuntime, the number of elements in the runtime-sized array."
// Three bindings of 5 u32, 3 vec4<u32> and 2 structs {u32, vec2<u32>}
// (16-byte stride) elements, and one struct whose last member is a
// runtime-sized array of 6 u32 after a u32 header. Invocation 0 writes the
// four lengths: out = [5, 3, 2, 6].
struct Pair {
  k: u32,
  v: vec2<u32>,
}
struct Tail {
  n: u32,
  items: array<u32>,
}
@group(0) @binding(0) var<storage, read> s: array<u32>;
@group(0) @binding(1) var<storage, read> v: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> p: array<Pair>;
@group(0) @binding(3) var<storage, read> t: Tail;
@group(0) @binding(4) var<storage, read_write> out: array<u32, 4>;

@compute @workgroup_size(1)
fn main() {
  out[0] = arrayLength(&s);
  out[1] = arrayLength(&v);
  out[2] = arrayLength(&p);
  out[3] = arrayLength(&t.items);
}
