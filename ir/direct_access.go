package ir

import (
	"fmt"
	"strings"
)

// Shared reports whether s is an address space whose memory invocations
// share: workgroup, storage or uniform (WGSL #address-spaces).
func (s AddressSpace) Shared() bool {
	return s == SpaceWorkgroup || s == SpaceStorage || s == SpaceUniform
}

// SharesMemory reports whether p is a pointer parameter into memory that
// invocations share: ptr<workgroup, T>, ptr<storage, T, A> or
// ptr<uniform, T> (WGSL #ref-ptr-types).
func (p *Param) SharesMemory() bool { return p.Ptr.Shared() }

// PtrWritable reports whether the body may store through pointer
// parameter p (WGSL #access-mode: function, private and workgroup
// pointers are read_write, uniform pointers read, storage pointers as
// written).
func (p *Param) PtrWritable() bool {
	switch p.Ptr {
	case SpaceFunction, SpacePrivate, SpaceWorkgroup:
		return true
	case SpaceStorage:
		return p.PtrAccess == AccessReadWrite
	}
	return false
}

// HasSharedPointers reports whether some function of m takes a pointer
// parameter into shared memory (Param.SharesMemory).
func HasSharedPointers(m *Module) bool {
	for _, f := range m.Funcs {
		for _, p := range f.Params {
			if p.SharesMemory() {
				return true
			}
		}
	}
	return false
}

// DirectVariableAccess returns m with no pointer parameter into shared
// memory: every call that passes &R for such a parameter (R a reference
// chain rooted at a var<workgroup>, var<storage> or var<uniform>, or at a
// pointer parameter of the caller) calls instead a specialization of the
// callee for R's root variable and access shape (its member selections),
// which takes R's index operands as value parameters, in R's evaluation
// order, where the pointer was, and whose body reads and writes the
// variable directly where it used *p. It is Tint's DirectVariableAccess
// transform (src/tint/lang/core/ir/transform/direct_variable_access.h),
// used by its SPIR-V and HLSL writers for the same reason: the reference
// (interp), flatten and gpudiff's SPIR-V emitter see only direct accesses
// to module-scope variables, and every invocation's accesses stay the
// accesses it makes (a copy-in/copy-out of a shared pointee would read
// and write memory other invocations use, which is a data race the
// source does not have).
//
// The rewrite keeps what WGSL defines: the index operands of R are
// evaluated where the argument was (WGSL #function-calls: arguments left
// to right; a pointer's index operands when the pointer is formed), and an
// access through *p happens where the callee makes it. The functions that
// took shared pointers are dropped from the result (every call of them is
// rewritten; WGSL forbids recursion, so specialization ends).
// Specializations are named after the callee and the root variable
// (bump_tile, bump_tile_1, …), fresh in m. Pointer parameters in the
// function and private spaces are left as they are.
//
// m is not modified; when it has no shared pointer parameter, m itself is
// returned. m must pass Verify (the result then does).
func DirectVariableAccess(m *Module) *Module {
	if !HasSharedPointers(m) {
		return m
	}
	n := CloneModule(m)
	d := &dva{orig: map[string]*Func{}, specs: map[string]*Func{}, names: NewNamer(n, n.Funcs...), after: map[string][]*Func{}, active: map[string]bool{}}
	for _, f := range n.Funcs {
		d.orig[f.Name] = f
	}
	for _, f := range n.Funcs {
		if !takesSharedPointer(f) {
			d.rewrite(f.Body)
		}
	}
	// Each specialization is placed after the function it specializes
	// (declaration order stays readable; WGSL needs no order).
	var funcs []*Func
	for _, f := range n.Funcs {
		if !takesSharedPointer(f) {
			funcs = append(funcs, f)
		}
		funcs = append(funcs, d.after[f.Name]...)
	}
	n.Funcs = funcs
	return n
}

func takesSharedPointer(f *Func) bool {
	for _, p := range f.Params {
		if p.SharesMemory() {
			return true
		}
	}
	return false
}

type dva struct {
	orig  map[string]*Func   // the functions of m by name, as cloned
	specs map[string]*Func   // specialization key → specialization
	after map[string][]*Func // callee name → its specializations, in creation order
	names *Namer
	// active holds the functions being specialized (a guard against
	// recursion, which WGSL forbids).
	active map[string]bool
}

// rewrite replaces, under n, every call of a function taking a shared
// pointer by a call of its specialization (children first: the index
// operands of a pointer argument may themselves hold such calls).
func (d *dva) rewrite(n Node) {
	EditChildren(n, func(c Node) Node {
		d.rewrite(c)
		if call, ok := c.(*Call); ok {
			if f := d.orig[call.Func]; f != nil && takesSharedPointer(f) {
				d.specializeCall(call, f)
			}
		}
		return c
	})
}

// access is the shape of a pointer argument's reference chain: its root
// and each step outward, an index step holding the operand it was given.
type access struct {
	root  *Ident
	steps []Expr // *Index or *Member, root outward (copies with X unset)
}

func chainOf(e Expr) (access, bool) {
	var steps []Expr
	for {
		switch x := e.(type) {
		case *Ident:
			for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
				steps[i], steps[j] = steps[j], steps[i]
			}
			return access{root: x, steps: steps}, true
		case *Index:
			steps = append(steps, x)
			e = x.X
		case *Member:
			steps = append(steps, x)
			e = x.X
		default:
			return access{}, false
		}
	}
}

// key names the shape: root, member names, index operand types.
func (a access) key() string {
	var b strings.Builder
	b.WriteString(a.root.Name)
	for _, s := range a.steps {
		switch s := s.(type) {
		case *Index:
			fmt.Fprintf(&b, "[%v]", s.Index.Type())
		case *Member:
			fmt.Fprintf(&b, ".%d", s.Field)
		}
	}
	return b.String()
}

func (d *dva) specializeCall(call *Call, f *Func) {
	var args []Expr
	var key strings.Builder
	key.WriteString(f.Name)
	shapes := make([]access, len(f.Params))
	for i, p := range f.Params {
		if !p.SharesMemory() {
			args = append(args, call.Args[i])
			key.WriteString("|")
			continue
		}
		ad, ok := call.Args[i].(*AddrOf)
		if !ok {
			panic(fmt.Sprintf("ir.DirectVariableAccess: argument %d of %s is %T, want &reference (run Verify first)", i+1, f.Name, call.Args[i]))
		}
		a, ok := chainOf(ad.X)
		if !ok {
			panic(fmt.Sprintf("ir.DirectVariableAccess: argument %d of %s is not a reference chain", i+1, f.Name))
		}
		shapes[i] = a
		key.WriteString("|" + a.key())
		for _, s := range a.steps {
			if ix, ok := s.(*Index); ok {
				args = append(args, ix.Index)
			}
		}
	}
	if d.active[f.Name] {
		return // recursion, which WGSL forbids: the call stays (Verify's callers report it)
	}
	g := d.specs[key.String()]
	if g == nil {
		g = d.specialize(f, shapes)
		d.specs[key.String()] = g
	}
	call.Func = g.Name
	call.Args = args
}

// specialize builds f for the access shapes of its shared pointer
// parameters (nil entries for the others).
func (d *dva) specialize(f *Func, shapes []access) *Func {
	root := ""
	for _, a := range shapes {
		if a.root != nil {
			root = a.root.Name
			break
		}
	}
	g := CloneFunc(f)
	g.Name = d.names.Fresh(f.Name + "_" + root)
	local := NewNamer(nil, g)
	subst := map[string]func(Pos) Expr{}
	var params []*Param
	for i, p := range g.Params {
		if !p.SharesMemory() {
			params = append(params, p)
			continue
		}
		shape := shapes[i]
		names := make([]string, len(shape.steps))
		for j, s := range shape.steps {
			if ix, ok := s.(*Index); ok {
				names[j] = local.Fresh(fmt.Sprintf("%s_i%d", p.Name, j))
				d.names.Reserve(names[j])
				params = append(params, &Param{Pos: p.Pos, Name: names[j], T: ix.Index.Type()})
			}
		}
		// The view *p at a use: the root variable and the steps, each
		// index the parameter holding its operand, positioned at the use.
		subst[p.Name] = func(pos Pos) Expr {
			var view Expr = &Ident{Pos: pos, Name: shape.root.Name, T: shape.root.T, Ref: shape.root.Ref}
			for j, s := range shape.steps {
				switch s := s.(type) {
				case *Index:
					it := s.Index.Type()
					view = &Index{Pos: pos, X: view, Index: &Ident{Pos: pos, Name: names[j], T: it, Ref: RefParam}, T: s.T}
				case *Member:
					view = &Member{Pos: pos, X: view, Field: s.Field, T: s.T}
				}
			}
			return view
		}
	}
	g.Params = params
	g.Body = substPtr(g.Body, subst).(*Block)
	d.after[f.Name] = append(d.after[f.Name], g)
	d.active[f.Name] = true
	d.rewrite(g.Body)
	delete(d.active, f.Name)
	return g
}

// substPtr replaces each RefPtr Ident naming a key of subst by its view
// at the Ident's position.
func substPtr(n Node, subst map[string]func(Pos) Expr) Node {
	if id, ok := n.(*Ident); ok && id.Ref == RefPtr {
		if view, ok := subst[id.Name]; ok {
			return view(id.Pos)
		}
	}
	EditChildren(n, func(c Node) Node { return substPtr(c, subst) })
	return n
}
