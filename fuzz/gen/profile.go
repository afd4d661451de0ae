package gen

import (
	"fmt"
	"strings"
)

// Profile weights the generator's choices. A weight is relative to the
// other weights of its group (0 disables a choice); percentages are
// 0–100. Profiles never change what a program may contain — every profile
// produces well-typed, terminating, exact programs — only how often each
// construct appears.
type Profile struct {
	// Name identifies the profile (LookupProfile, campaign reports).
	Name string
	// Doc is a one-line description for reports and --help.
	Doc string

	Stmt StmtWeights
	Expr ExprWeights
	Type TypeWeights
	Loop LoopWeights

	// Nesting caps the statement nesting depth (if/loop/switch/block);
	// the effective cap also grows with Config.Size (see Config).
	Nesting int
	// Helpers caps the number of helper functions; CallDepth caps the
	// longest call chain below the kernel (kernel → h → h → … counts the
	// helpers on it).
	Helpers, CallDepth int
	// MaxParams caps the parameters of the kernel and of each helper.
	MaxParams int
	// Globals is the number of var<private> globals beside the one
	// scalar global every program has.
	Globals int
	// Structs is the number of struct declarations.
	Structs int
	// MaxTrips caps the trip count of one generated loop.
	MaxTrips int
	// VoidKernel is the percentage of kernels that return nothing and
	// only write private globals; VoidHelper the same for helpers.
	VoidKernel, VoidHelper int
	// ExprDepth is the depth of generated expression trees.
	ExprDepth int
	// OutsideSubset is the share of programs deliberately outside
	// flatten's subset when Config.OutsideSubset is 0.
	OutsideSubset float64
	// UniformLoops is the percentage of Entry programs with loops whose
	// bound is uniform but not a constant (compute.go): a loop over
	// arrayLength of a runtime-sized inp, and exchange phases (barriers
	// included) repeated for a number of rounds read from num_workgroups
	// or workgroup_id. flatten keeps them as uniform loops.
	UniformLoops int
	// Entry makes every program a @compute entry point with bindings,
	// workgroup memory, barriers and atomics, dispatched over several
	// workgroups (compute.go; doc.go "Compute entry points") instead of
	// a function kernel; the weights above drive its per-invocation
	// statements. Such programs are never outside flatten's subset.
	// With Render set the programs are render entry points instead.
	Entry bool
	// Matrices is the percentage of Entry programs that also compute
	// with matCxR<f32> values: matrix storage bindings, a workgroup
	// matrix array exchanged like the tile, and the matrix operators
	// and builtins (compute_matrix.go).
	Matrices int
	// Textures is the percentage of Entry programs that also read
	// sampled textures (textureLoad, textureSampleLevel with a nearest
	// sampler, textureDimensions) and store to storage textures, each
	// invocation its own texel (compute_texture.go).
	Textures int
	// Subgroups is the percentage of Entry programs that also call
	// subgroup builtins and read subgroup_invocation_id and
	// subgroup_size — reductions, scans, ballots, broadcasts and
	// shuffles in uniform control flow, in divergent if/else, switch
	// cases, loops whose iterations diverge and after an early exit —
	// storing every result to a result binding, on workgroup sizes that
	// are and are not multiples of 4, 8, 16 and 32 (compute_subgroup.go;
	// doc.go "Subgroup operations"). Such a module has `enable
	// subgroups;` and `diagnostic(off, subgroup_uniformity);` and needs
	// an adapter with WebGPU's "subgroups" feature.
	Subgroups int
	// F16 is the percentage of Entry programs that also compute in f16
	// (`enable f16;`): f16 and vecN<f16> storage bindings, a uniform
	// struct of f16 members, a workgroup tile of f16 values, an f16
	// accumulator, f16 arithmetic and builtins, and conversions to and
	// from f32, i32 and u32, every value an integer of magnitude ≤ 1024
	// so every result is exact (compute_f16.go; doc.go "f16 code"). Such
	// a module needs an adapter with WebGPU's "shader-f16" feature.
	F16 int
	// AtomicStores is the percentage of compute entry points with a
	// workgroup array<atomic<A>, L> whose own slot each invocation
	// atomicStores and atomicExchanges in a phase's write part and whose neighbouring slot it atomicLoads in
	// the read part (compute.go atomicOwnSlot): the atomic-store bug
	// class (campaign.BugClassTable).
	AtomicStores int
	// TexCompare is, in an entry point with textures, the percentage
	// with a texture_depth_2d (depth32float, texels k / 8) and a
	// sampler_comparison (nearest, any compare function) read with
	// textureSampleCompareLevel at texel centres; when set,
	// textureSampleLevel and textureSampleCompareLevel also take texel
	// offsets (compute_texture.go sampleCompare, offset): the
	// sample-compare bug class (campaign.BugClassTable).
	TexCompare int
	// Render makes every program a render pipeline's pair of entry
	// points in one module — a @vertex and a @fragment entry point with
	// attributes, varyings, a uniform, discard, derivatives and sampling
	// — with its draw (render.go, render_inputs.go; Program.Vertex,
	// Program.Draw). A render profile also sets Entry (its programs are
	// entry points, not function kernels, for the properties that select
	// profiles by it); Render decides.
	Render bool
	// Dispatch makes every program interface-style code: a closed set of
	// same-signature implementations called through a switch on a tag
	// the kernel chooses by control flow (dispatch.go), for flatten's
	// dispatch narrowing (issue 17).
	Dispatch bool
}

// StmtWeights weights statement kinds.
type StmtWeights struct {
	Decl      int // let / var declarations
	Assign    int // whole-variable assignment
	Compound  int // x op= e on integers and bools
	IncDec    int // x++ / x-- on integer scalars
	ElemWrite int // v.x = e, v[i] = e, s.f = e, a[i] = e, a[i].f.y = e
	If        int // if / else
	ElseIf    int // percentage of ifs whose else arm is another if
	Loop      int // bounded loops (see LoopWeights)
	Switch    int
	Call      int // call statements (void helpers, ignored results)
	Return    int // early returns
	Break     int // inside loops and switches
	Continue  int // inside loops
	Block     int // bare { … } blocks
}

// ExprWeights weights expression kinds.
type ExprWeights struct {
	Leaf    int // a variable, parameter, global or a part of one
	Lit     int // a literal
	Unary   int // -x, !x, ~x
	Binary  int // arithmetic, bitwise, shifts, comparisons, logic
	Select  int // select(f, t, c)
	Call    int // calls of helpers returning a value
	Builtin int // exact builtins
	// Pack weights, among the builtins of a u32 value, a data packing
	// builtin of its own unpack (pack4x8unorm(unpack4x8unorm(x)) & co:
	// expr.go packRoundTrip), exact on every conforming stack.
	Pack      int
	Convert   int // value conversions and bitcasts
	Construct int // vector, struct and array constructors
	Access    int // swizzles, members and elements of computed values
	// SCCall is the percentage of && / || whose right operand calls a
	// helper (lowered to if by ir.Normalize).
	SCCall int
}

// TypeWeights weights the types of variables, parameters, results and
// subexpressions.
type TypeWeights struct {
	Bool, I32, U32, F32 int
	Vec                 int // vec2–4 of a scalar
	Struct              int // a declared struct
	Array               int // array<T, 1..4>
}

// LoopWeights weights loop forms. The counted forms pass ir.BoundLoop
// (flatten unrolls them); Data loops do not: their trip count is a
// run-time value, bounded by construction (at most MaxTrips + 1 body
// entries), so flatten keeps them as loops of the twin (flatten's doc,
// "Loops in twins").
type LoopWeights struct {
	For      int // for (var i = A; i < L; i += S), any constant step, up or down
	ForMin   int // for (var i = 0; i < min(n, C); i++) with a run-time n
	WhileTop int // loop { if (i >= L) { break; } i += S; … }
	WhileEnd int // loop { if (i >= L) { break; } …; i += S; } (no continue)
	BreakIf  int // loop { … continuing { i += S; break if i >= L; } }
	// Data: a while over a run-time count w (dataLoop): counting down
	// from clamp(e, 0, T), halving from e & (2^T - 1), or a do-while
	// whose exit is at its end (a break-if, or a last if-break).
	Data int
}

var baseProfile = Profile{
	Stmt: StmtWeights{Decl: 14, Assign: 10, Compound: 6, IncDec: 3, ElemWrite: 6, If: 10, ElseIf: 30,
		Loop: 5, Switch: 3, Call: 4, Return: 3, Break: 3, Continue: 2, Block: 1},
	Expr: ExprWeights{Leaf: 30, Lit: 8, Unary: 5, Binary: 25, Select: 5, Call: 5, Builtin: 8,
		Convert: 5, Construct: 5, Access: 4, SCCall: 25},
	Type:    TypeWeights{Bool: 12, I32: 30, U32: 15, F32: 15, Vec: 14, Struct: 5, Array: 5},
	Loop:    LoopWeights{For: 4, ForMin: 2, WhileTop: 2, WhileEnd: 1, BreakIf: 2},
	Nesting: 4, Helpers: 4, CallDepth: 4, MaxParams: 3, Globals: 2, Structs: 1, MaxTrips: 5,
	VoidKernel: 15, VoidHelper: 25, ExprDepth: 3, OutsideSubset: 0.03,
}

// computeEdit makes a profile the compute profile.
func computeEdit(p *Profile) {
	p.Entry = true
	p.Loop.Data = 6
	p.UniformLoops = 40
	p.Matrices = 50
	p.OutsideSubset = 0
	p.Helpers, p.CallDepth = 2, 2
	p.Stmt.Loop = 3
	p.MaxTrips = 4
	p.Type.Struct, p.Type.Array = 3, 3
}

// renderEdit makes a profile the render profile: both stages' bodies
// are generated by the kernels' statement generator (smaller budgets:
// two functions share the program's size).
func renderEdit(p *Profile) {
	p.Render = true
	p.Entry = true
	p.OutsideSubset = 0
	p.Helpers, p.CallDepth = 2, 2
	p.Stmt.Loop = 3
	p.Stmt.Return = 0
	p.MaxTrips = 4
	p.Type.Struct, p.Type.Array = 3, 3
}

func derive(name, doc string, edit func(p *Profile)) Profile {
	p := baseProfile
	p.Name, p.Doc = name, doc
	edit(&p)
	return p
}

var profiles = []Profile{
	derive("default", "a balanced mix of every construct", func(*Profile) {}),
	derive("control", "deep if/else-if chains, switches and early returns at every depth", func(p *Profile) {
		p.Stmt.If, p.Stmt.ElseIf, p.Stmt.Switch, p.Stmt.Return = 20, 50, 7, 8
		p.Stmt.Loop = 3
		p.Nesting = 6
		p.Type.Bool = 20
	}),
	derive("loops", "nested bounded loops of every form, data-dependent while loops, break/continue in ifs and switches", func(p *Profile) {
		p.Stmt.Loop, p.Stmt.Break, p.Stmt.Continue, p.Stmt.Switch = 16, 6, 6, 4
		p.Loop.Data = 4
		p.Stmt.IncDec, p.Stmt.Compound = 5, 8
		p.Nesting = 5
		p.MaxTrips = 8
	}),
	derive("calls", "many helpers in a deep call DAG, calls in conditions, && / || and select arms", func(p *Profile) {
		p.Helpers, p.CallDepth = 7, 5
		p.Stmt.Call = 10
		p.Expr.Call, p.Expr.SCCall = 16, 60
		p.VoidHelper = 35
		p.Globals = 3
	}),
	derive("data", "vectors, structs (of vectors), arrays (of structs) and element writes", func(p *Profile) {
		p.Type = TypeWeights{Bool: 6, I32: 14, U32: 8, F32: 10, Vec: 26, Struct: 18, Array: 18}
		p.Stmt.ElemWrite = 16
		p.Expr.Construct, p.Expr.Access = 10, 10
		p.Expr.Pack = 3
		p.Structs = 3
		p.Globals = 3
	}),
	derive("refusal", "half of the programs leave flatten's subset (unbounded loops, recursion)", func(p *Profile) {
		p.OutsideSubset = 0.5
		p.Stmt.Loop = 7
	}),
	derive("compute", "race-free @compute entry points: bindings, workgroup memory, barriers, atomics (read-modify-writes, stores and exchanges), matrices, multi-workgroup dispatches, data-dependent loops, loops over buffer lengths and uniform rounds of barrier phases", func(p *Profile) {
		computeEdit(p)
		p.AtomicStores = 30
	}),
	derive("dispatch", "interface-style dispatch: a switch on a tag over same-signature implementations, the tag chosen by control flow, helpers, struct fields, loops or an input", func(p *Profile) {
		p.Dispatch = true
		p.OutsideSubset = 0
		p.Helpers, p.CallDepth = 2, 2
		p.VoidHelper = 0
		p.Stmt.Loop = 3
		p.MaxTrips = 3
	}),
	derive("render", "vertex + fragment pairs drawn as written: attributes (per vertex and per instance), vertex_index and instance_index, a position inside the clip volume by construction, varyings of every interpolation (perspective, linear, flat first and either), a uniform, discard, derivatives in uniform control flow, textureSample of a varying, @location outputs, on triangle lists and strips with culling", renderEdit),
	derive("subgroups", "the compute profile's entry points with subgroup operations: subgroupAdd/Mul/Min/Max/And/Or/Xor, inclusive and exclusive scans, All/Any, Ballot, Elect, Broadcast, BroadcastFirst and shuffles on i32/u32/f32, subgroup_invocation_id and subgroup_size, in uniform control flow, both arms of divergent if/else, switch cases, diverging loops and after early exits; workgroups that are and are not multiples of the subgroup size", func(p *Profile) {
		computeEdit(p)
		p.Subgroups = 100
		p.Matrices = 15
	}),
	derive("f16", "the compute profile's entry points computing in f16 as well: storage array<f16>/array<vecN<f16>> bindings, a uniform of f16 and vec3<f16> members beside f32, a workgroup tile of f16 values, f16 + - * and builtins, dot, select, conversions to and from f32/i32/u32, every value an exact integer of magnitude <= 1024", func(p *Profile) {
		computeEdit(p)
		p.F16 = 100
		p.Matrices = 20
	}),
	derive("textures", "the compute profile's entry points with textures: sampled texture_2d/2d_array<f32|u32|i32> read with textureLoad, textureSampleLevel (nearest) and textureDimensions, a depth texture read with textureSampleCompareLevel, texel offsets, storage textures of several formats written with textureStore, one texel per invocation", func(p *Profile) {
		computeEdit(p)
		p.Textures = 100
		p.Matrices = 20
		p.TexCompare = 40
	}),
}

// Profiles returns the named profiles, "default" first:
//
//   - default: a balanced mix of every construct;
//   - control: deep if/else-if chains, switches and early returns at
//     every depth;
//   - loops: nested bounded loops of every form, with break and continue
//     inside ifs and switches;
//   - calls: many helpers in a deep call DAG, calls in if conditions, in
//     && / || right operands and in select arms;
//   - data: vectors, structs (of vectors), arrays (of structs) and
//     component/field/element writes;
//   - refusal: half of the programs deliberately outside flatten's subset
//     (unbounded loops, recursion), to exercise its refusal path;
//   - compute: @compute entry points with storage and uniform bindings,
//     var<workgroup> tiles, barriers, atomics, matCxR<f32> matrices (in
//     half of them) and dispatches of several workgroups, race-free by
//     construction (compute.go, compute_matrix.go; doc.go "Compute entry
//     points"); Program.Workgroups is the dispatch.
//   - subgroups: the compute profile's entry points with subgroup
//     operations (reductions, scans, ballots, elections, broadcasts and
//     shuffles on i32, u32 and f32) and the subgroup builtin values, in
//     uniform control flow and in the shapes of the field bugs —
//     both arms of divergent if/else, switch cases, loops whose
//     iterations diverge, after an early exit — every result stored to
//     a result binding (compute_subgroup.go; doc.go "Subgroup
//     operations"); the module enables subgroups.
//   - f16: the compute profile's entry points computing in f16 as well
//     (f16 and vecN<f16> storage bindings, a uniform struct of f16
//     members, a workgroup tile, an f16 accumulator, f16 arithmetic,
//     builtins and conversions to and from f32, i32 and u32, exact by
//     construction: compute_f16.go; doc.go "f16 code"); the module
//     enables f16.
//   - textures: the compute profile's entry points with texture and
//     sampler bindings (sampled textures read exactly, storage textures
//     each invocation writes its own texel of; compute_texture.go);
//     Program.Textures and Program.Samplers are their contents.
//   - render: a @vertex and a @fragment entry point in one module with
//     their draw (render.go: the discipline that keeps them valid and
//     their draws drawing): Program.Vertex
//     and Program.Kernel name them, Program.Draw is the draw.
//   - dispatch: interface-style programs, a closed set of implementations
//     behind a switch on a tag chosen by control flow, a helper, a
//     struct field, a loop-carried value or an input (dispatch.go).
//
// The returned profiles are copies; editing them changes nothing global.
func Profiles() []Profile { return append([]Profile(nil), profiles...) }

// LookupProfile returns the profile named name, or an error listing the
// known names.
func LookupProfile(name string) (Profile, error) {
	var names []string
	for _, p := range profiles {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Profile{}, fmt.Errorf("gen: unknown profile %q (known: %s)", name, strings.Join(names, ", "))
}
