// SwiftShader (through wgpu: naga's SPIR-V of the WGSL, and gpudiff's own
// SPIR-V) gets a loop wrong when a bool carried across its iterations
// picks, in a select, the next value of the index a storage load reads
// per invocation: invocation li must stop at i = li (table[i] == li), and
// SwiftShader gives li + 1 for lanes 1, 2, 4, 5, 6. lavapipe, wgpu's GL
// backend and Dawn's SwiftShader (Tint's SPIR-V) agree with the
// reference; with `if (live) { i += 1u; }` instead of the select, or a
// uniform index, SwiftShader agrees too. Found by a hand-derived loop case
// (shaders/loops/early_return.wgsl's twin failed on SwiftShader only) and
// reduced by hand. See findings/README.md.
@group(0) @binding(0) var<storage, read> table: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> found: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) li: u32) {
  var i: u32 = 0u;
  var live: bool = true;
  loop {
    let c: bool = table[i] == li;
    live = live && !c;
    i = select(i, i + 1u, live);
    if (!live) { break; }
  }
  found[li] = i;
}
