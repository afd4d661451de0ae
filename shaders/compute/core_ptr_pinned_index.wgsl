// A let of a pointer whose index reads a var or calls a function
// (WGSL #address-of-expr: the pointer designates the location its view
// had when it was formed; later writes to the index do not move it, and
// the call runs once). The front end evaluates such indices into lets
// where the pointer is formed.
// Expectation (hand-derived): p = &arr[1] (i = 1 then); i = 3 does not
// move it: arr[1] = 20 + 5 = 25. r = &arr[next()] calls next once (c = 1):
// arr[1] = 26, and the two uses of *r do not call again. q = &out[3]
// (i = 3); i = 0 does not move it: out[3] = *p = 26. out = [arr[1],
// arr[3], c, 26] = [26, 40, 1, 26].
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;

var<private> c: u32;

fn next() -> u32 {
  c = c + 1u;
  return c;
}

@compute @workgroup_size(1)
fn main() {
  var arr = array<u32, 4>(10u, 20u, 30u, 40u);
  var i = 1u;
  let p = &arr[i];
  i = 3u;
  *p = *p + 5u;
  let r = &arr[next()];
  *r = *r + 1u;
  let q = &out[i];
  i = 0u;
  *q = *p;
  out[0] = arr[1];
  out[1] = arr[3];
  out[2] = c;
}
