package interp

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Render-pipeline stages run as functions (issue 39): a vertex entry
// point once per vertex (its arguments the vertex's builtins and
// attributes, its result the clip-space position and varyings), a
// fragment entry point once per fragment, alone or in quads (quad.go).
// Both may read read-only bindings — var<uniform> and var<storage, read>
// of a fixed size — whose values CompileBindings bakes into the program
// (they are constant during a draw), and a fragment may discard:
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
// Value() decodes a buffer's bytes). Errors, positioned at the first use:
// a binding the call graph reads that bindings lacks, a value of the
// wrong type, a runtime-sized binding (its length needs a dispatch:
// CompileEntry), and a store to, or an atomic on, a binding (a
// function-mode program writes none).
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
		switch {
		case v.Writable():
			c.errorf(pos, "%s reads %s, a writable var<%s>: a function-mode program takes read-only bindings (uniform, storage read)", kernel, v.Name, v.Space)
			continue
		case v.T.HasRuntimeArray():
			c.errorf(pos, "%s reads %s, a runtime-sized binding: its length needs a dispatch (CompileEntry)", kernel, v.Name)
			continue
		}
		val, ok := c.opts.bindings[v.Name]
		if !ok {
			c.errorf(pos, "%s reads binding %s, whose value is not given (CompileBindings)", kernel, v.Name)
			continue
		}
		if err := checkValue(val, v.T); err != nil {
			c.errorf(pos, "binding %s: %v", v.Name, err)
			continue
		}
		n := size(v.T)
		base := c.alloc(n)
		c.p.store(c.image, base, val, c.addReason(v.Pos, rArg, nil, v.Name))
		c.globals[bindingKey(v.Name)] = varInfo{base: base, n: n, t: v.T, global: true}
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
