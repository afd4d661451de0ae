// Package interp is gpudiff's reference interpreter: it executes a kernel
// of an ir.Module with exact WGSL runtime semantics, one invocation at a
// time, and reports for every leaf of every output whether WGSL fixes its
// value, and how closely. Its results are the oracle every GPU result is
// compared against, so its semantics are the specification for gpudiff.
//
// # What it implements
//
// Integers follow the WGSL runtime rules exactly (#arithmetic-expr,
// #bit-expr): i32 and u32 arithmetic wraps; x / 0 = x, x % 0 = 0,
// MIN / -1 = MIN, MIN % -1 = 0; shift counts are taken modulo 32 and >> is
// arithmetic on i32; -MIN and abs(MIN) are MIN; the bit builtins clamp
// offset and count as the spec says. Evaluation is left to right
// (#program-order); an assignment evaluates its reference, then its value;
// a compound assignment loads its reference before evaluating its right
// operand; select evaluates all three operands; && and || short-circuit.
// Private globals are per invocation: each invocation starts them at their
// initializer (or zero), and their final values are outputs.
//
// # Indeterminate values
//
// WGSL leaves some results indeterminate (#indeterminate-values): a
// run-time out-of-bounds index read (#array-access-expr; the reference
// returns the clamped element, marked indeterminate), a store through an
// out-of-bounds index (an invalid memory reference: the whole variable
// becomes indeterminate), an f32 result that overflows or is infinite or
// NaN (the finite math assumption of #differences-from-ieee754), an f32
// operation evaluated outside the range where its accuracy is specified
// (sin outside [-π, π], division by |y| outside [2^-126, 2^126], log of a
// non-positive number, …), and the conversion of NaN to an integer.
// Indeterminacy propagates like poison through data flow; select takes
// the indeterminacy of its chosen arm and of its condition only. An if,
// loop break, break-if or switch that depends on an indeterminate value
// is a fork point (fork.go): the invocation runs every way it can go,
// within a budget, and each output leaf is the union of the outcomes —
// exact where they agree, an allowed set (Output.Allowed, ir.ValueSet)
// where they differ; past the budget, every output the invocation can
// still write is any value. (A && or || whose left operand is
// indeterminate only makes its result indeterminate: after ir.Normalize
// its right operand has no effects, so whether it runs cannot be
// observed.) Entry points (dispatch.go, segment.go) add races and
// atomics: see ARCHITECTURE.md "Verdicts that are never false". A
// binding no two invocations can share (owned.go: accessed only as
// v[gid.x] in a dispatch one invocation high) keeps no race shadow; a
// store through an invalid reference into a variable above 65,536 leaves
// makes all of it any value for the rest of the pass (segment.go,
// storeAnywhere).
//
// # f32 and f16 accuracy
//
// f16 follows the rules below with binary16's range, ULPs and WGSL's f16
// accuracy column (f32.go: one float format per type). Every f32
// operation is evaluated in float64 and rounded to float32, and
// carries an absolute error bound (Output.Tolerance) that WGSL grants a
// conforming implementation, propagated through data flow; see f32.go for
// each rule and #concrete-float-accuracy for the bounds. A comparison, a
// conversion to an integer or to bool, sign or step whose outcome could
// change within its operands' bounds is indeterminate. WGSL may flush
// subnormal inputs and outputs of these operations to zero: when an input
// is a nonzero subnormal the operation is also evaluated with it flushed,
// and a different outcome (subnormal results counting as zero) makes the
// result indeterminate; subnormal results are returned as computed, and
// the comparator treats them as equal to zero, as it must treat +0 and -0
// as equal (WGSL lets implementations ignore the sign of a zero).
//
// Integer-valued f32 arithmetic with magnitudes below 2^24 — the domain
// the program generator keeps to — is exact: + - *, negation, abs, min,
// max, clamp, floor, ceil, round, trunc, fract, sign, step, select,
// comparisons, dot, cross, mix, fma, conversions and division by a power
// of two all come out with a zero bound. Other divisions and the builtins
// WGSL specifies only to within some ULP or an absolute error (sqrt, exp,
// sin, …) never do: WGSL grants them a tolerance even when the exact
// result is representable. (Division by a power of two is the one place
// the reference is stricter than the letter of the spec, which grants
// 2.5 ULP there too: every implementation divides by a power of two
// exactly, and the generator's exact domain relies on floor(x / 4.0).)
//
// Known limitation: reassociation (#reassociation-and-fusion) is covered
// only by the magnitude-based rounding terms (each addition of a dot
// product may round by one ULP of the sum of the magnitudes of its terms,
// which bounds every partial sum in any order); a program whose
// implementation reassociates a chain of separate + operations across
// statements, so that an intermediate sum rounds or overflows where the
// reference's did not, can exceed the reported bound. Fused multiply-add
// of separate * and + is covered: the fused result lies within the bound
// of the unfused one.
//
// # Not executable
//
// Derivative, barrier and subgroup builtins need other invocations: they
// run in a dispatch (barriers and subgroup operations: subgroup.go runs a
// subgroup's invocations to a fixed point over Options.Subgroups'
// partition) and in a fragment's quads (derivatives and quad operations:
// quad.go); an invocation of Program.Run (a function kernel, one
// invocation alone) that executes one fails with Invocation.Err. Each invocation is limited to
// Options.MaxSteps steps (statements plus loop iterations, see
// DefaultMaxSteps). Recursion, which WGSL forbids, is a compile error.
//
// # Speed
//
// Compile turns the kernel's call graph into code once (in the style of
// cel-go's planner, and of a register machine) over a frame of slots:
// every function has a static region (WGSL forbids recursion), every
// value of composite type is a range of slots, and Run reuses one frame
// for all invocations, so the interpreter allocates only the outputs it
// returns. A function body is one flat instruction array (code.go): the
// hot operations — copies, integer arithmetic and comparisons, f32 + - *
// and comparisons on exact normal operands (Fast2Sum in float32 for + and
// -), four-lane f32 + - * and clamp, a vector times a constant ±2^k
// (exponents scaled), i32 → f32, select, splats — are
// decoded by one switch and read their operands in place, without bounds
// checks (every instruction's slots, lanes included, were checked against
// the frame when it was compiled: checkSlots, vcode); a slot is 16 bytes
// (bits, status, and the f32 error bound or the allowed set's id, which
// never coexist); control flow is
// jumps (blocks count their steps on entry, branches test comparisons
// directly); every other operation, and the general case of a hot f32
// one (inexact, indeterminate or subnormal operands), is a closure the
// instruction calls. Pairs that often follow each other — a bit test or
// remainder branched on against a constant, a loop counter's increment
// and the back edge, xorshift and multiply-add steps, a masked integer
// converted to f32, clamp(a + b, lo, hi) — run in one dispatch, the
// first's result passed to the second in registers (fuse.go). Results are
// computed directly into the variable assigned when that cannot clobber
// an operand. BenchmarkInterp compares
// a generated-like kernel with the same kernel written in Go (thread CPU
// time, ns per executed IR operation, CountOps).
//
// interp depends only on ir. It must never depend on the WGSL front end,
// the emitters, flatten or the harness, never touch a GPU, and never panic
// on a program that passes ir.Verify, whatever the argument values.
package interp
