// rule: a load that races with a store returns the location's prior value or a value stored to it; the race is the shader's defect
// spec: WGSL #memory-model ("data race"), #workgroup-variables (zero-initialized)
// Eight invocations write s[i] = 10 i and, with no barrier in between,
// read their neighbour's slot s[(i + 1) % 8]: every read races with the
// neighbour's write (8 races). The read returns the slot's prior value 0
// or the value its one writer stores, 10 ((i + 1) % 8):
//   p[i] = v     ∈ {0, 10 ((i + 1) % 8)}: p[7] reads s[0], whose writer
//                  stores 0 too, so p[7] ∈ {0};
//   o[i] = v + 1 any value (the reference keeps allowed sets through
//                  loads and stores, not through arithmetic).
@group(0) @binding(0) var<storage, read_write> o: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> p: array<u32, 8>;
var<workgroup> s: array<u32, 8>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    s[i] = i * 10u;
    let v = s[(i + 1u) % 8u];
    o[i] = v + 1u;
    p[i] = v;
}
