// Bare vec3 storage bindings: 12 bytes of data, but a backend wraps the
// binding in a struct whose size rounds up to its 16-byte alignment
// (WGSL #memory-layouts; SPIR-V's Block), so the buffer must be 16 bytes
// or every SPIR-V run fails ("Buffer is bound with size 12 where the
// shader expects 16"). ir.BindingBytes pads it.
// Expectation (hand-derived): v = s.zyx + (1, 2, 3) = (31, 22, 13).
@group(0) @binding(0) var<storage, read> s: vec3<u32>;
@group(0) @binding(1) var<storage, read_write> v: vec3<u32>;

@compute @workgroup_size(1)
fn main() {
  v = s.zyx + vec3(1u, 2u, 3u);
}
