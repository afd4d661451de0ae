// rule: each atomic read-modify-write stores op(old, v) and returns the old value (u32)
// spec: WGSL #atomic-rmw (Atomic Read-modify-write Arithmetic and Logical Functions), "Load the original value pointed to by atomic_ptr. ... Each function returns the original value stored in the atomic object before the operation."
// One invocation in the whole dispatch, so no other invocation touches the
// atomics and every returned value is determinate by WGSL. Each builtin
// works on its own location a[k], which starts at 12 (0b1100), with v = 10
// (0b1010), and its return goes to rets[k]:
//   add 12+10 = 22; sub 12-10 = 2; max 12; min 10; and 0b1000 = 8;
//   or 0b1110 = 14; xor 0b0110 = 6; exchange 10; every return 12.
// a[8] checks wrapping: 1 - 2 = 4294967295 (return 1); a[9]: store 5 then
// load, rets[9] = 5 (a plain store: a[9] = 5).
// Expected: rets = [12 x8, 1, 5]; the reference knows that no other
// invocation can reorder these atomics (segment.go), so every return is
// compared exactly.
@group(0) @binding(0) var<storage, read_write> a: array<atomic<u32>, 10>;
@group(0) @binding(1) var<storage, read_write> rets: array<u32, 10>;

@compute @workgroup_size(1)
fn main() {
  rets[0] = atomicAdd(&a[0], 10u);
  rets[1] = atomicSub(&a[1], 10u);
  rets[2] = atomicMax(&a[2], 10u);
  rets[3] = atomicMin(&a[3], 10u);
  rets[4] = atomicAnd(&a[4], 10u);
  rets[5] = atomicOr(&a[5], 10u);
  rets[6] = atomicXor(&a[6], 10u);
  rets[7] = atomicExchange(&a[7], 10u);
  rets[8] = atomicSub(&a[8], 2u);
  atomicStore(&a[9], 5u);
  rets[9] = atomicLoad(&a[9]);
}
