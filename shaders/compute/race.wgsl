// A data race: every invocation writes its index into the same element
// without synchronization; element 1 is written by invocation 0 only.
// out[0] ends as one of the values written, 0, 1, 2 or 3; out[1] = 7.
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
  out[0] = li;
  if (li == 0u) {
    out[1] = 7u;
  }
}
