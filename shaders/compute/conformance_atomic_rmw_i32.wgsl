// rule: atomicMax and atomicMin on atomic<i32> compare as signed; add and sub wrap
// spec: WGSL #atomic-rmw (Atomic Read-modify-write Arithmetic and Logical Functions), "Obtains a new value by performing the operation (e.g. max) from the function name with the value v. ... Store the new value using atomic_ptr."
// One invocation in the dispatch. a starts at [-5, -5, 3, 3, 2147483647,
// -2147483648, -1, -1]:
//   atomicMax(a[0], -9) = -5 (signed; unsigned would pick -5's bits too, so
//   a[1] tells them apart: atomicMax(a[1], 7) = 7, where an unsigned max
//   would keep -5 = 0xFFFFFFFB); atomicMin(a[2], -4) = -4 (unsigned would
//   keep 3); atomicMin(a[3], 8) = 3; atomicAdd(a[4], 1) wraps to
//   -2147483648; atomicSub(a[5], 1) wraps to 2147483647; atomicAnd(a[6],
//   -16) = -16; atomicXor(a[7], 5) = -6 (0xFFFFFFFF ^ 5 = 0xFFFFFFFA).
// Returned values are unused (the reference calls them indeterminate).
@group(0) @binding(0) var<storage, read_write> a: array<atomic<i32>, 8>;

@compute @workgroup_size(1)
fn main() {
  atomicMax(&a[0], -9);
  atomicMax(&a[1], 7);
  atomicMin(&a[2], -4);
  atomicMin(&a[3], 8);
  atomicAdd(&a[4], 1);
  atomicSub(&a[5], 1);
  atomicAnd(&a[6], -16);
  atomicXor(&a[7], 5);
}
