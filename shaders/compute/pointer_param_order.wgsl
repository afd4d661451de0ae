// rule: a pointer argument's index operands are evaluated where the
// argument is, left to right with the other arguments, before the callee runs
// spec: WGSL #function-calls ("the argument values are evaluated ... in
// left-to-right order"), #address-of-expr, #ref-ptr-types
// next() returns 1, 2, 3, 4 in call order. put(&t[next()], next() * 10u)
// forms &t[1] and then passes 20; the second call forms &t[3] and passes
// 40. The helper reads and writes workgroup memory through the pointer;
// t[0] and t[2] keep their zero initial value (WGSL #var-and-value:
// workgroup memory is zero-initialized). out = [0, 20, 0, 40].
var<workgroup> t: array<u32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
var<private> n: u32;

fn next() -> u32 {
  n = n + 1u;
  return n;
}

fn put(p: ptr<workgroup, u32>, v: u32) {
  *p = *p + v;
}

@compute @workgroup_size(1)
fn main() {
  put(&t[next()], next() * 10u);
  put(&t[next()], next() * 10u);
  for (var i = 0u; i < 4u; i++) {
    out[i] = t[i];
  }
}
