// rule: atomicCompareExchangeWeak never stores when the comparison fails, and its result reports what it did
// spec: WGSL #atomic-compare-exchange-weak (atomicCompareExchangeWeak), "Store the value v only if the result of the equality comparison was true. ... Returns a two member structure, where the first member, old_value, is the original value of the atomic object before the operation and the second member, exchanged, is whether or not the comparison succeeded."
// One invocation; a = [7, 7]. A weak compare-exchange may fail spuriously
// when the values are equal, never succeed when they differ, so:
//   r0 = CAS(a[0], cmp 3, v 100): 7 != 3, no store: a[0] = 7 always.
//   r1 = CAS(a[1], cmp 7, v 100): stores 100 unless it fails spuriously.
// Outputs that hold whatever a spurious failure does: out[0] = 1 if a[0]
// is still 7 and r0 did not exchange; out[1] = 1 if a[1] is 100 exactly
// when r1 exchanged, else 7 (the result agrees with the effect); out[2] =
// 1 if r0.old_value == 7 and r1.old_value == 7. Expected [1, 1, 1], a[0] =
// 7; a[1] is 100 or 7 (100 unless spurious). The reference runs r1 both
// ways (a fork: stored and exchanged, or not and not exchanged) and takes
// the union: out = [1, 1, 1] exactly, a = [7, {7, 100}].
@group(0) @binding(0) var<storage, read_write> a: array<atomic<u32>, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 3>;

@compute @workgroup_size(1)
fn main() {
  let r0 = atomicCompareExchangeWeak(&a[0], 3u, 100u);
  let r1 = atomicCompareExchangeWeak(&a[1], 7u, 100u);
  let v0 = atomicLoad(&a[0]);
  let v1 = atomicLoad(&a[1]);
  out[0] = select(0u, 1u, v0 == 7u && !r0.exchanged);
  out[1] = select(0u, 1u, (v1 == 100u) == r1.exchanged && (v1 == 100u || v1 == 7u));
  out[2] = select(0u, 1u, r0.old_value == 7u && r1.old_value == 7u);
}
