// Package gen generates random structured WGSL-subset programs as ir
// modules, for differential testing of flatten, interp, the compilers and
// the GPU stacks, and for anyone's property tests of their own compiler:
// gopter generators with shrinkers (gopter.go: Programs, Functions,
// Statements, Expressions, Arguments; CampaignParameters, the parameters
// `gpudiff run` draws program i of a seed from), a seed-addressed
// generator (Generate, ProgramSeed), a byte-driven one for `go test
// -fuzz` (FromBytes), and kernel arguments (Inputs).
//
// Every generated program is, by construction (never by filtering):
//
//   - well-typed: a typing context (variables in scope with types and
//     mutability, helper signatures, struct types) is threaded through
//     generation, and the result passes ir.Normalize and ir.Verify;
//   - terminating: every loop has a counter that ir.BoundLoop bounds (see
//     the loop forms in loop.go), helpers form a call DAG (a helper only
//     calls helpers generated before it), and the estimated dynamic cost
//     is capped (MaxCost);
//   - within flatten's caps: the kernel's unroll count (loop-body copies,
//     inlined calls included) stays within Config.MaxUnroll, flatten's
//     Options.MaxUnroll (unroll.go), so flatten never refuses an
//     in-subset program for its size;
//   - free of WGSL shader-creation errors: no operator, builtin or
//     conversion has only const-expression operands, constant divisors are
//     non-zero, constant shift counts < 32, constant indices in range;
//   - exact: integer operations are all defined at run time in WGSL
//     (wrapping, x/0 = x, …); run-time indices are reduced into range;
//     f32 values stay integers with |v| ≤ 2^23 (FloatBound) by
//     reconditioning after every operation, so every result is bit-exact
//     on every conforming implementation.
//
// A configurable share of programs (Config.OutsideSubset) deliberately
// leaves flatten's subset — an unbounded (but terminating) loop or a
// depth-limited recursion — to exercise flatten's refusal path; the
// Program says which.
//
// gen must never: use a random source other than its own (math/rand,
// time, map order), so that a seed names the same program on every machine
// and Go version (math/rand appears only as the *rand.Rand type gopter's
// parameters carry, over gen's own SplitMix64 in CampaignParameters); emit a construct whose value a conforming WGSL
// implementation may choose (indeterminate values, float rounding, clamp
// with low > high); or generate a program outside the subset without
// saying so in Program.OutsideSubset.
package gen
