package testcase

import (
	"fmt"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// Which of a vertex entry point's inputs its clip-space position depends
// on, for the made-up inputs of a draw (drawfill.go): an attribute that
// feeds @builtin(position), directly or through a matrix, gets the
// positions of triangles inside the clip volume; a vertex_index that
// indexes a constant array of positions says how many vertices to draw.
//
// The analysis is a flow-insensitive dependence over the entry point's
// body: each local (each member of a struct-typed local) depends on the
// inputs of every value assigned to it anywhere, a call's result on its
// arguments, to a fixed point. It over-approximates (a dependence through
// control flow is not one), which is what a made-up input needs: an
// attribute the position might read is given a position.

// inputDeps is a set of indices into wgsl.StageInputs(f) (at most 64
// inputs are tracked; WebGPU allows 16 attributes and two builtins).
type inputDeps uint64

type depAnalysis struct {
	f      *ir.Func
	inputs []wgsl.StageIO
	params map[string]int
	vars   map[string]inputDeps // "x", or "x#j" for member j of a struct-typed local
	whole  map[string]inputDeps // "x": the union of its members'
	grew   bool
}

func newDepAnalysis(f *ir.Func) *depAnalysis {
	a := &depAnalysis{f: f, inputs: wgsl.StageInputs(f), params: map[string]int{}, vars: map[string]inputDeps{}, whole: map[string]inputDeps{}}
	for i, p := range f.Params {
		a.params[p.Name] = i
	}
	for round := 0; round < 32; round++ {
		a.grew = false
		ir.Inspect(f.Body, a.stmt)
		if !a.grew {
			break
		}
	}
	return a
}

// param is the inputs of parameter name, or of its member field (≥ 0).
func (a *depAnalysis) param(name string, field int) inputDeps {
	pi, ok := a.params[name]
	if !ok {
		return 0
	}
	var d inputDeps
	for k, in := range a.inputs {
		if k < 64 && in.Path[0] == pi && (field < 0 || len(in.Path) < 2 || in.Path[1] == field) {
			d |= 1 << k
		}
	}
	return d
}

func (a *depAnalysis) local(name string, field int) inputDeps {
	if field >= 0 {
		return a.vars[name] | a.vars[fmt.Sprintf("%s#%d", name, field)]
	}
	return a.vars[name] | a.whole[name]
}

func (a *depAnalysis) add(key, name string, d inputDeps) {
	if a.vars[key]|d != a.vars[key] {
		a.vars[key] |= d
		a.grew = true
	}
	if key != name {
		a.whole[name] |= d
	}
}

// expr is what e's value depends on.
func (a *depAnalysis) expr(e ir.Expr) inputDeps {
	var d inputDeps
	if e == nil {
		return 0
	}
	ir.Inspect(e, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Ident:
			d |= a.ident(x, -1)
			return false
		case *ir.Member:
			if id, ok := x.X.(*ir.Ident); ok {
				d |= a.ident(id, x.Field)
				return false
			}
		}
		return true
	})
	return d
}

func (a *depAnalysis) ident(id *ir.Ident, field int) inputDeps {
	if id.Ref == ir.RefParam {
		return a.param(id.Name, field)
	}
	return a.local(id.Name, field)
}

// stmt records the dependences a declaration or an assignment creates.
func (a *depAnalysis) stmt(n ir.Node) bool {
	switch s := n.(type) {
	case *ir.Decl:
		if c, ok := s.Init.(*ir.Construct); ok && s.T.Kind == ir.KindStruct && len(c.Args) == len(s.T.Struct.Fields) {
			for j, arg := range c.Args {
				a.add(fmt.Sprintf("%s#%d", s.Name, j), s.Name, a.expr(arg))
			}
			return true
		}
		a.add(s.Name, s.Name, a.expr(s.Init))
	case *ir.Assign:
		root, field, idx := lhsRoot(s.LHS)
		if root == "" {
			return true
		}
		d := a.expr(s.RHS)
		for _, e := range idx {
			d |= a.expr(e)
		}
		key := root
		if field >= 0 {
			key = fmt.Sprintf("%s#%d", root, field)
		}
		a.add(key, root, d)
	}
	return true
}

// lhsRoot is the variable an assignment's reference is rooted at, the
// member of it the chain selects first (-1: the whole variable, or an
// element of it), and the chain's index operands.
func lhsRoot(e ir.Expr) (root string, field int, idx []ir.Expr) {
	field = -1
	for {
		switch x := e.(type) {
		case *ir.Ident:
			return x.Name, field, idx
		case *ir.Member:
			if _, ok := x.X.(*ir.Ident); ok {
				field = x.Field
			}
			e = x.X
		case *ir.Index:
			idx = append(idx, x.Index)
			e = x.X
		case *ir.Swizzle:
			e = x.X
		default:
			return "", -1, nil
		}
	}
}

// returned is what output member j (-1: the bare result) of every
// return statement depends on.
func (a *depAnalysis) returned(j int) inputDeps {
	var d inputDeps
	ir.Inspect(a.f.Body, func(n ir.Node) bool {
		r, ok := n.(*ir.Return)
		if !ok || r.Value == nil {
			return true
		}
		switch v := r.Value.(type) {
		case *ir.Construct:
			if j >= 0 && len(v.Args) > j && v.T.Kind == ir.KindStruct {
				d |= a.expr(v.Args[j])
				return true
			}
		case *ir.Ident:
			if j >= 0 && v.Ref != ir.RefParam {
				d |= a.local(v.Name, j)
				return true
			}
		}
		d |= a.expr(r.Value)
		return true
	})
	return d
}

// positionDeps is the set of inputs of vertex entry point f that its
// @builtin(position) output may depend on.
func (a *depAnalysis) positionDeps() inputDeps {
	for _, o := range wgsl.StageOutputs(a.f) {
		if o.Builtin == "position" {
			if len(o.Path) == 0 {
				return a.returned(-1)
			}
			return a.returned(o.Path[0])
		}
	}
	return 0
}

// vertexIndexArray is the length of the longest constant-size array f
// indexes by a value that depends on its @builtin(vertex_index) (a
// shader that places its vertices from a table: pos[VertexIndex]), 0
// when it indexes none.
func (a *depAnalysis) vertexIndexArray() int {
	var vi inputDeps
	for k, in := range a.inputs {
		if in.Builtin == "vertex_index" && k < 64 {
			vi |= 1 << k
		}
	}
	if vi == 0 {
		return 0
	}
	longest := 0
	ir.Inspect(a.f.Body, func(n ir.Node) bool {
		if x, ok := n.(*ir.Index); ok && a.expr(x.Index)&vi != 0 {
			if t := x.X.Type(); t != nil && t.Kind == ir.KindArray {
				longest = max(longest, t.Len)
			}
		}
		return true
	})
	return longest
}
