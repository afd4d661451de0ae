// Package flatten turns a function into its flattened twin: a branchless,
// call-free function that computes the same result and the same writes to
// private globals in every invocation. gpudiff exists to prove, on real
// GPU stacks, that this predication preserves semantics; the reference
// interpreter checks interp(twin) == interp(original) on every input.
//
// The baseline is daslang's [flatten] (../shared/reference/daslang-flatten.txt
// §8.2–8.6): if/else to select under a hoisted condition, early return to
// a live mask, inlining with a frame mask seeded from the caller's
// predicate, unrolling with break/continue masks, compound assignment,
// selects on every copyable type, void functions writing private globals,
// and a cleanup/fold pipeline (passes.go: one row per pass, ordering
// constraints checked at init). Beyond it:
// calls in conditions and select arms, switch, loops with a proven bound
// and a data-dependent exit, guards for dynamic indexes on dead paths, and
// no WGSL compile-time error introduced by unrolling or propagation.
//
// flatten owns the transform, its pipeline and its residual checker. It
// must never evaluate programs (that is interp), emit target code (that is
// compiler/...), change the original function, or emit a twin it has not
// verified: every failure is an *Error, and no twin is added on failure.
//
// # Twin shape
//
// The twin's body holds declarations (let and var), assignments and, for a
// function with a result, one return as its last statement: no If, Loop,
// Switch, Break, Continue or user call. The twin mentions every private
// global the original's call graph uses (a phony read `_ = g;` keeps one
// it no longer needs), so ir.NewKernelABI gives both the same outputs, in
// the same order. Every conditional value is a WGSL
// select (WGSL #select-builtin) — never an arithmetic blend such as
// c*a + (1-c)*b, which would leak a dead arm's NaN or Inf. Builtins in
// Options.Whitelist stay as leaves.
//
// # When the rewrite is legal
//
// Predication evaluates code the source would skip, under a predicate P
// that says whether the source would have run it. That is sound exactly
// when evaluating under a false P has no observable effect and no error:
//
//   - Every store becomes lhs = select(lhs, rhs, P): where P is false the
//     location keeps its value. Stores are the only effects left in a
//     subset function once its calls are inlined (private globals are per
//     invocation; there are no pointers, atomics or storage writes).
//   - The expressions evaluated under a false P must be total: WGSL's
//     integer division and remainder are defined for a zero divisor at
//     run time (WGSL #arithmetic-expr), shifts take their count modulo 32
//     (#bit-expr), float overflow gives an indeterminate value that select
//     discards, and the whitelisted builtins are pure and total. The one
//     partial operation, indexing, is guarded: a dynamic index that is not
//     provably in bounds becomes select(0, i, P), unchanged where P holds
//     and in bounds where it does not.
//   - Uniformity-dependent operations (derivatives, barriers, subgroup
//     operations) change meaning when more invocations evaluate them; they
//     are refused unless P is statically true (WGSL #uniformity).
//   - Evaluation order is kept: conditions are evaluated once, before
//     either arm; an operand that reads a private global is evaluated
//     (bound to a let) before a call to its right is inlined; a compound
//     assignment loads its left-hand side before its right-hand side runs;
//     select evaluates both arms, so calls in them run under the path
//     predicate, as in the source (WGSL #select-builtin, "Program Order
//     Within an Invocation").
//   - Loops are unrolled only when ir.BoundLoop proves a bound N on body
//     entries: N copies are then exact for every invocation. Anything
//     without such a bound is refused, never truncated.
//   - Unrolling and propagation substitute constants; a substitution that
//     would create a const-expression WGSL rejects at shader creation (a
//     zero divisor, a shift by ≥ 32, an out-of-range index, an overflow to
//     Inf) keeps the run-time operand instead, and statically dead copies
//     and arms are not emitted at all.
//
// # Refusals
//
// Kind Refused errors, positioned "file:line:col: flatten: message": a
// recursive call (direct or mutual), an unbounded loop, an unroll count
// above Options.MaxUnroll (the message gives the count; see check.go for
// how copies are counted), a builtin outside the whitelist (in any
// position: arguments, conditions, callees), a uniformity-dependent
// builtin in non-uniform control flow, a call of a function outside the
// IR subset, and a type that cannot be selected at an inline boundary
// (unreachable with the current IR types, all of which decompose into
// scalars and vectors).
//
// # Naming
//
// The twin is named <name>_flat (or the first free <name>_flat_N). The
// flattened function's own locals keep their names; inlined callees'
// locals, unrolled copies and flatten's temporaries (masks live, brk,
// cont; conditions cond, case, sel; predicates p; return values ret;
// parameter temporaries named after the parameter) get names from an
// ir.Namer seeded with every name in the module, so they collide with
// nothing the user wrote.
package flatten
