// An out-of-bounds store may land on any location of the binding's buffer,
// or nowhere (WGSL #out-of-bounds-access-sec, "Invalid Store"), so after
// out[5] = 9u into a 3-element runtime-sized array every element of out is
// indeterminate, out[0]'s earlier 1u included: each holds its prior value
// or 9, out = [{1, 9}, {0, 9}, {0, 9}]; keep, another binding, is
// untouched: [4, 5]. The reference once marked only the clamped element.
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> keep: array<u32, 2>;
@group(0) @binding(2) var<storage, read> idx: array<u32, 1>;

@compute @workgroup_size(1)
fn main() {
  out[0] = 1u;
  out[idx[0]] = 9u;
  keep[1] = 5u;
}
