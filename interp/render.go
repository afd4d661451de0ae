package interp

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Render-pipeline stages run as functions (issue 39): a vertex entry
// point once per vertex (its arguments the vertex's builtins and
// attributes, its result the clip-space position and varyings), a
// fragment entry point once per fragment, alone or in quads (quad.go).
// Both may read read-only bindings — var<uniform> and var<storage, read>,
// runtime-sized ones too (vertex pulling: webgpu-samples' wireframe reads
// its vertices from array<f32> and array<u32> bindings) — whose values
// CompileBindings bakes into the program (they are constant during a
// draw), and a fragment may discard:
//
// discard (WGSL #discard-statement) demotes the invocation to a helper:
// it keeps running, so the values its quad's derivatives read are still
// computed; Invocation.Discarded (every path explored discarded) and
// Invocation.MayDiscard (some path did, or control on an indeterminate
// value ended the run before it could be known) tell the caller to drop
// its outputs. Its later stores to memory would have no effect: a
// function-mode program writes no memory but its own (the bindings it
// takes are read-only), so there is nothing to suppress.

// CompileBindings is Compile for a function that reads read-only
// bindings (a vertex or fragment entry point of a draw): bindings holds
// each var<uniform> and var<storage, read> the call graph reads, by
// variable name, as a value of the variable's type (an ir.Buffer's
// Value() decodes a buffer's bytes). A runtime-sized array (the
// binding's type, or its struct's last member) has the value's length:
// an ir.Value whose Elems are its N elements, any N ≥ 0 (as Dispatch.Run
// takes it); arrayLength of it is N.
//
// Reads follow the dispatch's rules (dispatch.go: sharedExpr): an index
// out of bounds or indeterminate anywhere in a reference chain into a
// binding makes the reference invalid, and a load through it (WGSL
// #out-of-bounds-access-sec "Invalid Load") returns a value from any
// location of the binding, or zero: indeterminate, with the binding's
// values and zero as the allowed set (Output.Allowed) when the binding
// has at most 1,024 leaves, all of one scalar kind and determinate (a
// non-finite f32 is not), else any value; a load from an empty
// runtime-sized array is any value.
//
// Errors, positioned at the first use: a binding the call graph reads
// that bindings lacks, a value of the wrong type, and a store to, or an
// atomic on, a binding (a function-mode program writes none).
func CompileBindings(m *ir.Module, kernel string, bindings map[string]ir.Value) (*Program, error) {
	return compile(m, kernel, compileOpts{bindings: bindings})
}

// bindingUses returns the shared variables kernel's call graph reads in
// function mode, in module order, each with its first use.
func bindingUses(m *ir.Module, kernel string) ([]*ir.SharedVar, map[string]ir.Pos) {
	first := map[string]ir.Pos{}
	for _, f := range m.CallGraph(kernel) {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefShared {
				if _, seen := first[id.Name]; !seen {
					first[id.Name] = id.Pos
				}
			}
			return true
		})
	}
	var out []*ir.SharedVar
	for _, v := range m.Shared {
		if _, ok := first[v.Name]; ok {
			out = append(out, v)
		}
	}
	return out, first
}

// functionBindings allocates the read-only bindings of a function-mode
// program as constant slots holding their values.
func (c *compiler) functionBindings(kernel string) {
	vars, first := bindingUses(c.m, kernel)
	for _, v := range vars {
		pos := first[v.Name]
		// refuse reports the binding's one error (at its first use) and
		// gives it zero slots of its fixed part, so that its uses compile
		// without an error each.
		refuse := func(format string, args ...any) {
			c.errorf(pos, format, args...)
			n := size(v.T)
			c.globals[bindingKey(v.Name)] = varInfo{base: c.alloc(n), n: n, t: v.T, global: true}
		}
		if v.Writable() {
			refuse("%s reads %s, a writable var<%s>: a function-mode program takes read-only bindings (uniform, storage read)", kernel, v.Name, v.Space)
			continue
		}
		val, ok := c.opts.bindings[v.Name]
		if !ok {
			refuse("%s reads binding %s, whose value is not given (CompileBindings)", kernel, v.Name)
			continue
		}
		check := checkValue
		if v.T.HasRuntimeArray() {
			check = checkShared // runtime-sized arrays of any length
		}
		if err := check(val, v.T); err != nil {
			refuse("binding %s: %v", v.Name, err)
			continue
		}
		n := int32(countLeaves(val))
		base := c.alloc(n)
		c.p.store(c.image, base, val, c.addReason(v.Pos, rArg, nil, v.Name))
		c.globals[bindingKey(v.Name)] = varInfo{base: base, n: n, t: v.T, global: true}
		c.bindingSet(v, base, n)
	}
	for _, f := range c.m.CallGraph(kernel) {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			var id *ir.Ident
			switch x := n.(type) {
			case *ir.Assign:
				id = ir.RootIdent(x.LHS)
			case *ir.Atomic:
				id = ir.RootIdent(x.Ptr())
			}
			if id != nil && id.Ref == ir.RefShared {
				c.errorf(n.Position(), "%s writes binding %s: a function-mode program writes no binding", kernel, id.Name)
			}
			return true
		})
	}
}

// bindingSet computes the allowed set of a load through an invalid
// reference into binding v, whose n leaves are at base in the image, as
// the dispatch's loadAnywhere does for a binding's memory (segment.go):
// small, one kind of leaf, every leaf determinate.
func (c *compiler) bindingSet(v *ir.SharedVar, base, n int32) {
	if n > maxAnywhereLeaves || !newLeafMap(v.T, false).oneKind {
		return
	}
	set, ok := anywhereSet(c.image[base : base+n])
	if !ok || set.IsAny() {
		return
	}
	c.p.sets = append(c.p.sets, set)
	if c.bindSet == nil {
		c.bindSet = map[string]int32{}
	}
	c.bindSet[v.Name] = int32(len(c.p.sets))
}

// bindingExpr compiles, in function mode, a load through a reference
// chain rooted at a binding (Ident, Member, Index, Swizzle) and
// arrayLength of one of its runtime-sized arrays; ok is false for any
// other expression (and for a binding without a value, whose error
// functionBindings reports). The chain's indices are evaluated when the
// load runs, outermost first, as sharedExpr's are.
func (c *compiler) bindingExpr(e ir.Expr, dst int32) (cexpr, bool) {
	var root *ir.Ident
	switch x := e.(type) {
	case *ir.ArrayLength:
		root = ir.RootIdent(x.X)
	case *ir.Ident, *ir.Member, *ir.Index, *ir.Swizzle:
		if !sharedRoot(e) {
			return cexpr{}, false
		}
		root = ir.RootIdent(e)
	default:
		return cexpr{}, false
	}
	if root == nil || root.Ref != ir.RefShared {
		return cexpr{}, false
	}
	b, ok := c.globals[bindingKey(root.Name)]
	if !ok {
		return cexpr{}, false
	}
	if al, ok := e.(*ir.ArrayLength); ok {
		r := c.bindingRef(al.X, b.n)
		if r.fn != nil {
			c.errorf(al.Pos, "arrayLength of a run-time indexed reference")
			return c.dummy(ir.U32, dst), true
		}
		esz := max(size(al.X.Type().Elem), 1)
		k := uint32(max(b.n-r.off, 0) / esz)
		return cexpr{loc: c.constant(al.Pos, al, ir.U32Val(k)), n: 1}, true
	}
	r := c.bindingRef(e, b.n)
	n := r.n
	if r.fn == nil && r.off+n <= b.n {
		return cexpr{loc: b.base + r.off, n: n, stops: r.stops}, true
	}
	d := dst
	if d < 0 {
		d = c.alloc(n)
	}
	oob := -c.addReason(e.Position(), rOOBRead, e, "")
	base, leaves, set := b.base, b.n, c.bindSet[root.Name]
	fn := func(fr *frame) {
		off, bad := r.at(fr)
		if off+n > leaves { // an empty runtime-sized array
			for j := int32(0); j < n; j++ {
				fr.s[d+j] = slot{why: oob}
			}
			return
		}
		copy(fr.s[d:d+n], fr.s[base+off:base+off+n])
		if bad {
			for j := int32(0); j < n; j++ {
				fr.s[d+j].taint(oob)
				fr.s[d+j].giveSet(set)
			}
		}
	}
	return cexpr{code: c.emit(fn), loc: d, n: n, stops: r.stops}, true
}

// bindingRef compiles a reference chain rooted at a function-mode
// binding of leaves leaves, as sharedRef does one into shared memory: a
// static leaf offset, or fn computing it (bad: an index was out of
// bounds or indeterminate; the offset is then the clamped index's).
func (c *compiler) bindingRef(e ir.Expr, leaves int32) sref {
	plus := func(r sref, k int32) sref {
		if r.fn == nil {
			r.off += k
			return r
		}
		f := r.fn
		r.fn = func(fr *frame) (int32, bool) { o, b := f(fr); return o + k, b }
		return r
	}
	switch e := e.(type) {
	case *ir.Ident:
		return sref{n: size(e.T)}
	case *ir.Member:
		r := plus(c.bindingRef(e.X, leaves), fieldOffset(e.X.Type(), e.Field))
		r.n = size(e.T)
		return r
	case *ir.Swizzle:
		r := plus(c.bindingRef(e.X, leaves), int32(e.Comps[0]))
		r.n = 1
		return r
	case *ir.Index:
		r := c.bindingRef(e.X, leaves)
		esz := size(e.T)
		xt := e.X.Type()
		runtime := xt.Kind == ir.KindRuntimeArray
		if lit, ok := e.Index.(*ir.Lit); ok && !runtime {
			r = plus(r, int32(lit.Val.Int64())*esz) // in bounds (ir.Verify)
			r.n = esz
			return r
		}
		idx := c.expr(e.Index)
		prev, start := r.fn, r.off
		idcode, il := c.verified(idx.code), idx.loc
		signed := e.Index.Type().Kind == ir.KindI32
		ln := int32(xt.Len)
		r.fn = func(fr *frame) (int32, bool) {
			off, bad := start, false
			if prev != nil {
				off, bad = prev(fr)
			}
			idcode.run(fr)
			n := ln
			if runtime {
				n = (leaves - off) / max(esz, 1)
			}
			if n <= 0 {
				return off, true
			}
			is := fr.s[il]
			k, ok := clampIndex(is.bits, signed, n)
			return off + k*esz, bad || !ok || is.why < 0
		}
		r.n = esz
		r.stops = r.stops || idx.stops
		return r
	}
	c.errorf(e.Position(), "%T is not a reference", e)
	return sref{}
}

// bindingKey is a binding's key among the compiler's globals (a binding
// and a private global may not share a name in WGSL; the prefix keeps the
// maps apart regardless).
func bindingKey(name string) string { return "\x00binding " + name }

// discard compiles the discard statement: it marks the invocation
// demoted and goes on.
func (c *compiler) discard(s *ir.Discard) {
	c.simple(cstmt{run: func(fr *frame) ctl {
		fr.discarded = true
		return cNext
	}})
}

// hasDiscardIn reports whether kernel's call graph holds a discard.
func hasDiscardIn(m *ir.Module, kernel string) bool {
	found := false
	for _, f := range m.CallGraph(kernel) {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			_, ok := n.(*ir.Discard)
			found = found || ok
			return !found
		})
	}
	return found
}

var _ = fmt.Sprintf
