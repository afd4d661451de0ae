// Package shaders is gpudiff's hand-written corpus of WGSL kernels and the
// tests that pin their meaning.
//
// shaders/examples/ holds kernels written like real shader code (a PCG hash,
// a tonemapper, an SDF, a particle update, blend modes, …). Each example
// NAME is three files: NAME.wgsl, the module with its kernel function;
// NAME.inputs.json, a JSON object mapping each kernel parameter to one value
// per invocation; and NAME.expected.json, {"kernel": …, "reference": […]}
// with each invocation's outputs in the JSON form of ir (ir/json.go): the
// return value alone for a kernel with only a return value, otherwise an
// object keyed by output name ("ret", then each private global the kernel's
// call graph uses).
//
// The expected outputs are derived independently of the code under test: a
// native Go implementation of each kernel, written from the algorithm with
// WGSL's runtime semantics (wrapping integers, x/0 = x, shift counts modulo
// 32, saturating float→int conversion, float32 arithmetic without fusion),
// generates them (go test ./shaders -run TestExamplesNativeGoldens -update)
// and checks them, and a few values are derived by hand in the tests. The
// interpreter and the GPU adapters are then checked against those files;
// their output must never be copied into a golden.
//
// The package has no non-test code and must never grow a dependency of
// another package on it: it is data plus tests.
package shaders
