// ptr_params: pointer parameters (WGSL #function-calls, #ref-ptr-types):
// helpers that // swap two function variables, accumulate into a struct's fields through
// ptr<function, Acc> (both *p.f and the pointer composite access p.f,
// WGSL #pointer-composite-access) and add into a private global through
// ptr<private, i32>. Every argument is a whole variable, so the stacks
// may pass it as it is (WGSL #function-restriction).
//
// Exercises: pointer parameters in the function and private address
// spaces, loads and stores through them, a call under a branch, a void
// kernel with private outputs.

struct Acc {
  sum: i32,
  n: u32,
}

var<private> out_lo: i32;
var<private> out_hi: i32;
var<private> total: i32;

fn swap(a: ptr<function, i32>, b: ptr<function, i32>) {
  let t = *a;
  *a = *b;
  *b = t;
}

fn add(acc: ptr<function, Acc>, v: i32) {
  (*acc).sum += v;
  acc.n = acc.n + 1u;
}

fn add_private(p: ptr<private, i32>, v: i32) {
  *p += v;
}

fn ptr_params(x: i32, y: i32) {
  var a = x;
  var b = y;
  if (a > b) {
    swap(&a, &b);
  }
  var acc: Acc;
  add(&acc, a);
  add(&acc, b);
  out_lo = a;
  out_hi = b;
  add_private(&total, acc.sum);
  add_private(&total, i32(acc.n));
}
