package flatten

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// DefaultMaxUnroll is the default Options.MaxUnroll.
const DefaultMaxUnroll = 4096

// DefaultMaxUnrollNodes is the default Options.MaxUnrollNodes.
const DefaultMaxUnrollNodes = 1 << 16

// Options configures Function and Module. The zero value is the default.
type Options struct {
	// Whitelist holds the simple names of the builtins that are kept as
	// leaves (evaluated under every predicate, so they must be pure and
	// total). A builtin call outside it is refused. nil means
	// DefaultWhitelist(); an empty non-nil slice allows no builtin.
	// Uniformity-dependent builtins (derivatives, barriers) are refused
	// in non-uniform control flow whatever the whitelist says, and kept
	// elsewhere only when it has them (an entry point's barriers and a
	// fragment's derivatives aside); subgroup operations are guarded with
	// the path's mask whatever it says (doc.go "Subgroups").
	Whitelist []string
	// MaxUnroll caps the unroll count: the total number of loop-body
	// copies unrolling creates, 0 meaning DefaultMaxUnroll. A loop makes
	// as many copies as its bound, ir.LoopBound.MaxEntries (the times
	// control can enter its body: 11 for `for (var i = 0; i < 10; i++)`,
	// ten iterations and the entry whose exit test breaks), in every copy
	// of every loop around it and at every call site of its function; so
	// a loop of bound 11 inside a loop of bound 11 counts 11 + 11 × 11 =
	// 132. A function above the cap is refused with the count.
	MaxUnroll int
	// MaxUnrollNodes caps, with Loops auto, how many IR nodes (ir.Inspect's)
	// unrolling adds to the twin over keeping every loop a loop, 0 meaning
	// DefaultMaxUnrollNodes: each loop's copies beyond one, of its body,
	// continuing block and break-if, nested loops' copies and the bodies
	// of the functions they call (inlined) included. A driver compiles
	// straight-line code in time and memory that grow with its size, and
	// MaxUnroll alone does not bound it (a 1,500-copy loop of a boids
	// kernel unrolled into 1.3 MB of WGSL that llvmpipe did not compile in
	// 30 s and SwiftShader crashed on). Past the cap, loops are kept as
	// loops of the twin, the one that adds the most first, until what is
	// added fits. Loops unroll and mask ignore it.
	MaxUnrollNodes int
	// Strict additionally fails when the finished twin still holds a
	// residual the folds should have removed: a constant-condition select,
	// an unfolded identity, an all-constant foldable call or operation, or
	// !const (daslang-flatten §8.6 strict_fold). The error is a
	// Kind Residual *Error listing each one.
	Strict bool
	// VerifyPasses runs ir.VerifyFunc on the twin after every pass of the
	// pipeline (passes.go) that changed it, for debugging (`gpudiff flatten
	// --verify-passes`); in a test binary (testing.Testing) it is always
	// on. A failure is a Kind Internal *Error naming the pass. The
	// finished twin is always verified once, whatever this says.
	VerifyPasses bool
	// AfterPass, when set, is called with the pass's name (PassNames) and
	// the twin after every pass that changed it (the cleanup passes once
	// per round that changed something), for `gpudiff flatten
	// --dump-after PASS`. It must not modify the twin.
	AfterPass func(pass string, twin *ir.Func)
	// Loops chooses what becomes of a loop (doc.go "Loops in twins"):
	//
	//	auto    (or "") unroll the loops whose bound ir.BoundLoop (or, in
	//	        an entry point, evaluation) proves, within MaxUnroll; keep
	//	        every other loop as a loop of the twin, mask-predicated
	//	unroll  unroll every loop; a loop without a proven bound, or a
	//	        function past MaxUnroll, is refused
	//	mask    keep every loop as a loop of the twin
	Loops string
	// OnLoop, when set, is called once per loop of the source lowered
	// into the twin (every copy of an inlined function's loop counts),
	// with its position and what became of it: "unrolled", "uniform"
	// (kept; its mask is uniform across a workgroup) or "masked" (kept;
	// its mask is per invocation) (`gpudiff flatten --stats`).
	OnLoop func(pos ir.Pos, kind string)
	// Fault breaks one flatten rule on purpose, to test the tools that
	// must catch flatten bugs (the campaign, the shrinker, repro); "" in
	// every real use. Faults:
	//
	//	retest-else  the else arm re-evaluates the if's condition after
	//	             the then arm ran, instead of using the value hoisted
	//	             before it (daslang-flatten §8.2's first rule): a then
	//	             arm that writes a variable the condition reads now
	//	             changes which arm's writes survive.
	//	masked-break-late
	//	             a break inside a kept loop clears the loop's mask only
	//	             at the end of the iteration: the rest of the body and
	//	             the continuing block still run after it.
	//	masked-exit-first
	//	             a kept loop tests its exit after the body (its
	//	             break-if, or the body's last `if (c) { break; }`
	//	             that is not its first statement) before the body, on
	//	             the values the previous iteration left: a do-while
	//	             lowered as a while.
	//	demote-callee-dropped
	//	             a discard in a function the twin inlines does not
	//	             set the demote mask (demote.go): the twin's pixel is
	//	             written where the source's helper discarded it.
	//	subgroup-guard-dropped
	//	             a subgroup reduction or scan under a predicate c
	//	             keeps its operand unguarded (subgroup.go): the naive
	//	             select(old, subgroupAdd(v), c) sums every invocation
	//	             of the subgroup, not the ones the source runs it in.
	//
	// The CLI sets it from the environment variable FaultEnv.
	Fault string
	// OnTagSwitch, when set, is called once for every closed-set tag switch
	// (ir.TagSwitch) in the call graph of a function being lowered, with
	// its candidates and those the tag-set analysis leaves
	// (`gpudiff flatten --stats`). A function already flat has none.
	OnTagSwitch func(TagSwitchStat)
}

// DefaultWhitelist returns the names of the pure builtins of the WGSL
// subset (ir.Builtins entries whose Pure reports true): the math, bit and
// logic builtins. Derivatives, barriers and subgroup operations are not in
// it.
func DefaultWhitelist() []string {
	var out []string
	for b := ir.Builtin(1); int(b) < len(ir.Builtins); b++ {
		if info := b.Info(); info.Name != "" && info.Pure() {
			out = append(out, info.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Kind classifies a flatten failure.
type Kind uint8

const (
	// Refused: the function uses a construct outside the flattenable
	// subset (recursion, an unbounded loop, too many copies, a builtin
	// outside the whitelist, a uniformity-dependent operation in
	// non-uniform control flow, a call of a function outside the IR
	// subset, a type that cannot be selected). The oracle's verdict is
	// "flatten-rejected"; the CLI exits 2.
	Refused Kind = iota + 1
	// Residual: Options.Strict found residuals in the finished twin.
	Residual
	// Internal: flatten produced an invalid twin or failed an invariant —
	// a bug in flatten, never the input's fault.
	Internal
)

func (k Kind) String() string {
	switch k {
	case Refused:
		return "refused"
	case Residual:
		return "residual"
	case Internal:
		return "internal"
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Error is every error Function and Module return: a kind and the
// positioned diagnostics (pass "flatten"), sorted by position, each
// printing as "file:line:col: flatten: message".
type Error struct {
	Kind Kind
	List ir.ErrorList
}

func (e *Error) Error() string { return e.List.Error() }

// Unwrap returns the diagnostics as an ir.ErrorList.
func (e *Error) Unwrap() error { return e.List }

// IsRefusal reports whether err is (or wraps) a Kind Refused *Error: the
// input is outside the subset, as opposed to a flatten bug or a strict-
// mode residual.
func IsRefusal(err error) bool {
	var fe *Error
	return errors.As(err, &fe) && fe.Kind == Refused
}

// TwinName returns the name Function gives the twin of name in m:
// name_flat, or, when that is taken, the first free name_flat_1,
// name_flat_2, … (ir.Namer).
func TwinName(m *ir.Module, name string) string {
	return newNamer(m).Fresh(name + "_flat")
}

// newNamer is ir.NewNamer over every function of m, with the names of
// m's shared variables (var<workgroup>, var<storage>, var<uniform>)
// reserved too: a twin or a temporary never shadows one.
func newNamer(m *ir.Module) *ir.Namer {
	n := ir.NewNamer(m, m.Funcs...)
	for _, v := range m.Shared {
		n.Reserve(v.Name)
	}
	return n
}

// Function adds to m the flattened twin of the function called name and
// returns it. The twin, named TwinName(m, name), has name's parameters and
// result type and computes the same value and the same writes to private
// globals in every invocation, with a body of declarations, assignments
// and a single final return only (see the package documentation for the
// exact shape and the legality rules). The original function and the rest
// of m are left untouched.
//
// A function that is already branchless and call-free is returned as a
// clone under the twin name: flattening is the identity on the flattened
// form, so a twin flattens to itself.
//
// Errors are *Error values: Kind Refused for inputs outside the subset,
// Kind Residual for strict-mode residuals, Kind Internal for flatten bugs.
// On any error m is not changed.
func Function(m *ir.Module, name string, opts Options) (twin *ir.Func, err error) {
	f := m.Func(name)
	if f == nil {
		if o := m.OpaqueDecl(name); o != nil && o.Kind == "fn" {
			pos := o.ReasonPos
			if !pos.IsValid() {
				pos = o.Pos
			}
			return nil, &Error{Kind: Refused, List: ir.ErrorList{ir.Errorf(m.File, pos, "flatten", "function %s is outside the IR subset: %s", name, o.Reason)}}
		}
		return nil, &Error{Kind: Refused, List: ir.ErrorList{ir.Errorf(m.File, ir.Pos{}, "flatten", "no function %q in the module", name)}}
	}
	if p := pointerParam(f); p != nil {
		return nil, &Error{Kind: Refused, List: ir.ErrorList{ir.Errorf(m.File, p.PtrPos, "flatten",
			"function %s takes pointer parameter %s: a twin is a kernel, whose arguments are values (ARCHITECTURE.md \"Kernel ABI\"); its callers' twins inline it", name, p.Name)}}
	}
	spec, reserved := directAccess(m)
	twin, err = flattenFunc(spec, spec.Func(name), TwinName(m, name), opts, reserved...)
	if err != nil {
		return nil, err
	}
	m.Funcs = append(m.Funcs, twin)
	return twin, nil
}

// Module adds the twin of every kernel of m (ir.Module.Kernels, as they
// are on entry) and of every compute entry point (ir.Module.EntryPoints)
// to m, appended to m.Funcs in declaration order, each named as Function
// names it. It is atomic: when any kernel fails, no twin is added
// and the error lists every kernel's diagnostics (Kind is Internal if any
// failure is internal, else Residual if any is, else Refused).
func Module(m *ir.Module, opts Options) error {
	var twins []*ir.Func
	var all ir.ErrorList
	kind := Kind(0)
	names := newNamer(m)
	spec, reserved := directAccess(m)
	for _, n := range reserved {
		names.Reserve(n)
	}
	kernels := moduleKernels(m)
	twinNames := make([]string, len(kernels))
	for i, k := range kernels {
		twinNames[i] = names.Fresh(k + "_flat")
	}
	reserved = append(reserved, twinNames...)
	for i, k := range kernels {
		twin, err := flattenFunc(spec, spec.Func(k), twinNames[i], opts, reserved...)
		if err != nil {
			fe := err.(*Error)
			all = append(all, fe.List...)
			kind = max(kind, fe.Kind)
			continue
		}
		twins = append(twins, twin)
	}
	if len(all) > 0 {
		all.Sort()
		return &Error{Kind: kind, List: all}
	}
	m.Funcs = append(m.Funcs, twins...)
	return nil
}

// directAccess returns the module twins are built from: m with its
// pointer parameters into workgroup, storage and uniform memory rewritten
// to direct accesses (ir.DirectVariableAccess; copying such a pointee in
// and out, as function and private pointers are, would read and write
// memory other invocations use), and the names of m's functions that the
// rewrite dropped or added, which a twin's locals must not take.
func directAccess(m *ir.Module) (*ir.Module, []string) {
	spec := ir.DirectVariableAccess(m)
	if spec == m {
		return m, nil
	}
	var names []string
	for _, f := range m.Funcs {
		names = append(names, f.Name)
	}
	for _, f := range spec.Funcs {
		names = append(names, f.Name)
	}
	return spec, names
}

// pointerParam returns f's first pointer parameter, or nil. A function
// that takes one is never a kernel (Module skips it: it is flattened
// where its callers inline it).
func pointerParam(f *ir.Func) *ir.Param {
	for _, p := range f.Params {
		if p.Ptr != 0 {
			return p
		}
	}
	return nil
}

// moduleKernels returns the kernels and the entry points of m, in
// declaration order.
func moduleKernels(m *ir.Module) []string {
	want := map[string]bool{}
	for _, k := range m.Kernels() {
		want[k] = true
	}
	for _, f := range m.EntryPoints() {
		want[f.Name] = true
	}
	var out []string
	for _, f := range m.Funcs {
		if want[f.Name] && pointerParam(f) == nil {
			out = append(out, f.Name)
		}
	}
	return out
}

// flattenFunc builds the twin of f without adding it to m. The
// reserved names (other twins being built) are kept out of its locals.
func flattenFunc(m *ir.Module, f *ir.Func, twinName string, opts Options, reserved ...string) (twin *ir.Func, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalf(m, f.Pos, "panic flattening %s: %v\n%s", f.Name, r, firstLines(string(debug.Stack()), 12))
			twin = nil
		}
	}()
	switch opts.Loops {
	case "", "auto", "unroll", "mask":
	default:
		return nil, internalf(m, f.Pos, "Options.Loops %q is not auto, unroll or mask", opts.Loops)
	}
	return runPipeline(&pipe{m: m, f: f, opts: opts.withDefaults(), twinName: twinName, reserved: reserved, entry: f.Stage == ir.StageCompute})
}

func (o Options) withDefaults() Options {
	if o.Whitelist == nil {
		o.Whitelist = DefaultWhitelist()
	}
	if o.MaxUnroll <= 0 {
		o.MaxUnroll = DefaultMaxUnroll
	}
	if o.MaxUnrollNodes <= 0 {
		o.MaxUnrollNodes = DefaultMaxUnrollNodes
	}
	if o.Loops == "" {
		o.Loops = "auto"
	}
	return o
}

// finalCheck verifies the twin and its shape; a failure is internal.
func finalCheck(m *ir.Module, twin *ir.Func, after string) error {
	if err := ir.VerifyFunc(m, twin); err != nil {
		return internalf(m, twin.Pos, "after %s: twin %s does not verify:\n%v", after, twin.Name, err)
	}
	if msg := shapeViolation(twin, true); msg != "" {
		return internalf(m, twin.Pos, "after %s: twin %s is not flat: %s", after, twin.Name, msg)
	}
	return nil
}

func internalf(m *ir.Module, pos ir.Pos, format string, args ...any) *Error {
	return &Error{Kind: Internal, List: ir.ErrorList{ir.Errorf(m.File, pos, "flatten", "internal error: "+format, args...)}}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
