package interp

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// compileOpts are internal compilation switches.
type compileOpts struct {
	// countOps makes every executed statement and every evaluated
	// non-leaf expression increment frame.ops (for BenchmarkInterp's
	// ns-per-operation figure; it slows execution down).
	countOps bool
	// bindings are a function-mode program's read-only bindings
	// (CompileBindings, render.go).
	bindings map[string]ir.Value
}

// varInfo is where a value lives: slots [base, base+n) of type t.
type varInfo struct {
	base, n int32
	t       *ir.Type
	global  bool
}

// fnInfo is a compiled function. WGSL forbids recursion, so each function
// owns a static region of the frame for its parameters, result, locals
// and temporaries.
type fnInfo struct {
	f      *ir.Func
	params []varInfo
	ret    int32 // result slots (retN of them)
	retN   int32
	body   vcode
}

type compiler struct {
	p      *Program
	m      *ir.Module
	opts   compileOpts
	image  []slot
	consts map[string]int32
	// konst marks the slots of constants (constant): never written at
	// run time, so their compile-time image is their value.
	konst   map[int32]bool
	globals map[string]varInfo
	funcs   map[string]*fnInfo
	fn      *fnInfo
	vars    map[string]varInfo
	// addressed holds the function's locals passed as pointer
	// arguments (ir.AddrOf roots): a call may change them, so an operand
	// read before a call is copied first, as for private globals.
	addressed map[string]bool
	loopPos   *ir.Pos // the innermost loop being compiled, if any
	out       code    // the function being compiled
	targets   []*target
	errs      ir.ErrorList
	// entry is set when compiling an entry point for a dispatch
	// (dispatch.go): shared vars are its ids, barriers are opBarrier in
	// the entry point's own body.
	entry  *entryInfo
	inBody bool // compiling the entry point's own body
	// bindSet, per function-mode binding (render.go): the id of the
	// allowed set in Program.sets of a load through an invalid reference
	// into it (0: any value).
	bindSet map[string]int32
}

func compile(m *ir.Module, kernel string, opts compileOpts) (*Program, error) {
	if m == nil {
		return nil, &ir.Error{Pass: "interp", Msg: "nil module"}
	}
	f := m.Func(kernel)
	if f == nil {
		return nil, &ir.Error{File: m.File, Pass: "interp", Msg: fmt.Sprintf("no function %q in the module", kernel)}
	}
	if err := ir.Verify(m); err != nil {
		return nil, err
	}
	if cyc := m.FindCycle(kernel); cyc != nil {
		return nil, &ir.Error{File: m.File, Pos: m.Func(cyc[0]).Pos, Pass: "interp",
			Msg: fmt.Sprintf("recursion %s (WGSL forbids recursion)", strings.Join(cyc, " -> "))}
	}
	// Pointers into shared memory become direct accesses (WGSL
	// #ref-ptr-types; see ir.DirectVariableAccess).
	m = ir.DirectVariableAccess(m)
	f = m.Func(kernel)
	abi, err := ir.NewKernelABI(m, kernel)
	if err != nil {
		return nil, &ir.Error{File: m.File, Pass: "interp", Msg: err.Error()}
	}
	c := &compiler{
		p:       &Program{file: m.File, abi: abi, mod: m, name: kernel},
		m:       m,
		opts:    opts,
		consts:  map[string]int32{},
		globals: map[string]varInfo{},
		funcs:   map[string]*fnInfo{},
	}
	used := m.GlobalsUsed(kernel)
	c.p.globLo = int32(len(c.image))
	for _, g := range used {
		n := size(g.T)
		c.globals[g.Name] = varInfo{base: c.alloc(n), n: n, t: g.T, global: true}
	}
	c.p.globHi = int32(len(c.image))
	for _, g := range used {
		c.globalInit(g)
	}
	c.functionBindings(kernel)
	c.p.discards = hasDiscardIn(m, kernel)
	for _, fn := range m.CallGraph(kernel) {
		c.function(fn)
	}
	if len(c.errs) > 0 {
		return nil, c.errs.Err()
	}
	k := c.funcs[kernel]
	c.p.kernel = k
	c.p.params = k.params
	for _, prm := range f.Params {
		c.p.argWhy = append(c.p.argWhy, c.addReason(prm.Pos, rArg, nil, prm.Name))
	}
	for _, o := range abi.Outputs {
		if o.Global {
			c.p.outs = append(c.p.outs, c.globals[o.Name])
		} else {
			c.p.outs = append(c.p.outs, varInfo{base: k.ret, n: k.retN, t: o.T})
		}
	}
	c.p.image = c.image
	return c.p, nil
}

// verified returns cd as vcode once checkSlots finds its slot operands
// inside the frame as it is now (slots are allocated before the code that
// names them, and the frame only grows); otherwise compilation fails with
// an internal error and the result is empty.
func (c *compiler) verified(cd code) vcode {
	if err := cd.checkSlots(int32(len(c.image))); err != nil {
		c.errs.Add(c.m.File, ir.Pos{}, "interp", "internal error: %v", err)
		return nil
	}
	return vcode(cd)
}

func (c *compiler) errorf(pos ir.Pos, format string, args ...any) {
	c.errs.Add(c.m.File, pos, "interp", format, args...)
}

// size returns the number of leaf scalars (slots) of t.
func size(t *ir.Type) int32 {
	switch t.Kind {
	case ir.KindBool, ir.KindI32, ir.KindU32, ir.KindF32, ir.KindF16:
		return 1
	case ir.KindVec:
		return int32(t.Len)
	case ir.KindArray, ir.KindMat:
		return int32(t.Len) * size(t.Elem)
	case ir.KindStruct:
		n := int32(0)
		for _, f := range t.Struct.Fields {
			n += size(f.Type)
		}
		return n
	case ir.KindAtomic:
		return 1
	}
	return 0 // void, runtime-sized arrays (their length is the buffer's)
}

// fieldOffset returns the slot offset of field i of struct type t.
func fieldOffset(t *ir.Type, i int) int32 {
	off := int32(0)
	for _, f := range t.Struct.Fields[:i] {
		off += size(f.Type)
	}
	return off
}

// alloc reserves n zeroed slots and returns the first.
func (c *compiler) alloc(n int32) int32 {
	base := int32(len(c.image))
	for i := int32(0); i < n; i++ {
		c.image = append(c.image, slot{})
	}
	return base
}

// constant returns the slots holding v (allocated once per distinct value).
func (c *compiler) constant(pos ir.Pos, node ir.Node, v ir.Value) int32 {
	key := v.Type.String() + "=" + valueKey(v)
	if base, ok := c.consts[key]; ok {
		return base
	}
	base := c.alloc(size(v.Type))
	var fill func(v ir.Value, at int32) int32
	fill = func(v ir.Value, at int32) int32 {
		switch v.Type.Kind {
		case ir.KindBool:
			if v.Bits != 0 {
				c.image[at].bits = 1
			}
			return at + 1
		case ir.KindI32, ir.KindU32:
			c.image[at].bits = v.Bits
			return at + 1
		case ir.KindF32, ir.KindF16:
			c.image[at].bits = v.Bits
			if fmtOf(v.Type.Kind).nonFinite(v.Bits) {
				c.image[at].why = -c.addReason(pos, rConst, node, "")
			}
			return at + 1
		}
		for _, e := range v.Elems {
			at = fill(e, at)
		}
		return at
	}
	fill(v, base)
	c.consts[key] = base
	if c.konst == nil {
		c.konst = map[int32]bool{}
	}
	for i := base; i < base+size(v.Type); i++ {
		c.konst[i] = true
	}
	return base
}

// goodConst reports whether the n slots at loc, stride apart, are
// constants that are exact, finite and not subnormal f32 values: operands
// whose checks a lane-wise f32 fast path can skip.
func (c *compiler) goodConst(loc, stride, n int32) bool {
	for i := int32(0); i < n; i++ {
		k := loc + i*stride
		if !c.konst[k] || c.image[k].why != 0 || isSubnormal(c.image[k].bits) {
			return false
		}
	}
	return true
}

// valueKey identifies a value by its bits (String would merge -0.0 and
// 0.0 and NaN payloads).
func valueKey(v ir.Value) string {
	if v.Elems == nil {
		return fmt.Sprintf("%x", v.Bits)
	}
	parts := make([]string, len(v.Elems))
	for i, e := range v.Elems {
		parts[i] = valueKey(e)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// globalInit evaluates a global's const-expression initializer once, at
// compile time, into the image.
func (c *compiler) globalInit(g *ir.Global) {
	if g.Init == nil {
		return
	}
	info := c.globals[g.Name]
	c.fn = &fnInfo{f: &ir.Func{Name: "<init " + g.Name + ">"}}
	c.vars = map[string]varInfo{}
	ce := c.exprTo(g.Init, info.base)
	if len(ce.code) == 0 {
		return
	}
	fr := &frame{s: make([]slot, len(c.image)), limit: 1, p: c.p}
	copy(fr.s, c.image)
	c.verified(ce.code).run(fr)
	copy(c.image[info.base:info.base+info.n], fr.s[info.base:info.base+info.n])
}

// function compiles f (its callees are compiled already).
func (c *compiler) function(f *ir.Func) {
	info := &fnInfo{f: f}
	c.fn = info
	c.vars = map[string]varInfo{}
	c.addressed = addressedLocals(f)
	for _, prm := range f.Params {
		n := size(prm.T)
		v := varInfo{base: c.alloc(n), n: n, t: prm.T, global: prm.Ptr != 0}
		info.params = append(info.params, v)
		c.vars[prm.Name] = v
	}
	if !f.Result.IsVoid() {
		info.retN = size(f.Result)
		info.ret = c.alloc(info.retN)
	}
	info.body = c.verified(c.body(f.Body))
	c.funcs[f.Name] = info
}

// addressedLocals returns the names of f's locals that f passes as
// pointer arguments.
func addressedLocals(f *ir.Func) map[string]bool {
	var out map[string]bool
	ir.Inspect(f.Body, func(n ir.Node) bool {
		if a, ok := n.(*ir.AddrOf); ok {
			if id := ir.RootIdent(a.X); id != nil && id.Ref == ir.RefVar {
				if out == nil {
					out = map[string]bool{}
				}
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

// lookup returns the slots of an identifier.
func (c *compiler) lookup(id *ir.Ident) (varInfo, bool) {
	if id.Ref == ir.RefGlobal {
		v, ok := c.globals[id.Name]
		return v, ok
	}
	if id.Ref == ir.RefShared && c.entry == nil {
		v, ok := c.globals[bindingKey(id.Name)] // render.go
		return v, ok
	}
	v, ok := c.vars[id.Name]
	return v, ok
}

// isF32Bits reports whether bits are an infinity or NaN.
func nonFinite(bits uint32) bool { return bits&0x7f800000 == 0x7f800000 }

var _ = math.Inf
