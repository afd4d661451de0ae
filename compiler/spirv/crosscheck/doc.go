// Package crosscheck holds compiler/spirv's tests that depend on other
// gpudiff stages: programs from the generator (fuzz/gen) must pass
// spirv-val, and their SPIR-V run on lavapipe must agree with the reference
// interpreter (interp) — two independent implementations of WGSL's
// semantics. They live apart from package spirv's own tests so that those
// build and run whatever state the other stages are in.
//
// The package has no non-test code and must never be imported.
package crosscheck
