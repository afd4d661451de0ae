// Every atomic builtin, on a storage atomic<i32> and a workgroup
// atomic<u32>; atomicCompareExchangeWeak's result struct is read.
@group(0) @binding(0) var<storage, read_write> counters: array<atomic<i32>, 2>;
@group(0) @binding(1) var<storage, read_write> log: array<u32, 16>;
var<workgroup> flags: atomic<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
  let a = atomicAdd(&counters[0], 1i);
  let s = atomicSub(&counters[1], 2i);
  let mx = atomicMax(&counters[0], i32(li));
  let mn = atomicMin(&counters[1], -3i);
  let an = atomicAnd(&flags, 7u);
  let o = atomicOr(&flags, 1u << li);
  let x = atomicXor(&flags, 16u);
  let ex = atomicExchange(&flags, li);
  let r = atomicCompareExchangeWeak(&counters[0], 5i, 6i);
  let ru = atomicCompareExchangeWeak(&flags, 3u, 4u);
  atomicStore(&counters[1], 9i);
  workgroupBarrier();
  if (li == 0u) {
    log[0] = u32(a + s + mx + mn + r.old_value) + an + o + x + ex + ru.old_value;
    log[1] = select(0u, 1u, r.exchanged && ru.exchanged);
    log[2] = u32(atomicLoad(&counters[0])) + atomicLoad(&flags);
  }
}
