// pcg_hash: the 32-bit PCG-RXS-M-XS hash (Jarzynski & Olano, "Hash Functions
// for GPU Rendering", JCGT 9(3), 2020), the usual per-pixel seed scrambler of
// path tracers and procedural noise.
//
// Exercises: wrapping u32 multiplication and addition, a data-dependent shift
// amount, xor, typed u32 literals, let bindings.

fn pcg_hash(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}
