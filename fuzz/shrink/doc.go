// Package shrink minimizes failing cases: type-preserving, terminating
// one-step reductions of an ir module and its kernel arguments
// (Candidates, Stream), a greedy minimizer over them (Minimize), and the
// size measure acceptance criteria use (Stmts). It serves gopter (the
// shrinker of gen.Gen) and stand-alone shrinking of saved cases alike.
//
// Every candidate passes ir.Normalize/ir.Verify, keeps the kernel (and
// its arguments matching its parameters) — a draw's vertex entry point
// too, with the pair's IO (Case) —, is strictly smaller than its
// origin, and terminates when its origin does; it never adds a WGSL
// const-expression hazard or an unreduced index (see Stream). Candidates
// do not preserve semantics: whether a candidate still shows the failure
// is the caller's predicate.
//
// shrink must never depend on the generator (gen depends on it), run
// programs (that is the predicate's job), or mutate the case it is given.
package shrink
