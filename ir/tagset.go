package ir

import (
	"slices"
	"strings"
)

// Tag-set analysis (issue 17): for every integer value of the functions a
// root reaches, the finite set of constants it can hold, or unbounded —
// the value-set half of Slang's type-flow analysis
// (Slang's type-flow specialization design, "Analysis"), over tags
// instead of witness tables.
//
// It is an interprocedural, flow-insensitive fixed point over the call
// graph: every local (let, var, parameter) and every function's result
// has one abstract value, the join of everything ever stored into it on
// any path (so ifs, switches and loops need no special rule: both arms,
// every case and every iteration store into the same cell); a
// parameter's value is the join over the call sites in the root's call
// graph; the root's parameters are inputs, so unbounded. Composite values
// are tracked per struct field and per array or vector (one summary cell
// for all elements), so a tag travels through struct fields and constant
// arrays. Constants, selects (both arms), conversions between i32 and u32
// (bits kept) and integer arithmetic on finite sets (every combination,
// WGSL's wrapping, division and shift rules) stay finite; a set past
// MaxTagSet values is widened to unbounded, which bounds every chain of
// growth, so a loop-carried value that grows each iteration (t = t + 1u)
// becomes unbounded after MaxTagSet rounds while one that cycles
// (t = (t + 1u) % 3u) stays finite. Everything else — floats, private
// globals and shared memory, builtin results, anything read through a
// pointer — is unbounded.
//
// Soundness: the cells only grow, every transfer function is monotone,
// and every store the program can make is a join into its cell, so at
// the fixed point a cell holds every value its variable takes in any
// execution from the root. A module the analysis cannot follow (a write
// or parameter it does not model) makes every answer unbounded.

// MaxTagSet is the widening bound: a set of more values is unbounded.
const MaxTagSet = 16

// TagSet is the abstract value of an integer or bool scalar: Unbounded,
// or the bit patterns in Vals (sorted, distinct). The zero TagSet holds
// no value (a value no execution produces).
type TagSet struct {
	Unbounded bool
	Vals      []uint32
}

// Single reports whether s holds exactly one value, and that value.
func (s TagSet) Single() (uint32, bool) {
	if !s.Unbounded && len(s.Vals) == 1 {
		return s.Vals[0], true
	}
	return 0, false
}

// Has reports whether s may hold v.
func (s TagSet) Has(v uint32) bool {
	_, found := slices.BinarySearch(s.Vals, v)
	return s.Unbounded || found
}

func (s TagSet) String() string {
	if s.Unbounded {
		return "unbounded"
	}
	var b strings.Builder
	b.WriteString("{")
	for i, v := range s.Vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(U32Val(v).String())
	}
	b.WriteString("}")
	return b.String()
}

// join adds o to s, reporting whether s changed.
func (s *TagSet) join(o TagSet) bool {
	if s.Unbounded {
		return false
	}
	if o.Unbounded {
		s.Unbounded, s.Vals = true, nil
		return true
	}
	changed := false
	for _, v := range o.Vals {
		if i, found := slices.BinarySearch(s.Vals, v); !found {
			s.Vals = slices.Insert(s.Vals, i, v)
			changed = true
		}
	}
	if len(s.Vals) > MaxTagSet {
		s.Unbounded, s.Vals = true, nil
	}
	return changed
}

// cell is the abstract value of one variable or result, shaped like its
// type: a set for a scalar (or an opaque type), one cell per struct
// field, one summary cell for the elements of an array or vector.
type cell struct {
	set    TagSet
	fields []*cell
	elem   *cell
}

func newCell(t *Type) *cell {
	switch {
	case t == nil:
		return &cell{}
	case t.Kind == KindStruct && t.Struct != nil:
		c := &cell{fields: make([]*cell, len(t.Struct.Fields))}
		for i, f := range t.Struct.Fields {
			c.fields[i] = newCell(f.Type)
		}
		return c
	case t.Kind == KindVec || t.Kind == KindArray:
		return &cell{elem: newCell(t.Elem)}
	}
	return &cell{}
}

func topCell(t *Type) *cell {
	c := newCell(t)
	c.top()
	return c
}

func (c *cell) top() bool {
	changed := c.set.join(TagSet{Unbounded: true})
	for _, f := range c.fields {
		changed = f.top() || changed
	}
	if c.elem != nil {
		changed = c.elem.top() || changed
	}
	return changed
}

// join adds o to c, reporting whether c changed. Cells of different
// shapes (an opaque value meeting a composite) make c unbounded.
func (c *cell) join(o *cell) bool {
	if o == nil {
		return false
	}
	if len(c.fields) != len(o.fields) || (c.elem == nil) != (o.elem == nil) {
		return c.top()
	}
	changed := c.set.join(o.set)
	for i, f := range c.fields {
		changed = f.join(o.fields[i]) || changed
	}
	if c.elem != nil {
		changed = c.elem.join(o.elem) || changed
	}
	return changed
}

func (c *cell) copy() *cell {
	d := &cell{set: TagSet{Unbounded: c.set.Unbounded, Vals: slices.Clone(c.set.Vals)}}
	for _, f := range c.fields {
		d.fields = append(d.fields, f.copy())
	}
	if c.elem != nil {
		d.elem = c.elem.copy()
	}
	return d
}

// constCell is the abstract value of a constant.
func constCell(v Value) *cell {
	c := newCell(v.Type)
	c.joinValue(v)
	return c
}

func (c *cell) joinValue(v Value) {
	switch {
	case c.fields != nil && len(v.Elems) == len(c.fields):
		for i, e := range v.Elems {
			c.fields[i].joinValue(e)
		}
	case c.elem != nil:
		for _, e := range v.Elems {
			c.elem.joinValue(e)
		}
	case v.Type != nil && (v.Type.Kind == KindI32 || v.Type.Kind == KindU32 || v.Type.Kind == KindBool):
		c.set.join(TagSet{Vals: []uint32{v.Bits}})
	default:
		c.top()
	}
}

// TagFlow is the result of AnalyzeTags: the tag sets of the switch
// selectors of the functions a root reaches.
type TagFlow struct {
	Root string
	// Imprecise is set when the module has a construct the analysis does
	// not follow (a write through a pointer, a parameter of a type it
	// does not model): every answer is then unbounded.
	Imprecise bool
	Rounds    int // fixed-point rounds until nothing changed
	vars      map[string]map[string]*cell
	rets      map[string]*cell
	sels      map[*Switch]*cell
}

// Selector returns the set of values the selector of s can hold in an
// execution from the root; unbounded for a switch outside the root's call
// graph, and for one no execution reaches (an empty set carries no
// information a transform could rely on).
func (tf *TagFlow) Selector(s *Switch) TagSet {
	c := tf.sels[s]
	if tf.Imprecise || c == nil || (!c.set.Unbounded && len(c.set.Vals) == 0) {
		return TagSet{Unbounded: true}
	}
	return c.set
}

// Local returns the set of the scalar local, parameter or let name of
// function fn (for tests and diagnostics); unbounded when unknown.
func (tf *TagFlow) Local(fn, name string) TagSet {
	c := tf.vars[fn][name]
	if tf.Imprecise || c == nil {
		return TagSet{Unbounded: true}
	}
	return c.set
}

// Result returns the set of the scalar result of function fn.
func (tf *TagFlow) Result(fn string) TagSet {
	c := tf.rets[fn]
	if tf.Imprecise || c == nil {
		return TagSet{Unbounded: true}
	}
	return c.set
}

// AnalyzeTags runs the tag-set analysis over the call graph of root (its
// parameters are inputs: unbounded).
func AnalyzeTags(m *Module, root string) *TagFlow {
	tf := &TagFlow{Root: root, vars: map[string]map[string]*cell{}, rets: map[string]*cell{}, sels: map[*Switch]*cell{}}
	fns := m.CallGraph(root)
	for _, f := range fns {
		vs := map[string]*cell{}
		for _, p := range f.Params {
			if !modeled(p.T) {
				tf.Imprecise = true
			}
			vs[p.Name] = newCell(p.T)
			if f.Name == root {
				vs[p.Name].top()
			}
		}
		tf.vars[f.Name] = vs
		tf.rets[f.Name] = newCell(f.Result)
	}
	a := &tagAnalysis{m: m, tf: tf}
	for changed := true; changed && !tf.Imprecise; {
		changed = false
		tf.Rounds++
		for _, f := range fns {
			a.fn = f
			a.changed = false
			a.block(f.Body)
			changed = changed || a.changed
		}
	}
	return tf
}

// modeled reports whether values of t are values the analysis follows
// (scalars, vectors, arrays, structs of them).
func modeled(t *Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind {
	case KindVoid, KindBool, KindI32, KindU32, KindF32, KindF16:
		return true
	case KindVec, KindArray:
		return modeled(t.Elem)
	case KindStruct:
		for _, f := range t.Struct.Fields {
			if !modeled(f.Type) {
				return false
			}
		}
		return true
	}
	return false
}

type tagAnalysis struct {
	m       *Module
	tf      *TagFlow
	fn      *Func
	changed bool
}

func (a *tagAnalysis) local(name string, t *Type) *cell {
	vs := a.tf.vars[a.fn.Name]
	c := vs[name]
	if c == nil {
		c = newCell(t)
		vs[name] = c
	}
	return c
}

func (a *tagAnalysis) into(dst, v *cell) {
	if dst.join(v) {
		a.changed = true
	}
}

func (a *tagAnalysis) block(b *Block) {
	for _, s := range b.Stmts {
		a.stmt(s)
	}
}

func (a *tagAnalysis) stmt(s Stmt) {
	switch s := s.(type) {
	case *Block:
		a.block(s)
	case *Decl:
		v := constCell(Zero(s.T))
		if s.Init != nil {
			v = a.expr(s.Init)
		}
		a.into(a.local(s.Name, s.T), v)
	case *Assign:
		v := a.expr(s.RHS)
		if s.Op != OpNone {
			v = binaryCell(s.Op, a.expr(s.LHS), v, s.LHS.Type())
		}
		a.store(s.LHS, v)
	case *ExprStmt:
		a.expr(s.X)
	case *If:
		a.expr(s.Cond)
		a.block(s.Then)
		a.block(s.Else)
	case *Loop:
		a.block(s.Body)
		a.block(s.Continuing)
		if s.BreakIf != nil {
			a.expr(s.BreakIf)
		}
	case *Switch:
		v := a.expr(s.Selector)
		c := a.tf.sels[s]
		if c == nil {
			c = newCell(s.Selector.Type())
			a.tf.sels[s] = c
		}
		a.into(c, v)
		for _, cs := range s.Cases {
			a.block(cs.Body)
		}
	case *Return:
		if s.Value != nil {
			a.into(a.tf.rets[a.fn.Name], a.expr(s.Value))
		}
	case *Break, *Continue:
	default:
		// A statement the analysis does not know may write anything.
		a.tf.Imprecise = true
	}
}

// store joins v into the cell the reference lhs denotes (a weak update:
// the analysis is flow-insensitive). Its index operands are evaluated for
// their calls.
func (a *tagAnalysis) store(lhs Expr, v *cell) {
	var path []Expr
	e := lhs
	for {
		switch x := e.(type) {
		case *Index:
			a.expr(x.Index)
			path = append(path, x)
			e = x.X
			continue
		case *Member:
			path = append(path, x)
			e = x.X
			continue
		case *Swizzle:
			path = append(path, x)
			e = x.X
			continue
		case *Ident:
			switch x.Ref {
			case RefGlobal, RefShared:
				return // always unbounded when read
			case RefVar:
				c := a.local(x.Name, x.T)
				for i := len(path) - 1; i >= 0; i-- {
					switch p := path[i].(type) {
					case *Member:
						if p.Field >= len(c.fields) {
							a.into(c, topCell(x.T))
							return
						}
						c = c.fields[p.Field]
					default:
						if c.elem == nil {
							a.into(c, topCell(x.T))
							return
						}
						c = c.elem
					}
				}
				a.into(c, v)
				return
			}
		}
		a.tf.Imprecise = true // a write the analysis cannot place
		return
	}
}

// expr returns the abstract value of e (a fresh cell the caller may keep)
// and joins the arguments of the calls in e into their callees'
// parameters.
func (a *tagAnalysis) expr(e Expr) *cell {
	switch e := e.(type) {
	case *Lit:
		return constCell(e.Val)
	case *Ident:
		switch e.Ref {
		case RefParam, RefLet, RefVar:
			return a.local(e.Name, e.T).copy()
		}
		return topCell(e.T)
	case *Select:
		f, t := a.expr(e.False), a.expr(e.True)
		a.expr(e.Cond)
		f.join(t)
		return f
	case *Call:
		callee := a.m.Func(e.Func)
		args := make([]*cell, len(e.Args))
		for i, x := range e.Args {
			args[i] = a.expr(x)
		}
		vs := a.tf.vars[e.Func]
		if callee == nil || vs == nil {
			return topCell(e.T)
		}
		for i, p := range callee.Params {
			if i < len(args) {
				if vs[p.Name] == nil {
					vs[p.Name] = newCell(p.T)
				}
				a.into(vs[p.Name], args[i])
			}
		}
		return a.tf.rets[e.Func].copy()
	case *Unary:
		x := a.expr(e.X)
		if !e.T.IsScalar() {
			return topCell(e.T)
		}
		return mapCell(x, e.T, func(v uint32) (uint32, bool) { return unaryBits(e.Op, e.T, v) })
	case *Binary:
		x, y := a.expr(e.X), a.expr(e.Y)
		if !e.X.Type().IsScalar() || !e.Y.Type().IsScalar() {
			return topCell(e.T)
		}
		return binaryCell(e.Op, x, y, e.X.Type())
	case *Convert:
		x := a.expr(e.X)
		from := e.X.Type()
		if e.T.IsScalar() && from.IsScalar() && (from.Kind == KindI32 || from.Kind == KindU32 || from.Kind == KindBool) &&
			(e.T.Kind == KindI32 || e.T.Kind == KindU32 || e.T.Kind == KindBool) {
			to := e.T.Kind
			return mapCell(x, e.T, func(v uint32) (uint32, bool) {
				if to == KindBool {
					return b2u(v != 0), true
				}
				return v, true // i32 ↔ u32 keep their bits; bool → 0 or 1
			})
		}
		return topCell(e.T)
	case *Bitcast:
		x := a.expr(e.X)
		if e.T.IsScalar() && e.X.Type().IsScalar() && !e.T.IsFloat() && !e.X.Type().IsFloat() {
			return x
		}
		return topCell(e.T)
	case *Construct:
		c := newCell(e.T)
		args := make([]*cell, len(e.Args))
		for i, x := range e.Args {
			args[i] = a.expr(x)
		}
		switch {
		case len(args) == 0:
			c.join(constCell(Zero(e.T)))
		case c.fields != nil && len(args) == len(c.fields):
			for i, x := range args {
				c.fields[i].join(x)
			}
		case c.elem != nil && e.T.Kind == KindArray:
			for _, x := range args {
				c.elem.join(x)
			}
		default: // vectors (splats, concatenations): the components' union
			for _, x := range args {
				if x.elem != nil {
					c.elem.join(x.elem)
				} else if c.elem != nil && x.fields == nil {
					c.elem.set.join(x.set)
				} else {
					c.top()
				}
			}
		}
		return c
	case *Index:
		x := a.expr(e.X)
		a.expr(e.Index)
		if x.elem != nil {
			return x.elem // a clamped index still reads an element
		}
		return topCell(e.T)
	case *Member:
		x := a.expr(e.X)
		if e.Field < len(x.fields) {
			return x.fields[e.Field]
		}
		return topCell(e.T)
	case *Swizzle:
		x := a.expr(e.X)
		if x.elem == nil {
			return topCell(e.T)
		}
		if len(e.Comps) == 1 {
			return x.elem
		}
		return &cell{elem: x.elem}
	}
	// Builtins, atomics, anything else: unbounded, after the calls in
	// its operands have been followed.
	Inspect(e, func(n Node) bool {
		if n == e {
			return true
		}
		if x, ok := n.(Expr); ok {
			a.expr(x)
			return false
		}
		return true
	})
	return topCell(e.Type())
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// mapCell applies f to every value of a scalar cell; f reporting false
// makes the result unbounded.
func mapCell(x *cell, t *Type, f func(uint32) (uint32, bool)) *cell {
	if x.set.Unbounded || x.fields != nil || x.elem != nil {
		return topCell(t)
	}
	out := &cell{}
	for _, v := range x.set.Vals {
		r, ok := f(v)
		if !ok {
			return topCell(t)
		}
		out.set.join(TagSet{Vals: []uint32{r}})
	}
	return out
}

// binaryCell is the abstract value of x op y on scalar operands of type
// t: every combination, when both are finite and op is an integer or
// comparison operator; else unbounded.
func binaryCell(op BinaryOp, x, y *cell, t *Type) *cell {
	if x.set.Unbounded || y.set.Unbounded || x.fields != nil || y.fields != nil || x.elem != nil || y.elem != nil ||
		t == nil || (t.Kind != KindI32 && t.Kind != KindU32 && t.Kind != KindBool) {
		return topCell(nil)
	}
	out := &cell{}
	for _, xv := range x.set.Vals {
		for _, yv := range y.set.Vals {
			r, ok := binaryBits(op, t, xv, yv)
			if !ok {
				return topCell(nil)
			}
			if out.set.join(TagSet{Vals: []uint32{r}}); out.set.Unbounded {
				return out
			}
		}
	}
	return out
}

// unaryBits evaluates a scalar integer or bool unary operator (WGSL
// #arithmetic-expr: -x wraps).
func unaryBits(op UnaryOp, t *Type, v uint32) (uint32, bool) {
	switch op {
	case OpNeg:
		return -v, t.Kind == KindI32
	case OpNot:
		return b2u(v == 0), t.Kind == KindBool
	case OpCompl:
		return ^v, t.Kind != KindBool
	}
	return 0, false
}

// binaryBits evaluates a scalar operator on operands of type t (i32, u32
// or bool) with WGSL's run-time rules: wrapping arithmetic, x / 0 = x,
// x % 0 = 0, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0, shift counts
// modulo 32 (ARCHITECTURE.md "Semantics").
func binaryBits(op BinaryOp, t *Type, x, y uint32) (uint32, bool) {
	signed := t.Kind == KindI32
	lt := func(a, b uint32) bool {
		if signed {
			return int32(a) < int32(b)
		}
		return a < b
	}
	switch op {
	case OpEq:
		return b2u(x == y), true
	case OpNe:
		return b2u(x != y), true
	case OpLt:
		return b2u(lt(x, y)), true
	case OpLe:
		return b2u(!lt(y, x)), true
	case OpGt:
		return b2u(lt(y, x)), true
	case OpGe:
		return b2u(!lt(x, y)), true
	case OpAnd, OpLogAnd:
		return x & y, true
	case OpOr, OpLogOr:
		return x | y, true
	case OpXor:
		return x ^ y, true
	}
	if t.Kind == KindBool {
		return 0, false
	}
	switch op {
	case OpAdd:
		return x + y, true
	case OpSub:
		return x - y, true
	case OpMul:
		return x * y, true
	case OpDiv:
		if y == 0 {
			return x, true
		}
		if signed {
			if int32(x) == -1<<31 && int32(y) == -1 {
				return x, true
			}
			return uint32(int32(x) / int32(y)), true
		}
		return x / y, true
	case OpRem:
		if y == 0 {
			return 0, true
		}
		if signed {
			if int32(x) == -1<<31 && int32(y) == -1 {
				return 0, true
			}
			return uint32(int32(x) % int32(y)), true
		}
		return x % y, true
	case OpShl:
		return x << (y & 31), true
	case OpShr:
		if signed {
			return uint32(int32(x) >> (y & 31)), true
		}
		return x >> (y & 31), true
	}
	return 0, false
}
