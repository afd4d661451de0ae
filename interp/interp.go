package interp

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/gpudiff/gpudiff/ir"
)

// DefaultMaxSteps is the step limit per invocation when Options.MaxSteps
// is 0: 10,000,000 steps. Steps count statements and loop iterations: a
// block counts all its statements when it is entered (also those a break,
// continue or return then skips), a loop one step per iteration;
// expressions are not counted. At the interpreter's speed 10,000,000 steps
// take well under a second.
const DefaultMaxSteps = 10_000_000

// Options tunes a Run.
type Options struct {
	// MaxSteps bounds the steps (statements plus loop iterations, see
	// DefaultMaxSteps) of each invocation; 0 means DefaultMaxSteps. An
	// invocation that exceeds it stops with Invocation.Err set, positioned
	// at the innermost loop running.
	MaxSteps int64
	// MaxPaths bounds the paths explored per invocation when control
	// depends on an indeterminate value (fork.go); 0 means
	// DefaultMaxPaths, 1 turns forking off (such control makes every
	// output the invocation can still write any value).
	MaxPaths int
	// Textures and Samplers are the contents of an entry point's texture
	// bindings and the descriptions of its samplers, by variable name
	// (texture.go); a sampler not given is WebGPU's default sampler.
	Textures map[string]*Texture
	Samplers map[string]*Sampler
	// Context, when not nil, stops a run once it ends: Run, Program.Run
	// and Dispatch.Run then return no results and the error
	// "interp: reference run stopped: <cause>", which wraps
	// context.Cause(Context) (errors.Is finds context.Canceled or
	// context.DeadlineExceeded). They look at it every 16,384 steps of
	// an invocation (well under a millisecond) and between invocations
	// and workgroups.
	Context context.Context
	// Workers is the number of goroutines a dispatch (Dispatch.Run) may
	// run its workgroups on; 0 means GOMAXPROCS, 1 sequential. Results,
	// indeterminate marks, race reports and errors are the same for any
	// number (parallel.go: a first pass runs in parallel only while no
	// two workgroups touch one written storage leaf and nothing depends
	// on the workgroups' order, else it runs again sequentially).
	Workers int
	// Subgroups is the partition of a dispatch's invocations into
	// subgroups (subgroup.go: LinearSubgroups, ObservedSubgroups), from
	// which subgroup builtins take their active sets and
	// subgroup_invocation_id, subgroup_size, subgroup_id and
	// num_subgroups their values; nil means
	// LinearSubgroups(SubgroupSize). An observed partition must have been
	// observed for a dispatch of the same shape (Dispatch.Run fails
	// otherwise).
	Subgroups *SubgroupPartition
	// SubgroupSize is the size of the linear partition used when
	// Subgroups is nil: a power of two in [4, 128] (WGSL #subgroups); 0
	// means DefaultSubgroupSize (32).
	SubgroupSize int
}

func (o Options) maxPaths() int {
	if o.MaxPaths <= 0 {
		return DefaultMaxPaths
	}
	return o.MaxPaths
}

// Program is a kernel compiled for repeated execution: compile once, run
// many invocations. A Program is immutable and safe for concurrent Runs.
type Program struct {
	file    string
	abi     *ir.KernelABI
	kernel  *fnInfo
	params  []varInfo // the kernel's parameters, in order
	argWhy  []int32   // per parameter: the reason for a non-finite f32 argument
	outs    []varInfo // slot ranges of the ABI outputs, in order
	image   []slot    // every slot's initial contents (constants, global initializers)
	globLo  int32     // globals occupy image[globLo:globHi]
	globHi  int32
	reasons []reason
	// positions are the step-limit positions of blocks and loops, tables
	// the switch tables (value, target pairs, then the default target).
	positions []ir.Pos
	tables    [][]uint32
	frames    sync.Pool
	// mod and name are the module and function compiled (Compile only):
	// the textures of a fragment run (texture.go, quad.go).
	mod  *ir.Module
	name string
	// discards: the call graph holds a discard (render.go).
	discards bool
	// sets are a function-mode program's allowed sets (slot.setID): the
	// values a load through an invalid reference into a binding may
	// return (render.go). A dispatch keeps its own (dispatchRun.sets).
	sets []ir.ValueSet
}

// Invocation is the outcome of one invocation of a kernel.
type Invocation struct {
	// Outputs holds one Output per ABI output ("ret", then the private
	// globals the kernel uses), in ABI().Outputs order; nil when Err is set.
	Outputs []Output
	// Err is a per-invocation failure, an *ir.Error: the step limit was
	// exceeded ("interp: step limit of N exceeded (the kernel may not
	// terminate)"), or the kernel executed an operation the reference
	// cannot execute (derivative, barrier and subgroup builtins).
	Err error
	// Discarded reports that a fragment invocation executed discard
	// (WGSL #discard-statement) on every path the reference explored:
	// it was demoted to a helper invocation, kept running (its Outputs
	// are the values it computed, which its quad's derivatives saw), and
	// its outputs are to be dropped — the pixel keeps what was beneath.
	// MayDiscard reports that it did on some path only (control on an
	// indeterminate value): the pixel may keep either. The quad runner
	// (quad.go) and check read both.
	Discarded, MayDiscard bool
}

// Output is the value of one ABI output of one invocation.
type Output struct {
	Value ir.Value
	// Buffer, set by Dispatch.RunBuffers instead of Value, is a
	// binding's final contents as its buffer's bytes (ir.Buffer).
	Buffer ir.Buffer
	// Indeterminate and Tolerance have one entry per leaf scalar of Value
	// (of Buffer, when it is set: ir.Buffer.Leaf), in
	// ir.Type.ComponentTypes order; both are nil when every leaf is
	// exact and determinate, and a dispatch's binding (Dispatch.Run,
	// RunBuffers) has a nil Tolerance when every leaf's is 0 (a binding
	// whose leaves are all indeterminate costs 1 byte a leaf here, not
	// 9). Indeterminate[i] reports that WGSL leaves leaf
	// i indeterminate (any value of its type is conforming). Tolerance[i]
	// is, for an f32 leaf, the absolute error bound WGSL grants a
	// conforming implementation relative to Value (0: must match exactly,
	// modulo subnormal flushing and the sign of zero); it is 0 for other
	// types.
	Indeterminate []bool
	Tolerance     []float64
	// Allowed is nil, or has one entry per leaf: for an indeterminate
	// leaf, the values WGSL allows there (an empty ir.ValueSet: any
	// value), e.g. the union of both outcomes of a branch on an
	// indeterminate comparison.
	Allowed []ir.ValueSet
	// Reconvergence is nil, or has one entry per leaf (a dispatch's
	// bindings, Dispatch.Run and RunBuffers): leaf i's value depends on
	// the result of a subgroup builtin called in non-uniform control flow
	// (subgroup.go), where the reference assumes maximal reconvergence —
	// which invocations execute the call together — and WGSL does not
	// (#subgroup-ops). A device that differs there may have chosen another
	// active set; Why then also names the call.
	Reconvergence []bool
	// Why is the first reason a leaf is indeterminate or inexact, with the
	// position of the operation responsible ("3:14: f32 overflow …"); empty
	// when every leaf is exact and determinate.
	Why string
}

// Compile compiles kernel, a function of m, for execution. m must pass
// ir.Verify (Compile runs it and returns its errors). Compile fails for
// an unknown kernel and for recursion, which WGSL forbids. Errors are
// *ir.Error (or Verify's ir.ErrorList).
func Compile(m *ir.Module, kernel string) (*Program, error) {
	return compile(m, kernel, compileOpts{})
}

// Run compiles kernel and runs it once per element of args; see
// Program.Run.
func Run(m *ir.Module, kernel string, args [][]ir.Value, opts Options) ([]Invocation, error) {
	p, err := Compile(m, kernel)
	if err != nil {
		return nil, err
	}
	return p.Run(args, opts)
}

// ABI returns the kernel's ABI, ir.NewKernelABI(m, kernel): its outputs
// are "ret" (for a non-void kernel) then the private globals the kernel's
// call graph uses, which is the order of Invocation.Outputs.
func (p *Program) ABI() *ir.KernelABI { return p.abi }

// Run executes the kernel once per invocation: args[i][j] is parameter j
// of invocation i. Each invocation starts with every private global at its
// initializer (or zero). Run fails, before executing anything, only when
// an argument's shape or type does not match its parameter; failures of a
// single invocation are reported in its Invocation.Err.
func (p *Program) Run(args [][]ir.Value, opts Options) ([]Invocation, error) {
	for i, inv := range args {
		if len(inv) != len(p.params) {
			return nil, &ir.Error{File: p.file, Pos: p.kernel.f.Pos, Pass: "interp",
				Msg: fmt.Sprintf("invocation %d: %d arguments for the %d parameters of %s", i, len(inv), len(p.params), p.abi.Kernel)}
		}
		for j, v := range inv {
			if err := checkValue(v, p.params[j].t); err != nil {
				prm := p.kernel.f.Params[j]
				return nil, &ir.Error{File: p.file, Pos: prm.Pos, Pass: "interp",
					Msg: fmt.Sprintf("invocation %d: argument %s: %v", i, prm.Name, err)}
			}
		}
	}
	limit := opts.MaxSteps
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	fr := p.getFrame()
	defer func() {
		fr.tex = nil
		p.frames.Put(fr)
	}()
	tex, err := p.textures(opts)
	if err != nil {
		return nil, err
	}
	fr.tex = tex
	fr.ctx = opts.Context
	defer func() { fr.ctx = nil }()
	out := make([]Invocation, len(args))
	paths := opts.maxPaths()
	budget := int64(forkBudget)
	for i, inv := range args {
		if err := stopped(opts.Context); err != nil {
			return nil, err
		}
		if paths == 1 {
			p.invoke(fr, inv, limit)
			out[i] = p.collect(fr)
			continue
		}
		out[i] = p.explore(fr, paths, &budget, inv, limit)
	}
	if err := stopped(opts.Context); err != nil {
		return nil, err
	}
	return out, nil
}

func (p *Program) getFrame() *frame {
	if fr, ok := p.frames.Get().(*frame); ok {
		return fr
	}
	fr := &frame{s: make([]slot, len(p.image)), p: p}
	copy(fr.s, p.image)
	return fr
}

// invoke runs one invocation in fr.
func (p *Program) invoke(fr *frame, args []ir.Value, limit int64) {
	copy(fr.s[p.globLo:p.globHi], p.image[p.globLo:p.globHi])
	k := p.kernel
	clear(fr.s[k.ret : k.ret+k.retN])
	fr.start(limit)
	fr.stop, fr.err, fr.poison, fr.cause = false, nil, 0, 0
	for j, v := range args {
		p.store(fr.s, p.params[j].base, v, p.argWhy[j])
	}
	k.body.exec(fr)
}

// store writes v's leaves into s from base; non-finite f32 leaves are
// marked indeterminate with reason why.
func (p *Program) store(s []slot, base int32, v ir.Value, why int32) int32 {
	switch v.Type.Kind {
	case ir.KindBool:
		b := uint32(0)
		if v.Bits != 0 {
			b = 1
		}
		s[base] = slot{bits: b}
		return base + 1
	case ir.KindI32, ir.KindU32:
		s[base] = slot{bits: v.Bits}
		return base + 1
	case ir.KindF32:
		if v.Bits&0x7f800000 == 0x7f800000 {
			s[base] = slot{bits: v.Bits, why: -why}
		} else {
			s[base] = slot{bits: v.Bits}
		}
		return base + 1
	case ir.KindF16:
		if v.Bits&0x7c00 == 0x7c00 { // ±∞ or NaN: outside finite math
			s[base] = slot{bits: v.Bits, why: -why}
		} else {
			s[base] = slot{bits: v.Bits}
		}
		return base + 1
	}
	for _, e := range v.Elems {
		base = p.store(s, base, e, why)
	}
	return base
}

// checkValue reports whether v is a well-formed value of type t.
func checkValue(v ir.Value, t *ir.Type) error {
	if v.Type == nil || !ir.Identical(v.Type, t) {
		return fmt.Errorf("has type %v, want %v", v.Type, t)
	}
	var rec func(v ir.Value, t *ir.Type) error
	rec = func(v ir.Value, t *ir.Type) error {
		switch t.Kind {
		case ir.KindVec, ir.KindArray, ir.KindMat:
			if len(v.Elems) != t.Len {
				return fmt.Errorf("value of %v has %d components", t, len(v.Elems))
			}
			for _, e := range v.Elems {
				if err := rec(e, t.Elem); err != nil {
					return err
				}
			}
		case ir.KindStruct:
			if len(v.Elems) != len(t.Struct.Fields) {
				return fmt.Errorf("value of %v has %d members", t, len(v.Elems))
			}
			for i, e := range v.Elems {
				if err := rec(e, t.Struct.Fields[i].Type); err != nil {
					return err
				}
			}
		case ir.KindVoid:
			return fmt.Errorf("void value")
		default:
			if len(v.Elems) != 0 {
				return fmt.Errorf("scalar %v with components", t)
			}
		}
		return nil
	}
	return rec(v, t)
}

// collect converts the frame's outputs after an invocation.
func (p *Program) collect(fr *frame) Invocation {
	if fr.err != nil {
		return Invocation{Err: fr.err}
	}
	outs := fr.arena.outputs(len(p.outs))
	for i, o := range p.outs {
		outs[i] = p.output(fr, o)
	}
	// A poisoned run stopped early: a discard it did not reach may follow.
	return Invocation{Outputs: outs, Discarded: fr.discarded, MayDiscard: fr.discarded || fr.poison != 0 && p.discards}
}

// outArena carves the slices of an invocation's results (its Outputs, a
// composite value's elements) from shared chunks: one allocation per
// chunk rather than several per invocation. A chunk is never reused (the
// results returned hold it), and each slice carved has its length as its
// capacity, so that appending to one copies it.
type outArena struct {
	outs []Output
	vals []ir.Value
}

// Chunk sizes of outArena, in elements; a longer slice is allocated on
// its own.
const (
	arenaOutputs = 64
	arenaValues  = 512
)

func (a *outArena) outputs(n int) []Output { return carve(&a.outs, n, arenaOutputs) }

func (a *outArena) values(n int) []ir.Value { return carve(&a.vals, n, arenaValues) }

// carve returns n elements from the chunk *free (a new chunk of size
// elements when it has fewer left; a slice of its own when n is over a
// quarter of a chunk), with capacity n.
func carve[T any](free *[]T, n, size int) []T {
	if n > size/4 {
		return make([]T, n)
	}
	if len(*free) < n {
		*free = make([]T, size)
	}
	r := (*free)[:n:n]
	*free = (*free)[n:]
	return r
}

func (p *Program) output(fr *frame, o varInfo) Output {
	s := fr.s[o.base : o.base+o.n]
	var out Output
	pos := 0
	out.Value = buildValue(o.t, s, &pos, &fr.arena)
	first := int32(0)
	if fr.poison != 0 {
		out.Indeterminate = make([]bool, len(s))
		out.Tolerance = make([]float64, len(s))
		for i := range s {
			out.Indeterminate[i] = true
			out.Tolerance[i] = s[i].tol()
		}
		out.Why = p.reasonText(fr.poison)
		if c := p.reasonText(fr.cause); c != "" {
			out.Why += " (because " + c + ")"
		}
		return out
	}
	for i := range s {
		if s[i].why == 0 {
			continue
		}
		if out.Indeterminate == nil {
			out.Indeterminate = make([]bool, len(s))
			out.Tolerance = make([]float64, len(s))
		}
		out.Indeterminate[i] = s[i].why < 0
		out.Tolerance[i] = s[i].tol()
		if id := s[i].setID(); id > 0 && int(id) <= len(p.sets) {
			if out.Allowed == nil {
				out.Allowed = make([]ir.ValueSet, len(s))
			}
			out.Allowed[i] = p.sets[id-1]
		}
		if first == 0 {
			first = s[i].why
		}
	}
	if first != 0 {
		out.Why = p.reasonText(first)
	}
	return out
}

func buildValue(t *ir.Type, s []slot, pos *int, a *outArena) ir.Value {
	switch t.Kind {
	case ir.KindBool, ir.KindI32, ir.KindU32, ir.KindF32, ir.KindF16:
		v := ir.Value{Type: t, Bits: s[*pos].bits}
		*pos++
		return v
	case ir.KindVec, ir.KindArray, ir.KindMat:
		es := a.values(t.Len)
		for i := range es {
			es[i] = buildValue(t.Elem, s, pos, a)
		}
		return ir.Value{Type: t, Elems: es}
	case ir.KindStruct:
		es := a.values(len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = buildValue(f.Type, s, pos, a)
		}
		return ir.Value{Type: t, Elems: es}
	}
	return ir.Value{Type: t}
}

// String formats an output for diagnostics: the value, then any
// indeterminate leaves and tolerances.
func (o Output) String() string {
	var b strings.Builder
	b.WriteString(o.Value.String())
	for i, ind := range o.Indeterminate {
		switch {
		case ind:
			fmt.Fprintf(&b, " [%d]=indeterminate", i)
		case i < len(o.Tolerance) && o.Tolerance[i] > 0:
			fmt.Fprintf(&b, " [%d]±%g", i, o.Tolerance[i])
		}
	}
	if o.Why != "" {
		b.WriteString(" (" + o.Why + ")")
	}
	return b.String()
}
