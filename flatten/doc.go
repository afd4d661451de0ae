// Package flatten turns a function into its flattened twin: a branchless,
// call-free function that computes the same result and the same writes to
// private globals in every invocation. gpudiff exists to prove, on real
// GPU stacks, that this predication preserves semantics; the reference
// interpreter checks interp(twin) == interp(original) on every input.
//
// The baseline is daslang's [flatten] (daslang's documentation of the
// [flatten] macro, §8.2–8.6): if/else to select under a hoisted condition, early return to
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
// The twin's body holds declarations (let and var), assignments, kept
// loops (see "Loops in twins") and, for a function with a result, one
// return as its last statement: no If (an entry point's guards aside, and
// a fragment twin's one demotion), Switch, Break, Continue, Discard
// or user call. The twin mentions every private
// global the original's call graph uses (a phony read `_ = g;`, before
// the final return and a fragment twin's demotion, keeps one it no
// longer needs), so ir.NewKernelABI gives both the same outputs, in
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
//     invocation; there are no pointers, atomics or storage writes). In
//     an entry point, accesses to shared memory are guarded instead (see
//     "Entry points").
//   - The expressions evaluated under a false P must be total: WGSL's
//     integer division and remainder are defined for a zero divisor at
//     run time (WGSL #arithmetic-expr), shifts take their count modulo 32
//     (#bit-expr), float overflow gives an indeterminate value that select
//     discards, and the whitelisted builtins are pure and total. The one
//     partial operation, indexing, is guarded: a dynamic index that is not
//     provably in bounds becomes select(0, i, P), unchanged where P holds
//     and in bounds where it does not.
//   - Uniformity-dependent operations (derivatives, implicit-LOD
//     sampling, barriers, subgroup operations) change meaning when more
//     invocations evaluate them; they are refused unless P is statically
//     true (WGSL #uniformity) — except where P is uniform: an entry
//     point's barrier stays as a guard on P (see "Entry points"), a
//     fragment twin's derivative or implicit-LOD sample is evaluated
//     unconditionally (see "Render stages") — and subgroup operations,
//     whose operands are guarded with P instead (see "Subgroups").
//   - Evaluation order is kept (see "Evaluation order" below).
//   - Loops are unrolled only when ir.BoundLoop proves a bound N on body
//     entries: N copies are then exact for every invocation. A loop
//     without such a bound is kept as a loop (Options.Loops auto or mask;
//     see "Loops in twins"), or refused (Options.Loops unroll), never
//     truncated.
//   - Unrolling and propagation substitute constants; a substitution that
//     would create a const-expression WGSL rejects at shader creation (a
//     zero divisor, a shift by ≥ 32, an out-of-range index, an overflow to
//     Inf) keeps the run-time operand instead, and statically dead copies
//     and arms are not emitted at all.
//
// # Evaluation order
//
// The twin is straight-line code whose only effects are stores: every
// inlined call becomes stores to private globals at the point where the
// source calls it. So the twin computes what the source does exactly when
// every value is read at the point where WGSL evaluates it — before the
// stores of any call WGSL evaluates later in the same statement, after
// those of any call it evaluates earlier — and once. The rules (WGSL
// #program-order: operands left to right; #memory-views: a reference is
// loaded where its value is used; #vector-multi-component: a
// multi-component swizzle is a value; #simple-assignment-section: the
// reference, then the right-hand side, then the store;
// #compound-assignment-sec: the reference once, loaded before the
// right-hand side; #select-builtin: all three operands evaluated;
// #logical-expr: the right operand of && and || only when needed) and
// where they are kept:
//
//   - Operands, call arguments, constructor components, builtin arguments
//     and select's f, t, cond are translated left to right; one that
//     reads a private global (the only state a callee can write: there
//     are no pointers) is bound to a let before a later operand's call
//     is inlined (translate, call). Call results are lets or fresh vars
//     nothing writes again. A value read only from lets, parameters and
//     function-scope vars needs no binding: no call can change those.
//   - A load through a reference chain rooted at a var or global (a[i].f[j])
//     happens after all its index operands, innermost first; each index
//     operand that reads a global is bound before a later one's call runs,
//     and the chain is bound where it stops being a reference (g.yyy[h()]:
//     translateChain, ir.IsReference).
//   - An assignment evaluates its reference first: its index operands are
//     bound before a later index operand's call or the right-hand side's
//     (ref); a compound assignment binds the loaded value before its
//     right-hand side's calls (assign); x++ is x += 1 (compiler/wgsl).
//   - A predicated store lhs = select(lhs, v, P) reads lhs where the
//     source's store happens: after everything the statement evaluated,
//     before anything later. Array and struct values are bound first and
//     stored leaf by leaf, so a value that reads the stored variable
//     (s = S(s.b, s.a)) is taken whole before the first leaf is stored.
//   - An if's condition and a switch's selector are evaluated once, before
//     any arm; a loop's exit tests, continuing block and break-if are
//     lowered afresh in every unrolled copy, in the source's order; a
//     return value is bound where the return runs.
//   - && and || whose right operand calls a function are lowered to an if
//     when the IR is built (ir.Normalize), which binds the operands
//     evaluated before them — but not a memory view that is the base of
//     an index (g[u32(c && f())] loads g[…] after f), and an assignment's
//     reference before its right-hand side.
//   - The cleanup passes never move a read across a store to what it
//     reads: constprop and copyprop forget a name at any store to it
//     (predicated or partial), forward moves a value only when nothing it
//     reads is stored in between, dse keeps every store to a global, and
//     the folds rewrite single expressions, which have no effects.
//
// TestFlattenPreservesEvaluationOrder generates this shape: helpers that
// write globals, called from inside indexes (of references and of
// values), conditions, arguments, constructors, select operands,
// assignment references, compound assignments, loop conditions and
// effectful short-circuits, in programs that read the same globals. It
// checks interp(twin) against interp(original), and the original against
// the same program with each effectful short-circuit spelled as a helper
// call (which ir.Normalize does not lower), so a lowering mistake that
// the reference and the twin share is seen too.
//
// # Entry points
//
// A @compute entry point (ir.Func.Stage) flattens to <entry>_flat, itself
// a @compute entry point with the same workgroup size and builtin
// parameters, which runs beside the original on the same bindings
// (interp.CompileEntry, `exec --flat`). Everything per invocation —
// locals, private globals, conditions, masks, reads of read-only
// bindings (var<storage, read>, var<uniform>, which nothing writes during
// a dispatch) — is predicated as above. What another invocation can
// observe is not, because evaluating it under a false predicate is an
// effect (WGSL #memory-model):
//
//   - Shared stores. buf[i] = select(buf[i], v, P) reads and writes back
//     buf[i] where P is false: a write the source does not make, which
//     races with the invocation that owns buf[i] (a lost update) and
//     which the reference reports as a race. So a store to var<workgroup>
//     or var<storage, read_write> stays a store, guarded:
//     `if (P) { ref = v; }` (a plain store where P is statically true).
//     Redirecting the store to a dummy location by selecting the address
//     is not available: WGSL has no select on references, and the
//     bindings have no scratch slot.
//   - Shared loads. A load of writable shared memory under a false P may
//     race with another invocation's write (the reference would make the
//     location indeterminate), so it is bound where the source evaluates
//     it: `let ld = ref;` where P is statically true, else
//     `var ld: T; if (P) { ld = ref; }`, whose zero where P is false is
//     never selected. A compound assignment to shared memory loads it
//     that way before its right-hand side, then stores under the guard.
//   - Atomics. An atomic's effect is visible to every invocation, so it
//     runs only under P, the same way: an atomic statement as
//     `if (P) { atomicOp(...); }`, a used result as a guarded assignment
//     to a fresh var. atomicCompareExchangeWeak under a predicate is
//     refused: its result is a predeclared struct WGSL cannot name in a
//     var declaration.
//   - Barriers. A barrier stays as written where the effective predicate
//     is statically true (the top level of the body, loops unrolled by a
//     constant counter, ifs whose condition folded); as
//     `if (P) { barrier(); }` where P is uniform across the workgroup;
//     and is dropped where P is statically false. Any other barrier is
//     refused, positioned at it ("under non-uniform control flow"): the
//     source reaches it in every invocation of a workgroup or in none
//     (WGSL #uniformity), and a barrier the twin ran in only some would
//     be an error. Nor can a barrier run unconditionally: an extra
//     barrier orders accesses the source leaves unordered, which hides
//     the source's races and changes the order of its atomics.
//     Uniformity is WGSL's own analysis (ir.Uniformity, the one the
//     front end runs), over the whole lowered twin (entry.go,
//     checkBarriers): every barrier is first emitted as a guard, and a
//     guard the analysis finds in non-uniform control flow is refused at
//     the barrier. So a twin flatten emits is one every WGSL
//     implementation's uniformity check accepts. The analysis follows
//     values through the twin's selects, guards and kept loops (back
//     edges included): invocation builtins other than workgroup_id and
//     num_workgroups (a struct of builtins too), writable shared memory,
//     atomics and private globals are non-uniform; read-only bindings,
//     arrayLength, workgroupUniformLoad results and literals are uniform.
//     Barriers in callees are inlined under the same rule.
//   - Loops with barriers are unrolled where a bound is proven, with the
//     barrier copies in place: the copies of a loop with a constant trip
//     count hold plain barriers, those of a loop with a uniform
//     data-dependent exit (if (k >= params.n) { break; }) hold guards on
//     the uniform break mask. A loop with barriers and no proven bound is
//     kept (see "Loops in twins"): its barriers are guards on the loop's
//     mask, accepted only when that mask is uniform — checked once the
//     outermost kept loop is lowered, since the mask is assigned at the
//     end of each iteration, after the barrier. Besides ir.BoundLoop's
//     constant steps, an entry point's loop is bounded by evaluation
//     (evalBound) when its
//     counter starts at a literal, is updated once, in the continuing
//     block, by an expression of itself and literals (k = k / 2u,
//     k *= 2u: reduction and scan strides) and exits on a test of itself
//     and literals; the counter's values are substituted per copy.
//
// So an entry point's twin is branchless except for guards: an if with an
// empty else around exactly one access to shared memory or one barrier
// (isGuard) — the exec mask a GPU applies to a predicated store, written
// out. The cleanup passes read through guards, treat a guarded
// assignment as a predicated redefinition, and never move, drop or
// duplicate a shared access: loads and atomics live in lets and vars of
// kind tempShared that forward never moves and dse never removes, copy
// propagation never substitutes a shared variable, and a store to shared
// memory is never dead. An entry point is always lowered (never taken as
// its own twin), so every guard's condition is checked.
// TestEntryTwinsAgreeInDispatch and TestEntryTwinsAgreeOnRandomBindings
// run original and twin as whole dispatches in the reference and require
// identical bindings, indeterminate leaves and races; the twins parse
// back through the front end, uniformity analysis included.
//
// Not yet: a binding the twin no longer mentions (read only in code the
// folds proved dead) is not kept alive in the twin's interface.
//
// # Render stages
//
// A @vertex or @fragment entry point flattens to a twin of the same
// stage with the same IO (parameters with their @builtin, @location and
// @interpolate; the result's @builtin or @location), drawn beside the
// original. Their bindings are read-only (uniform, storage read,
// textures, samplers), so nothing is guarded. Writable storage in a
// fragment entry point, which WebGPU allows and the draws gpudiff runs
// leave out (the front end refuses it), is refused when such a module is
// flattened on its own: an access under a predicate (its guard is one
// only a compute twin keeps), and any write to memory where the call
// graph discards (the twin demotes at its end, so the write would
// escape an invocation the source demoted: demote.go).
//
// A fragment twin keeps its derivatives (dpdx & co, whatever the
// whitelist says) and its implicit-LOD samplers (textureSample,
// textureSampleBias, textureSampleCompare) under a predicate P where P
// is uniform, as a compute twin keeps its barriers (quad.go). They read
// their operand in the other invocations of a 2×2 quad, and the twin,
// being branchless, evaluates them unconditionally, with the operands
// the source computes where P holds: exact wherever P is the same in
// the quad's four invocations — they all ran the source's derivative,
// or none did and the value is never selected. The rule: kept, as
// unconditional leaves, where P is statically true, or where WGSL's
// uniformity analysis (ir.Uniformity over the lowered twin; a probe
// `if (P) { workgroupBarrier(); }` checked as a barrier guard is, then
// removed) finds P uniform — a switch or if on a uniform buffer, a
// callee called under one, a loop unrolled or kept whose exits read
// only uniform values (a kept uniform loop); refused, positioned at the
// operation, where P may differ between invocations: a condition on a
// fragment input or a private global (which valid WGSL allows only
// with derivative_uniformity off), or a loop whose exit does (a masked
// kept loop, whose mask is per invocation). A fragment that is already
// flat, its own twin, keeps them too: its control is uniform
// throughout.
//
// discard becomes a demote mask
// (demote.go): a bool var set where the source discards, and one guard
// at the end, `if (demoted) { discard; }`, the last statement before the
// final return — the one If finalcheck allows in a fragment twin beside
// none other. Where the source discards in every invocation the mask
// folds to true and the demotion is a bare `discard;` in the guard's
// place.
//
// # Loops in twins
//
// The twin contract ("branchless", ARCHITECTURE.md "Loops in twins"): no if
// (an entry point's one-statement guards around a shared store, a shared
// load, an atomic or a barrier aside), no switch, no call, and a loop
// only of one form, a kept loop (masked.go):
//
//	var m: bool = E;        // E: the predicate under which the source enters
//	loop {
//	  … branchless body: the source's body and continuing block under
//	    m && cont, break, continue and return as masks …
//	  m = brk && live;      // what the iteration left of the mask
//	  continuing { break if !m; }
//	}
//
// Its only exit is its own mask turning false — "no live lane left", per
// invocation — so it is entered as often as the source's body in every
// invocation that enters the source's loop, and once, fully masked off,
// in one that does not. Two kinds, told apart by WGSL's uniformity
// analysis (ir.Uniformity) over the lowered twin — a loop is uniform when
// the analysis accepts a barrier at the start of its body
// (loopIsUniform) — which Options.OnLoop and `flatten --stats` report:
//
//   - a uniform loop: m is the same in every invocation of a workgroup
//     (its exits read only uniform values: literals, overrides resolved
//     to constants, arrayLength, uniform and read-only storage buffers,
//     workgroupUniformLoad results, workgroup_id, num_workgroups, and
//     counters computed from them, with no non-uniform return before
//     it); its barriers stay, as guards on m, and a fragment twin's
//     derivatives and implicit-LOD samples in it, unconditional;
//   - a masked loop: m is per invocation (the loop SIMT hardware, ISPC
//     and the Region Vectorizer run, Moll & Hack PLDI 2018); a barrier in
//     it is refused, as WGSL refuses one in non-uniform control flow, and
//     so is a derivative or implicit-LOD sample.
//
// What crosses the back edge is a var: m, and, when the loop holds a
// return of the frame it is in, the frame's live mask and scalar return
// value; within one iteration masks are lets, as in an unrolled copy.
// With Options.Loops auto (the default), a loop with a bound (ir.BoundLoop,
// or evaluation in an entry point) is unrolled while the function's
// unroll count stays within Options.MaxUnroll, and kept otherwise (loops
// whose own copies exceed the cap first, outermost first, then those
// with the most copies), and while what unrolling adds to the twin stays
// within Options.MaxUnrollNodes IR nodes (the loop that adds the most
// kept first: a driver's compile time grows with the twin's size, which
// the copy count alone does not bound); Options.Loops unroll refuses what it cannot
// unroll; Options.Loops mask keeps every loop. An inner loop whose start
// or bound reads an outer counter (`for (var j = k / 2u; j < 3u; j++)`)
// has no syntactic bound; inside an unrolled copy of the outer loop,
// where the counter is a constant, it is bounded with that constant
// substituted and unrolled (a leaf loop, while its copies fit what
// MaxUnroll leaves: boundInCopy), and kept otherwise. The cleanup passes treat a kept loop as a region
// read and written as a whole: nothing is propagated into it that it
// assigns, nothing is moved into or out of it, and a store inside it is
// dead only when neither the loop nor what follows it reads the variable
// (prop.go, dse.go). The final check (finalcheck, and with
// Options.VerifyPasses after every pass) enforces the contract: each loop
// of the twin has an empty continuing block and the exit `break if !m`, m
// a bool var its body assigns (keptLoopViolation). The body's update of m
// stays even where it folds to `m = m` (isMaskUpdate): a loop none of
// whose exits can fire once entered (`loop { continuing { break if
// false; } }`, a break only in a dead else) is kept in that form, and
// runs forever in every invocation that enters the source's loop — as
// the source does (a reference run stops at its step limit in both) —
// and once, masked off, in every other. It is no refusal: the contract
// expresses it exactly, and GraphicsFuzz-derived shaders hold such
// loops under conditions that never hold.
//
// # Subgroups
//
// A subgroup operation (WGSL #subgroup-builtin-functions: reductions,
// scans, votes, ballot, elect, broadcasts, shuffles, quad operations)
// reads the other invocations of its subgroup that execute it with it,
// the active ones. The source runs one under the path's mask c; under
// maximal reconvergence — the model the reference implements, in which
// the invocations that reach an operation by the same path run it
// together — its active set is A, the subgroup's invocations with c.
// The twin is straight-line code (outside its guards and its masked
// kept loops), so every invocation of the subgroup runs the twin's
// operation together: the set S ⊇ A. Each operation is rewritten so
// that, run over S, it gives every invocation of A what the source's
// gives it over A (subgroup.go, guardSubgroup); its value is then
// selected under c as every other predicated value is. Where c is
// statically true the operation is the source's, as written; it is kept
// whatever Options.Whitelist says, as a compute twin's barriers are.
//
//   - Reductions and scans: op(select(e, v, c)), e an identity of op on
//     every value: 0 for add, or and xor on integers, -0.0 for a float
//     add (x + -0.0 = x for every x, +0.0 and NaN included; +0.0 would
//     turn a sum of -0.0s into +0.0), 1 for mul, ~0 for and, the type's
//     largest finite value for min (i32 2147483647, u32 0xffffffff, f32
//     0x1.fffffep127, f16 65504) and its smallest for max. Over S the
//     inactive invocations contribute e, so the reduction is A's: in any
//     association (WGSL lets a float reduction associate in any order,
//     and an identity is exact in each), so the twin's set of allowed
//     values is the source's. A scan (inclusive or exclusive, in
//     subgroup_invocation_id order) at an invocation of A sums A's
//     lower members and e for the others: A's scan; an empty exclusive
//     prefix gives the implementation's identity, plus e, unchanged.
//     Min and max with a finite identity differ from A's only where all
//     of A's values are +∞ (min) or -∞ (max) or NaN: values WGSL's
//     finite-math assumption leaves indeterminate already
//     (#floating-point-evaluation); ∞ itself cannot be the identity, a
//     const-expression overflow being a shader-creation error.
//   - subgroupAll(p) → subgroupAll(!c || p): true outside A, so the
//     conjunction over S is A's. subgroupAny(p) → subgroupAny(c && p)
//     and subgroupBallot(p) → subgroupBallot(c && p): false outside A,
//     so the disjunction is A's and the ballot has exactly the bits of
//     A's invocations with p (the source's ballot has no bit for an
//     inactive invocation).
//   - subgroupElect() → select(false, subgroupInclusiveAdd(select(0u,
//     1u, c)) == 1u, c): the inclusive scan of c at an invocation counts
//     the members of A up to it, 1 exactly at A's lowest
//     subgroup_invocation_id, which is where the source elects. (A
//     ballot-based form needs subgroup_invocation_id, which the function
//     may not have; the scan is u32 arithmetic, exact.)
//   - subgroupBroadcastFirst(v) → subgroupShuffle(v, first), first the
//     lowest set bit of subgroupBallot(c) (firstTrailingBit over the
//     ballot's words, ids 0–31 in x … 96–127 in w): A's lowest id, whose
//     v the source broadcasts. Where A is empty first is 0 and no
//     invocation of A reads the value. subgroupShuffle's id need not be
//     uniform (only a relative shuffle's delta must be), and first is.
//   - subgroupBroadcast, subgroupShuffle, quadBroadcast and the quad
//     swaps: unchanged. They read a named invocation's operand, which
//     the twin computes as the source does wherever that invocation is
//     in A; one outside A is inactive in the source, where WGSL makes the
//     read indeterminate (subgroupBroadcast's a dynamic error), so any
//     value the twin reads is allowed.
//   - subgroupShuffleUp, Down and Xor: the delta must be uniform (WGSL
//     #subgroupShuffleUp-builtin; else the result is indeterminate). The
//     source's needs to be uniform over A only, and the twin's delta
//     outside A is whatever its predicated computation left there (the
//     old value of a var assigned under c), so a delta that reads
//     anything but literals and read-only bindings is replaced by
//     subgroupShuffle(d, first): A's delta in every invocation — unless,
//     once the twin is lowered, WGSL's uniformity analysis finds the
//     twin's own d uniform (a probe barrier under a condition on it,
//     resolveDeltas), when every invocation has one value, A's, and d
//     stays: a local assigned from a uniform buffer under a uniform
//     condition keeps the twin valid with subgroup_uniformity at error,
//     as its source is. The replacement is uniform at run time but not to
//     the analysis (a subgroup result is non-uniform), so a twin that
//     keeps it is valid only with subgroup_uniformity off, which its
//     source, whose delta the analysis cannot prove uniform, needs too.
//
// For the twin's operation to run in every invocation of S it must stay
// in uniform control flow: the guarded call is bound to a let where the
// source evaluates it, never inside an entry point's guard (a shared
// store of its value stores the let), and forward never moves it (into
// a guard, or the right operand of && or ||, it would run in some
// invocations only); finalcheck refuses a twin that has one there. A
// source's a && b (a || b) whose b calls one runs b only where a holds
// (fails, WGSL #logical-expr): b is lowered under a (!a) as the arm of
// an if, its operations guarded by it. In a uniform kept loop every
// invocation of a workgroup (so of a subgroup) runs every iteration, and
// the operation is guarded by the loop's mask. A masked one (its exit is
// per invocation) would diverge as the source's does, so its exit
// becomes the subgroup's: `break if !subgroupAny(m)` (subgroupExit). The
// subgroup then runs each iteration together until none of its
// invocations is still in the loop; one that has left runs the rest
// masked (an iteration's masks start from m), so iteration k's guarded
// operation sees exactly the invocations the source runs in iteration k
// — the source's active set under maximal reconvergence, keyed by
// iteration as the reference keys it. WGSL's analysis still calls the
// loop non-uniform (a subgroup result is non-uniform to it), so such a
// twin is valid only under `diagnostic(off, subgroup_uniformity)`, which
// a source with a subgroup operation in a divergent loop has, and the
// reference marks the results as depending on reconvergence for the
// twin's device runs as for the source's. In a fragment entry
// point that discards, an operation that may run after the discard is
// refused: the source's invocation is a helper from there on, and
// whether a helper takes part in a subgroup operation is the
// implementation's (Vulkan's demoted invocations do; WGSL does not say),
// while the twin demotes only at its end.
//
// What WGSL does not promise: maximal reconvergence. The active set of
// an operation in divergent control flow is the set that executes it
// together, which "may contain a different set of active invocations
// than the shader author expects" (WGSL #subgroup-builtin-functions),
// so the source's value on a device is one of several, and the twin's
// (uniform, so A exactly) the maximal-reconvergence one; the reference
// marks the outputs that depend on the choice (interp's Reconvergence,
// oracle's verdict). Nor does it promise one subgroup size for two
// pipelines: the twin, a separate entry point, may run at another size
// or partition than the source on the same device, which check accounts
// for per run. Both hold the same for the twin as for any other
// rewrite of the source.
//
// The fault subgroup-guard-dropped (FaultEnv) drops the guard of
// reductions and scans: the naive select(old, subgroupAdd(v), c), which
// sums S, not A.
//
// # Refusals
//
// Kind Refused errors, positioned "file:line:col: flatten: message": a
// recursive call (direct or mutual), with Options.Loops unroll a loop
// without a proven bound ("unbounded loop") or one whose bound is beyond
// any unroll cap ("loop bound too large to unroll", naming MaxUnroll), an
// unroll count above Options.MaxUnroll with Options.Loops unroll (the
// message gives the count; see check.go for how copies are counted), a
// builtin outside the whitelist (in any position: arguments, conditions,
// callees; subgroup operations are never leaves, see "Subgroups"), a
// uniformity-dependent builtin in non-uniform control flow
// (in a function kernel: under any predicate, a kept loop's included; in
// a fragment twin, a derivative or implicit-LOD sample under a predicate
// WGSL's analysis does not find uniform, a masked loop's included), an
// access to writable memory under a predicate outside a compute entry
// point, a write to memory in a fragment entry point that discards, a
// barrier of an entry point under non-uniform control flow (a masked
// loop's included), a subgroup operation in a fragment entry point that
// discards after a discard may have run (see
// "Subgroups"), workgroupUniformLoad under any predicate (a kept
// loop's included: not yet guarded), atomicCompareExchangeWeak under a
// predicate in an entry point (a kept loop's included: its result is a
// predeclared struct WGSL cannot declare, so no guard can hold it), a
// call of a function outside the IR subset, and a type that cannot be
// selected at an inline boundary (unreachable with the current IR types,
// all of which decompose into scalars and vectors).
//
// # Naming
//
// The twin is named <name>_flat (or the first free <name>_flat_N). The
// flattened function's own locals keep their names; inlined callees'
// locals, unrolled copies and flatten's temporaries (masks live, brk,
// cont, inloop; conditions cond, case, sel; predicates p; return values ret;
// parameter temporaries named after the parameter) get names from an
// ir.Namer seeded with every name in the module, so they collide with
// nothing the user wrote.
package flatten
