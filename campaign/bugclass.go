package campaign

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// Bug classes (issue 41; findings/CLASSES.md is this table, generated): the
// kinds of shader-compiler and driver bug the field has met, each named by
// a stable short id, with the public sources that show it and the
// generator features (fuzz/gen profiles and constructs) that reach it.
// BugClasses says which of them a program exercises; every campaign report
// counts, per class, the programs that exercised it and the bugs that fell
// in it (a bug falls in the classes of its shrunk program).
//
// The sources, counted in public code:
//
//   - GraphicsFuzz's 178 bug tests in the Vulkan CTS
//     (external/vulkancts/data/vulkan/amber/graphicsfuzz): 42% have loops
//     in their names, 66% control flow, 15 switch, 5 barriers;
//   - Dawn's toggles (src/dawn/native/Toggles.cpp), each a driver bug
//     Dawn works around, and its Vulkan backend's notes
//     (PhysicalDeviceVk.cpp: "OpArrayLength returns 0 for buffers >= 2GB
//     for some NVIDIA devices"; shader-f16 only behind
//     vulkan_enable_f16_on_nvidia);
//   - WGSLsmith (Moustafa et al., PLDI'23), 33 WGSL-compiler bugs from
//     random programs; MC Mutants (Levine et al., ASPLOS'23), compilers
//     reordering memory accesses across barriers;
//   - gpudiff's own findings (findings/).

// BugClass is one class of the table.
type BugClass struct {
	// ID is the class's stable short name ("loop", "int-div"): what
	// reports, journals (ProgramRecord.BugClasses) and findings/CLASSES.md
	// say.
	ID string
	// Doc is a one-line description: what in a program puts it in the
	// class (BugClasses decides exactly that).
	Doc string
	// Sources are where the field met bugs of the class.
	Sources []string
	// Reach names the generator features that produce programs of the
	// class ("" when none does yet).
	Reach string
	// Profiles are the fuzz/gen profiles whose programs exercise the class
	// (TestBugClassProfiles generates each profile's first programs and
	// checks this list against BugClasses).
	Profiles []string
	// Needs says what a stack must offer to run a program of the class
	// ("" when every stack runs it), for reports of campaigns whose
	// adapters cannot.
	Needs string
}

// allProfiles are the function-kernel profiles, which share the
// statement and expression generator (stmt.go, expr.go).
var kernelProfiles = []string{"default", "control", "loops", "calls", "data", "refusal", "dispatch"}

// entryProfiles are the compute profiles (compute.go and its extensions).
var entryProfiles = []string{"compute", "subgroups", "f16", "textures"}

func profilesOf(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// bugClasses is the table, in report order: control flow first, then
// values, memory, textures and extensions.
var bugClasses = []BugClass{
	{ID: "loop", Doc: "a loop (for, while, loop with continuing and break-if)",
		Sources: []string{"GraphicsFuzz CTS tests: 42% have loops in their names", "findings/lavapipe_loop_exit_wrap.wgsl", "findings/loop_local_var_not_rezeroed.wgsl"},
		Reach:   "every profile's loop statements (Stmt.Loop, LoopWeights; loops profile: nested loops, data-dependent whiles); compute: loops over arrayLength and uniform rounds of barrier phases (UniformLoops)",
		// render's statement generator draws loops too.
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "switch", Doc: "a switch statement",
		Sources: []string{"GraphicsFuzz CTS tests: 15 with switch", "Dawn toggle vulkan_polyfill_switch_with_if", "findings/lavapipe_switch_in_loop.wgsl", "findings/compute/mesa_glsl_continue_nested_switch.wgsl"},
		Reach:   "Stmt.Switch in every kernel profile (control, loops weight it up); dispatch: the switch on an implementation tag",
		// Compute programs' per-invocation statements draw switches as well.
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "early-exit", Doc: "a break, continue, discard, or a return before the end of its function",
		Sources:  []string{"GraphicsFuzz CTS tests: 66% control flow (return, break, continue, discard masks)", "WGSLsmith (PLDI'23): control-flow miscompilations"},
		Reach:    "Stmt.Return, Stmt.Break, Stmt.Continue (control, loops); render: discard in the fragment stage",
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "zero-init", Doc: "a zero-initialized var or var<private> of a vector, matrix, array or struct type (no initializer), a zero-value constructor T(), or a vector splat vecN(x)",
		Sources:  []string{"findings/swiftshader_zero_init_bool_vector_not.wgsl", "findings/swiftshader_zero_init_i32_vector_compare.wgsl", "findings/compute/swiftshader_tint_bool_splat_equal.wgsl", "Tint's zero-initialization of locals and workgroup memory (Dawn toggle use_vulkan_zero_initialize_workgroup_memory_extension)"},
		Reach:    "Stmt.Decl of a composite var without an initializer, Profile.Globals; Expr.Construct (splats and T())",
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "bool-vec", Doc: "a vector of bool, as a value or a variable (a dynamic component store into one included)",
		Sources:  []string{"Dawn toggle metal_polyfill_bool_vec_dynamic_store", "findings/swiftshader_zero_init_bool_vector_not.wgsl", "findings/compute/swiftshader_select_loop_carried_bool.wgsl"},
		Reach:    "TypeWeights Bool × Vec (data weights vectors up); ElemWrite v[i] = e on a bool vector",
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "int-div", Doc: "an integer division or remainder (/, %, /=, %=) on i32 or u32",
		Sources:  []string{"Dawn toggle metal_fix_u32_div_mod", "findings/compute/naga_glsl_signed_div_rem.wgsl", "WGSL's defined x/0 and INT_MIN/-1 (Tint and naga polyfill them)"},
		Reach:    "Expr.Binary and Stmt.Compound with / and % on integers (the generator guards divisors as WGSL defines them)",
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "uint-eq", Doc: "an equality comparison (==, !=) of u32 values",
		Sources:  []string{"Dawn toggle vulkan_rewrite_unsigned_compare_zero (u32 == 0 miscompiled by a peephole)"},
		Reach:    "Expr.Binary comparisons of u32 operands (TypeWeights U32)",
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "float-neg", Doc: "a negation of a float value (-x on f32, f16 or a vector of them)",
		Sources:  []string{"Dawn toggle spirv_polyfill_float_negation (and spirv_polyfill_float_abs)"},
		Reach:    "Expr.Unary - on f32 operands (TypeWeights F32); f16: f16 arithmetic",
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "atomic", Doc: "an atomic read-modify-write or load (atomicAdd … atomicXor, atomicLoad)",
		Sources:  []string{"WGSLsmith (PLDI'23)", "findings/compute/naga_glsl_compare_exchange_result.wgsl"},
		Reach:    "compute profiles: atomic counters in workgroup and storage memory (compute.go)",
		Profiles: entryProfiles},
	{ID: "atomic-store", Doc: "an atomicStore, atomicExchange or atomicCompareExchangeWeak",
		Sources:  []string{"Dawn toggle vulkan_replace_workgroup_atomic_store_with_exchange", "findings/compute/naga_glsl_compare_exchange_result.wgsl"},
		Reach:    "compute profile (Profile.AtomicStores): each invocation atomicStores and atomicExchanges its own slot of a workgroup array<atomic<A>, L>, neighbours atomicLoad it after a barrier (compute.go atomicOwnSlot); no atomicCompareExchangeWeak yet (flatten cannot guard one under a predicate)",
		Profiles: []string{"compute"}},
	{ID: "barrier", Doc: "a workgroupBarrier, storageBarrier, textureBarrier or workgroupUniformLoad",
		Sources:  []string{"GraphicsFuzz CTS tests: 5 barriers", "MC Mutants (ASPLOS'23): compilers reorder accesses across barriers", "findings/compute/mesa_glsl_shared_load_after_barrier.wgsl", "findings/compute/naga_spv_in_load_after_barrier.wgsl"},
		Reach:    "compute profiles: exchange phases through var<workgroup> tiles separated by barriers, uniform rounds of them, workgroupUniformLoad",
		Profiles: entryProfiles},
	{ID: "array-length", Doc: "an arrayLength of a runtime-sized storage array",
		Sources:  []string{"Dawn's Vulkan backend: OpArrayLength returns 0 for buffers >= 2 GB on some NVIDIA devices", "Dawn toggle gl_use_array_length_from_uniform"},
		Reach:    "compute profiles: loops over arrayLength(&inp) (UniformLoops)",
		Profiles: entryProfiles},
	{ID: "texture", Doc: "a texture builtin: textureLoad, textureStore, textureDimensions & co, or a sampling or gather",
		Sources:  []string{"findings/compute/wgpu_gl_one_layer_array.wgsl", "findings/compute/naga_spv_in_num_layers.wgsl", "findings/compute/naga_textureload_u32_level.wgsl"},
		Reach:    "textures profile: textureLoad, textureSampleLevel (nearest), textureDimensions, textureStore; render: textureSample of a varying",
		Profiles: []string{"textures", "render"}},
	{ID: "sample-compare", Doc: "a depth-comparison sampling or gather (textureSampleCompare*, textureGatherCompare), or a texel offset",
		Sources:  []string{"Dawn toggles vulkan_sample_compare_2d_workaround, vulkan_sample_compare_depth_cube_array_workaround", "findings/fragment/swiftshader_linear_offset_mip.wgsl (an offset)"},
		Reach:    "textures profile (Profile.TexCompare): a texture_depth_2d (depth32float, texels k/8) and a sampler_comparison read with textureSampleCompareLevel at texel centres, depth_ref never a texel's value; texel offsets on it and on textureSampleLevel (compute_texture.go sampleCompare, offset)",
		Profiles: []string{"textures"},
		Needs:    "a depth texture's contents: every stack here but wgpu-gl (no copy writes a depth texture there and gpudiff's render-pass upload reads back as zeros: such runs are not judged, harness NeedDepthContents)"},
	{ID: "f16", Doc: "an f16 value anywhere in the entry point's call graph or bindings (enable f16)",
		Sources:  []string{"Dawn toggle metal_polyfill_tanh_f16", "Dawn: shader-f16 only behind vulkan_enable_f16_on_nvidia", "findings/compute/naga29_wgsl_f16_vector_bitcast.wgsl", "findings/compute/naga29_spv_f16_struct_array_argument.wgsl"},
		Reach:    "f16 profile: f16 bindings, a uniform of f16 members, a workgroup tile of f16, f16 arithmetic, builtins and conversions",
		Profiles: []string{"f16"},
		Needs:    "shader-f16: Dawn on Mesa 25 lavapipe and Deno here; not wgpu-native, SwiftShader or the GL backends"},
	{ID: "subgroup", Doc: "a subgroup or quad builtin, or subgroup_invocation_id / subgroup_size",
		Sources:  []string{"Dawn toggles collapse_subgroup_min_max, enable_subgroups_intel_gen9, d3d12_relax_min_subgroup_size_to_8", "wgpu's subgroup_operations tests"},
		Reach:    "subgroups profile: reductions, scans, ballots, broadcasts and shuffles in uniform and divergent control flow",
		Profiles: []string{"subgroups"},
		Needs:    "the subgroups feature: Dawn's Vulkan adapters here (lavapipe on Mesa 25 and its size variants, SwiftShader); not wgpu-native, Deno or GL"},
	{ID: "bits", Doc: "a bit builtin: countOneBits, reverseBits, firstLeadingBit, firstTrailingBit, extractBits, insertBits",
		Sources:  []string{"findings/wgpu_gl_first_leading_bit_or.wgsl", "findings/wgpu_gl_spirv_extract_bits_literal.wgsl", "WGSLsmith (PLDI'23)"},
		Reach:    "Expr.Builtin on integers (expr.go); subgroups: countOneBits of ballots",
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
	{ID: "pack", Doc: "a data packing builtin: pack4x8snorm … pack2x16float, pack4xI8 & co and their unpacks",
		Sources:  []string{"findings/compute/naga_glsl_pack4x8_precedence.wgsl", "Dawn toggle d3d12_polyfill_pack_unpack_4x8", "WGSL #pack-builtin-functions: rounding and clamping rules each stack implements"},
		Reach:    "data profile (ExprWeights.Pack): pack4x8unorm/snorm, pack2x16unorm/snorm/float, pack4xI8/pack4xU8 and their Clamp forms of their own unpack of a u32, exact on every conforming stack (expr.go packRoundTrip)",
		Profiles: []string{"data"},
		Needs:    "pack4xI8 & co in WGSL need the language extension packed_4x8_integer_dot_product: Dawn and Deno here; not wgpu-native (naga 0.19), whose WGSL runs of them are skipped"},
	{ID: "composite", Doc: "an array or struct passed to or returned from a function by value, or a pointer parameter",
		Sources:  []string{"findings/naga_spv_member_pointer_argument.wgsl", "findings/compute/naga29_spv_f16_struct_array_argument.wgsl", "WGSLsmith (PLDI'23)"},
		Reach:    "TypeWeights Struct and Array for helpers' parameters and results (data weights them up)",
		Profiles: profilesOf(kernelProfiles, entryProfiles, []string{"render"})},
}

// BugClassTable returns the table (a copy), in report order.
func BugClassTable() []BugClass { return slices.Clone(bugClasses) }

// LookupBugClass returns the class with the given ID.
func LookupBugClass(id string) (BugClass, bool) {
	for _, c := range bugClasses {
		if c.ID == id {
			return c, true
		}
	}
	return BugClass{}, false
}

// BugClasses returns the IDs of the classes (BugClassTable, in its order;
// never nil) that the function kernel of m — a function kernel, a compute
// entry point or a fragment or vertex entry point — and every function it
// calls exercise: what in them puts them in each class is the class's Doc.
// The kernel's bindings count for f16 (ir.Module.UsesF16) and its builtin
// values for subgroup (ir.Module.UsesSubgroups). A kernel m does not hold
// has no class.
func BugClasses(m *ir.Module, kernel string) []string {
	has := map[string]bool{}
	fns := m.CallGraph(kernel)
	if len(fns) == 0 {
		return []string{}
	}
	for _, g := range m.GlobalsUsed(kernel) {
		if g.Init == nil && isComposite(g.T) {
			has["zero-init"] = true
		}
	}
	for _, f := range fns {
		if f.Name != kernel && calledComposite(f) {
			has["composite"] = true
		}
		final := map[*ir.Return]bool{}
		finalReturns(f.Body, final)
		tests := map[*ir.Break]bool{} // loops' exit tests, not early exits
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if e, ok := n.(ir.Expr); ok && isBoolVec(e.Type()) {
				has["bool-vec"] = true
			}
			switch n := n.(type) {
			case *ir.Loop:
				has["loop"] = true
				exitTests(n, tests)
			case *ir.Switch:
				has["switch"] = true
			case *ir.Break:
				if !tests[n] {
					has["early-exit"] = true
				}
			case *ir.Continue, *ir.Discard:
				has["early-exit"] = true
			case *ir.Return:
				if !final[n] {
					has["early-exit"] = true
				}
			case *ir.Decl:
				if n.Mutable && n.Init == nil && isComposite(n.T) {
					has["zero-init"] = true
				}
				if isBoolVec(n.T) {
					has["bool-vec"] = true
				}
			case *ir.Construct:
				if len(n.Args) == 0 || (n.T.Kind == ir.KindVec && len(n.Args) == 1 && n.Args[0].Type().IsScalar()) {
					has["zero-init"] = true
				}
			case *ir.Binary:
				classifyBinary(has, n.Op, n.X.Type())
			case *ir.Assign:
				classifyBinary(has, n.Op, n.LHS.Type())
			case *ir.Unary:
				if n.Op == ir.OpNeg && n.X.Type().Scalar().IsFloat() {
					has["float-neg"] = true
				}
			case *ir.Atomic:
				switch n.Op {
				case ir.AtomicStore, ir.AtomicExchange, ir.AtomicCompareExchangeWeak:
					has["atomic-store"] = true
				default:
					has["atomic"] = true
				}
			case *ir.BuiltinCall:
				switch n.Fn.Info().Class {
				case ir.ClassBarrier:
					has["barrier"] = true
				case ir.ClassBits:
					has["bits"] = true
				case ir.ClassPack:
					has["pack"] = true
				}
			case *ir.ArrayLength:
				has["array-length"] = true
			case *ir.TextureCall:
				has["texture"] = true
				switch n.Op {
				case ir.TexSampleCompare, ir.TexSampleCompareLevel, ir.TexGatherCompare:
					has["sample-compare"] = true
				}
				if n.Parts().Offset != nil {
					has["sample-compare"] = true
				}
			}
			return true
		})
	}
	if m.UsesF16(kernel) {
		has["f16"] = true
	}
	if m.UsesSubgroups(kernel) {
		has["subgroup"] = true
	}
	out := []string{}
	for _, c := range bugClasses {
		if has[c.ID] {
			out = append(out, c.ID)
		}
	}
	return out
}

// finalReturns adds to final the returns at the end of b, a function's
// body: its last statement when that is a return, and those at the end of
// both arms of an if (or of a block) that is its last statement. Any
// other return leaves its function early.
func finalReturns(b *ir.Block, final map[*ir.Return]bool) {
	if len(b.Stmts) == 0 {
		return
	}
	switch s := b.Stmts[len(b.Stmts)-1].(type) {
	case *ir.Return:
		final[s] = true
	case *ir.Block:
		finalReturns(s, final)
	case *ir.If:
		finalReturns(s.Then, final)
		finalReturns(s.Else, final)
	}
}

// exitTests adds to tests the breaks of l's exit tests: each statement
// `if c { break; }` (no else) of the run that opens its body — a for or
// while loop's condition, as the WGSL front end lowers it, and the
// generator's while-at-the-top form — and the last statement of the body
// when it is one (a do-while's exit). A break-if is no break statement.
func exitTests(l *ir.Loop, tests map[*ir.Break]bool) {
	test := func(s ir.Stmt) *ir.Break {
		if i, ok := s.(*ir.If); ok && len(i.Else.Stmts) == 0 && len(i.Then.Stmts) == 1 {
			b, _ := i.Then.Stmts[0].(*ir.Break)
			return b
		}
		return nil
	}
	stmts := l.Body.Stmts
	for k, s := range stmts {
		b := test(s)
		if b == nil {
			break
		}
		if k > 0 { // a further test of `for (…; a && b; …)` is !b
			if u, ok := s.(*ir.If).Cond.(*ir.Unary); !ok || u.Op != ir.OpNot {
				break
			}
		}
		tests[b] = true
	}
	if n := len(stmts); n > 0 {
		if b := test(stmts[n-1]); b != nil {
			tests[b] = true
		}
	}
}

// classifyBinary records the classes of a binary operation (or compound
// assignment, op ir.OpNone for a plain one) whose left operand has type t.
func classifyBinary(has map[string]bool, op ir.BinaryOp, t *ir.Type) {
	s := t.Scalar()
	switch op {
	case ir.OpDiv, ir.OpRem:
		if s.IsInteger() {
			has["int-div"] = true
		}
	case ir.OpEq, ir.OpNe:
		if s != nil && s.Kind == ir.KindU32 {
			has["uint-eq"] = true
		}
	}
}

// calledComposite reports whether f, a called function, takes or returns
// an array or struct by value or takes a pointer.
func calledComposite(f *ir.Func) bool {
	composite := func(t *ir.Type) bool {
		return t != nil && (t.Kind == ir.KindArray || t.Kind == ir.KindStruct)
	}
	if composite(f.Result) {
		return true
	}
	for _, p := range f.Params {
		if p.Ptr != 0 || composite(p.T) {
			return true
		}
	}
	return false
}

// isComposite reports whether t is a vector, matrix, array or struct: a
// zero value of one has several components to zero (scalars are left
// out: every generated program has a zero-initialized scalar global).
func isComposite(t *ir.Type) bool {
	return t != nil && (t.Kind == ir.KindVec || t.Kind == ir.KindMat || t.Kind == ir.KindArray || t.Kind == ir.KindStruct)
}

func isBoolVec(t *ir.Type) bool {
	return t != nil && t.Kind == ir.KindVec && t.Elem != nil && t.Elem.Kind == ir.KindBool
}

// unionClasses is the union of class ID lists, in table order.
func unionClasses(lists ...[]string) []string {
	has := map[string]bool{}
	for _, l := range lists {
		for _, id := range l {
			has[id] = true
		}
	}
	out := []string{}
	for _, c := range bugClasses {
		if has[c.ID] {
			out = append(out, c.ID)
		}
	}
	return out
}

// programClasses are the classes a generated program exercises: its
// kernel's, and a draw's vertex entry point's beside its fragment's.
func programClasses(p *gen.Program) []string {
	cs := BugClasses(p.Module, p.Kernel)
	if p.IsDraw() {
		cs = unionClasses(cs, BugClasses(p.Module, p.Vertex))
	}
	return cs
}

// BugClassMarkdown is findings/CLASSES.md: the table as a Markdown
// document, one row per class (id, what puts a program in it, sources,
// the generator features and profiles that reach it, what a stack must
// offer), kept equal to the table by TestBugClassMarkdown
// (go test ./campaign -run TestBugClassMarkdown -update-classes rewrites it).
func BugClassMarkdown() string {
	var b strings.Builder
	b.WriteString(`# Bug classes

Generated from campaign/bugclass.go (` + "`go test ./campaign -run TestBugClassMarkdown -update-classes`" + `); do not edit.

The kinds of shader-compiler and driver bug the field has met (GraphicsFuzz's Vulkan CTS
tests, Dawn's driver-bug toggles, WGSLsmith, MC Mutants, gpudiff's own findings), each with
the generator features that reach it. ` + "`campaign.BugClasses`" + ` says which a program exercises
(its kernel or entry point and every function it calls); every campaign report (text,
` + "`--report`" + ` JSON, ` + "`--html`" + `) counts per class the programs that exercised it and the bugs that
fell in it: a bug falls in the classes of its shrunk program. **Profiles** are the
` + "`--profile`" + ` values whose programs reach the class (checked by TestBugClassProfiles); a
class without one is a generator gap.

| class | a program is in it when it has | sources | reached by | profiles | needs |
|---|---|---|---|---|---|
`)
	cell := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace
	for _, c := range bugClasses {
		profiles := "—"
		if len(c.Profiles) > 0 {
			profiles = strings.Join(c.Profiles, ", ")
		}
		needs := c.Needs
		if needs == "" {
			needs = "any stack"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", c.ID, cell(c.Doc), cell(strings.Join(c.Sources, "; ")), cell(c.Reach), profiles, cell(needs))
	}
	return b.String()
}

// caseClasses are the classes of a failing case: its function's, and a
// draw's vertex entry point's beside its fragment's.
func caseClasses(fc failingCase) []string {
	m, fn := fc.fn()
	cs := BugClasses(m, fn)
	if f, ok := fc.(*failure); ok && f.c.Vertex != nil && f.c.VertexModule != nil {
		cs = unionClasses(cs, BugClasses(f.c.VertexModule, f.c.Vertex.Name))
	}
	return cs
}

// annotateRecord completes a record just judged with what the summary and
// reports read of it: a failure's ShrunkBugClasses (the program's own
// when it was not shrunk: known without shrinking, unconfirmed, a
// gpudiff-side error) and, for a known failure, the baseline entry that
// knows it (KnownBy, KnownAs).
func annotateRecord(cfg Config, rec ProgramRecord) ProgramRecord {
	if rec.Signature != "" && rec.ShrunkBugClasses == nil {
		rec.ShrunkBugClasses = rec.BugClasses
	}
	if rec.Known && rec.KnownBy == "" {
		rec.KnownBy, rec.KnownAs = KnownBy(cfg.Baseline, rec.Signature)
	}
	return rec
}

// ClassCount is one bug class's line of a campaign's class table: the
// programs that exercised it and the bugs (signatures, campaign.Bugs)
// that fell in it, by state.
type ClassCount struct {
	Class       string `json:"class"`
	Doc         string `json:"doc"`
	Programs    int    `json:"programs"`
	NewBugs     int    `json:"new_bugs"`
	KnownBugs   int    `json:"known_bugs"`
	FlakyBugs   int    `json:"unconfirmed_bugs"`
	NewPrograms int    `json:"new_bug_programs"` // the programs that met its new bugs
	// Why says, for a class no program exercised, why: the profile does
	// not reach it (and which do), or it does but these programs did not,
	// and what a stack needs to run it ("" when Programs > 0).
	Why string `json:"why_none,omitempty"`
}

// ClassCounts is the class table of a campaign of profile with summary
// s: one line per class of BugClassTable, in its order, zeros included.
// A bug falls in the classes of its first program's shrunk case
// (ProgramRecord.ShrunkBugClasses).
func ClassCounts(s *Summary, profile string) []ClassCount {
	bugs := Bugs(s.Failures)
	out := make([]ClassCount, 0, len(bugClasses))
	for _, c := range bugClasses {
		cc := ClassCount{Class: c.ID, Doc: c.Doc, Programs: s.ClassPrograms[c.ID]}
		for _, b := range bugs {
			if !slices.Contains(b.BugClasses, c.ID) {
				continue
			}
			switch b.State {
			case "new":
				cc.NewBugs++
				cc.NewPrograms += len(b.Programs)
			case "known":
				cc.KnownBugs++
			case "unconfirmed":
				cc.FlakyBugs++
			}
		}
		if cc.Programs == 0 {
			cc.Why = whyNone(c, profile)
		}
		out = append(out, cc)
	}
	return out
}

// whyNone says why a campaign of profile has no program of class c.
func whyNone(c BugClass, profile string) string {
	var why string
	switch {
	case len(c.Profiles) == 0:
		why = "no generator reaches it yet"
	case !slices.Contains(c.Profiles, profile):
		why = "not in profile " + profile + " (" + plural(len(c.Profiles), "profile") + " " + strings.Join(c.Profiles, ", ") + ")"
	default:
		why = "in profile " + profile + ", but none of these programs drew it"
	}
	if c.Needs != "" {
		why += "; needs " + c.Needs
	}
	return why
}
