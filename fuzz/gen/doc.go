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
//     the loop forms in loop.go), or, for the data loops of profiles with
//     LoopWeights.Data (loop.go, dataLoop) and the compute profile's
//     uniform loops (compute.go: a scan over arrayLength, rounds read
//     from num_workgroups or workgroup_id), a count bounded at run time by
//     construction, which flatten keeps as a loop of the twin; helpers
//     form a call DAG (a helper only calls helpers generated before it),
//     and the estimated dynamic cost is capped (MaxCost);
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
// leaves flatten's subset — an unbounded (but terminating) loop, which
// flatten refuses only with Options.Loops "unroll" (by default it keeps
// it as a loop of the twin), or a depth-limited recursion — to exercise
// flatten's refusal path; the Program says which.
//
// # Compute entry points
//
// The "compute" profile (Profile.Entry) makes every program a @compute
// entry point as a shader author writes it (compute.go): a read-only
// storage input, a read_write storage output, optionally a uniform
// params struct and a storage array of atomic counters, var<workgroup>
// tiles (1-D, or 2-D indexed by local_invocation_id) and workgroup
// atomic counters, matrices (storage and workgroup arrays of
// matCxR<f32>, the matrix operators and builtins), a 1-D or 2-D
// workgroup size of up to 64 invocations, and a dispatch of up to 4×2
// workgroups (Program.Workgroups; at most 256 invocations). Bindings(Seed, Module) fills the bindings. Each
// invocation computes its value with the function kernels' statement and
// expression generators (so everything above holds for it, early returns
// excepted), and exchanges values with its workgroup through the tiles.
// Such a program is race-free and its barriers uniform by construction,
// by this discipline (ARCHITECTURE.md "Entry points as written": a race is two
// accesses to one location between synchronization points, one a write,
// not both atomic):
//
//   - barriers only at the top level of the entry point's body, or in the
//     body of a loop whose trip count is a constant (the tree
//     reduction's `for (var s = L/2; s > 0u; s /= 2u)`), and no early
//     return anywhere in the entry point: every invocation of a
//     workgroup reaches every barrier, in the same order (uniform control
//     flow, WGSL #uniformity);
//   - the generated per-invocation statements touch no shared memory:
//     they see the builtins, lets holding loaded values, the accumulator
//     and private globals; helpers never see shared memory;
//   - writes to shared memory go to the invocation's own location only:
//     tile[local_invocation_index] (or tile[lid.y][lid.x]) and
//     out[gi], gi the invocation's linear index in the dispatch (unique:
//     (wid.y·nwg.x + wid.x)·L + li, or gid.y·(X·nwg.x) + gid.x); the
//     input is read-only, so any invocation may read any element;
//   - phases alternate: a write phase (own slots written, and read only
//     by their owner) ends with a barrier, then a read phase (any slot of
//     the workgroup read: neighbours by (li + k) % L, L - 1 - li, li ^ m,
//     or the 2-D analogues — always in range, no slot written) ends with
//     a barrier, so no write phase overlaps a read of another's slot;
//     the reduction's step s writes slots li < s and reads li + s ≥ s;
//   - atomics: the counters are only ever accessed atomically; each
//     counter array gets one read-modify-write operation for its whole
//     life, one of add, sub, min, max, and, or, xor (each commutes and
//     associates with itself, so the final value does not depend on the
//     order; two different ones, max after add, would), with its
//     returned value unused (its value is order-dependent: the
//     reference marks it indeterminate); workgroup counters are loaded
//     (atomicLoad) only in a read phase, after the barrier that follows
//     their last read-modify-write, and storage counters never;
//   - matrices (Profile.Matrices of the programs; compute_matrix.go):
//     matCxR<f32> values (C, R ∈ 2..4) in a read-only storage array
//     minp (any element read), a read_write storage array mout (each
//     invocation writes mout[gi], whole, by column or by element) and a
//     workgroup array mtile that follows the tile's phases (mtile[li]
//     written in a write phase, any slot read in the read phase after
//     the barrier); the matrix code between phases touches no other
//     shared memory. Matrix × vector, vector × matrix, matrix × matrix,
//     transpose, determinant, scalar × matrix, ±, m[i] and m[i][j] stay
//     exact: every matrix value's components are integers with a tracked
//     bound, and the operands of each operation are clamped so that
//     every product and partial sum it makes is an integer ≤ 2^23 in
//     magnitude (for determinant, whose accuracy WGSL leaves
//     unspecified, entries ≤ 2^11, 64, 16 for 2×2, 3×3, 4×4), so any
//     summation order or fusing gives the same bits.
//
// TestComputeProgramsAreRaceFree checks it with the reference, whose race
// detector is exact: no race, no non-uniform barrier, no indeterminate
// output, flatten accepts the entry point and its twin agrees
// (TestComputeMatrixSlotsRaceWhenShared shows it sees matrix slots).
// Compute programs never leave flatten's subset (the entry point's
// unroll count is kept within Config.MaxUnroll as the kernel's is, the
// reduction's copies included).
//
// # Subgroup operations
//
// The "subgroups" profile (Profile.Subgroups; compute_subgroup.go) adds
// to the compute profile's entry points WGSL's subgroup builtins (WGSL
// #subgroup-builtin-functions) and the builtin values
// subgroup_invocation_id and subgroup_size, with `enable subgroups;` and
// `diagnostic(off, subgroup_uniformity);` in the module. The operations
// sit in the shapes of the field bugs of issue 40 — uniform control flow,
// both arms of a divergent if/else and switch cases (wgpu#10019), counted
// loops whose iterations a per-invocation break makes diverge, after an
// early exit — on workgroup sizes that are and are not multiples of 4, 8,
// 16 and 32. The discipline that keeps them race-free and, given a
// subgroup partition, determinate:
//
//   - each operation's result is stored by each invocation that runs it
//     to a slot of its own, gi·K + k, of a result binding (sgi, sgu, sgf,
//     sgb), which nothing reads; no site holds a barrier, and the early
//     exit follows the entry point's last barrier;
//   - integer reductions and scans wrap (any order, one result); f32
//     sum operands are clamped to ±2^17 and product operands to ±2, so
//     over a subgroup (≤ 64 invocations here) every partial result is
//     exact; the f32 sums with fractional operands (v·0.1 is rounded, so
//     their order matters; the reference bounds them) are only stored;
//   - what depends on the active set in divergent control flow, which
//     WGSL leaves to the implementation (the reference marks it:
//     oracle's Reconvergence), and what may be indeterminate (a shuffle
//     from an inactive lane) is only stored, never fed back into the
//     program's data; subgroupBroadcast's constant id is a lane the
//     shape keeps active;
//   - no subgroup operation is in a loop flatten keeps (a per-invocation
//     trip count there is refused: flatten/subgroup.go), so every
//     program is inside flatten's subset.
//
// # f16 code
//
// The "f16" profile (Profile.F16; compute_f16.go) adds to the compute
// profile's entry points f16 code (`enable f16;`, WGSL #extension-f16):
// storage bindings of f16 and vecN<f16> elements (vec3<f16>: size 6,
// alignment 8), a uniform struct of f16 members beside an f32 one, a
// workgroup tile of f16 values exchanged in the tile's phases, and an f16
// accumulator updated by f16 arithmetic, builtins and conversions to and
// from f32, i32 and u32, which also feeds acc. Exact by construction, as
// the f32 domain is: every f16 value is an integer of magnitude ≤ 1024,
// so a sum of two (≤ 2048 = 2^11) is exact in binary16; sums past the
// bound are clamped back, product operands clamped to ±32, dot operands
// to ±16, and a conversion into f16 clamps first. The statement
// generator never computes in f16 (the uniform's struct joins the module
// after it ran), so f16 stays in the f16 code.
//
// gen must never: use a random source other than its own (math/rand,
// time, map order), so that a seed names the same program on every machine
// and Go version (math/rand appears only as the *rand.Rand type gopter's
// parameters carry, over gen's own SplitMix64 in CampaignParameters); emit a construct whose value a conforming WGSL
// implementation may choose (indeterminate values, float rounding, clamp
// with low > high); or generate a program outside the subset without
// saying so in Program.OutsideSubset.
package gen
