package gen

import (
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// features counts, per construct of the generator's coverage list, the
// programs in which it appears. It reads the normalized IR only.
type features map[string]int

// ctxFrame is one enclosing construct during the coverage walk.
type ctxFrame struct {
	kind  string // "if", "loop", "switch"
	depth int
}

func collectFeatures(p *Program, into features) {
	m := p.Module
	seen := map[string]bool{}
	hit := func(name string) { seen[name] = true }

	var typ func(t *ir.Type)
	typ = func(t *ir.Type) {
		switch t.Kind {
		case ir.KindBool, ir.KindI32, ir.KindU32, ir.KindF32:
			hit("type " + t.String())
		case ir.KindVec:
			hit("type vec" + string(rune('0'+t.Len)) + "<" + t.Elem.String() + ">")
			typ(t.Elem)
		case ir.KindArray:
			hit("type array")
			if t.Elem.Kind == ir.KindStruct {
				hit("type array of struct")
			}
			typ(t.Elem)
		case ir.KindStruct:
			hit("type struct")
			for _, f := range t.Struct.Fields {
				if f.Type.Kind == ir.KindVec {
					hit("type struct of vector")
				}
			}
		}
	}
	for _, g := range m.Globals {
		typ(g.T)
	}
	kernel := m.Func(p.Kernel)
	if kernel.Result.IsVoid() {
		hit("void kernel")
	} else {
		hit("kernel returning a value")
	}
	for _, f := range m.Funcs {
		for _, prm := range f.Params {
			typ(prm.T)
		}
		if !f.Result.IsVoid() {
			typ(f.Result)
		}
		if f.Name != p.Kernel && f.Result.IsVoid() {
			writes := ir.Any(f.Body, func(n ir.Node) bool {
				a, ok := n.(*ir.Assign)
				return ok && ir.RootIdent(a.LHS) != nil && ir.RootIdent(a.LHS).Ref == ir.RefGlobal
			})
			if writes {
				hit("void helper writing a global")
			}
		}
	}
	if d := callDepth(m, p.Kernel); d >= 3 {
		hit("call chain of depth >= 3")
	}
	_, bounds := loopReport(m)
	for _, b := range bounds {
		switch {
		case b.Step != 1 && b.Step != -1:
			hit("loop with step other than ±1")
		}
		if b.Step < 0 {
			hit("descending loop")
		}
		if b.Exact {
			hit("fixed-count loop")
		} else {
			hit("loop with data-dependent exit")
		}
	}

	var stack []ctxFrame
	in := func(kind string) bool {
		for _, f := range stack {
			if f.kind == kind {
				return true
			}
		}
		return false
	}
	innermostBreakable := func() string {
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i].kind == "loop" || stack[i].kind == "switch" {
				return stack[i].kind
			}
		}
		return ""
	}
	count := func(kind string) int {
		n := 0
		for _, f := range stack {
			if f.kind == kind {
				n++
			}
		}
		return n
	}
	var stmt func(s ir.Stmt)
	block := func(b *ir.Block) {
		for _, s := range b.Stmts {
			stmt(s)
		}
	}
	push := func(kind string) { stack = append(stack, ctxFrame{kind: kind, depth: len(stack)}) }
	pop := func() { stack = stack[:len(stack)-1] }
	stmt = func(s ir.Stmt) {
		switch s := s.(type) {
		case *ir.Block:
			block(s)
		case *ir.Decl:
			typ(s.T)
			if strings.HasPrefix(s.Name, "sc_cond") {
				hit("call in && / || right operand")
			}
		case *ir.Assign:
			switch lhs := s.LHS.(type) {
			case *ir.Swizzle:
				hit("component write v.x = e")
			case *ir.Member:
				hit("field write s.f = e")
			case *ir.Index:
				if lhs.X.Type().Kind == ir.KindArray {
					hit("element write a[i] = e")
				} else {
					hit("vector index write v[i] = e")
				}
			}
			if len(chainOf(s.LHS)) >= 3 {
				hit("nested write a[i].f.x = e")
			}
			if s.Op != ir.OpNone {
				if l, ok := s.RHS.(*ir.Lit); ok && l.Val.Type.IsInteger() && l.Val.Bits == 1 && (s.Op == ir.OpAdd || s.Op == ir.OpSub) {
					hit("increment/decrement")
				} else {
					hit("compound assignment")
				}
			}
		case *ir.ExprStmt:
			if c, ok := s.X.(*ir.Call); ok && c.T.IsVoid() {
				hit("void call statement")
			}
		case *ir.If:
			if ir.HasCall(s.Cond) {
				hit("call in if condition")
			}
			if in("if") {
				hit("nested if")
			}
			if len(s.Else.Stmts) == 1 {
				if _, ok := s.Else.Stmts[0].(*ir.If); ok {
					hit("else-if chain")
				}
			}
			push("if")
			block(s.Then)
			block(s.Else)
			pop()
		case *ir.Loop:
			if in("loop") {
				hit("nested loop")
			}
			if s.BreakIf != nil {
				hit("loop with break if")
			}
			if len(s.Continuing.Stmts) == 0 && s.BreakIf == nil {
				hit("while loop (counter updated in the body)")
			}
			if len(s.Body.Stmts) > 0 {
				if iff, ok := s.Body.Stmts[0].(*ir.If); ok && ir.Any(iff.Cond, func(n ir.Node) bool {
					_, isMin := isBuiltin2(n, ir.BMin)
					return isMin
				}) {
					hit("loop bounded by min(n, C)")
				}
			}
			push("loop")
			block(s.Body)
			block(s.Continuing)
			pop()
		case *ir.Switch:
			if in("loop") {
				hit("switch in loop")
			}
			for i, c := range s.Cases {
				if len(c.Values) > 1 {
					hit("case with several values")
				}
				if c.Default && len(c.Values) > 0 {
					hit("default beside values")
				}
				if c.Default && len(c.Values) == 0 && i < len(s.Cases)-1 {
					hit("default not last")
				}
			}
			push("switch")
			for _, c := range s.Cases {
				block(c.Body)
			}
			pop()
		case *ir.Return:
			if len(stack) > 0 {
				hit("early return")
			}
			if in("if") {
				hit("return inside if")
			}
			if in("loop") {
				hit("return inside loop")
			}
			if in("switch") {
				hit("return inside switch")
			}
			if len(stack) >= 3 {
				hit("return at depth >= 3")
			}
		case *ir.Break:
			if innermostBreakable() == "loop" && in("if") {
				hit("break inside if inside loop")
			}
			if innermostBreakable() == "switch" && in("loop") {
				hit("break inside switch inside loop")
			}
		case *ir.Continue:
			if in("if") {
				hit("continue inside if")
			}
			if in("switch") {
				hit("continue inside switch inside loop")
			}
		}
		_ = count
	}
	for _, f := range m.Funcs {
		block(f.Body)
	}
	walkExprs(m, func(e, parent ir.Expr) {
		switch x := e.(type) {
		case *ir.Select:
			if ir.HasCall(x.True) || ir.HasCall(x.False) {
				hit("call in select arm")
			}
		case *ir.Construct:
			hit("constructor")
		}
	})
	for k := range seen {
		into[k]++
	}
}

func isBuiltin2(n ir.Node, fn ir.Builtin) (*ir.BuiltinCall, bool) {
	b, ok := n.(*ir.BuiltinCall)
	return b, ok && b.Fn == fn
}

// chainOf returns the access chain of a reference, root first.
func chainOf(e ir.Expr) []ir.Expr {
	var out []ir.Expr
	for {
		out = append([]ir.Expr{e}, out...)
		switch x := e.(type) {
		case *ir.Index:
			e = x.X
		case *ir.Member:
			e = x.X
		case *ir.Swizzle:
			e = x.X
		default:
			return out
		}
	}
}

// callDepth returns the number of helpers on the longest call chain below
// name (0 when name calls nothing).
func callDepth(m *ir.Module, name string) int {
	memo := map[string]int{}
	var depth func(n string, onPath map[string]bool) int
	depth = func(n string, onPath map[string]bool) int {
		if d, ok := memo[n]; ok {
			return d
		}
		f := m.Func(n)
		if f == nil || onPath[n] {
			return 0
		}
		onPath[n] = true
		best := 0
		for _, c := range ir.Callees(f) {
			if d := 1 + depth(c, onPath); d > best {
				best = d
			}
		}
		onPath[n] = false
		memo[n] = best
		return best
	}
	return depth(name, map[string]bool{})
}

// coverageList is every construct the generator must produce.
var coverageList = []string{
	"type bool", "type i32", "type u32", "type f32",
	"type vec2<bool>", "type vec3<bool>", "type vec4<bool>",
	"type vec2<i32>", "type vec3<i32>", "type vec4<i32>",
	"type vec2<u32>", "type vec3<u32>", "type vec4<u32>",
	"type vec2<f32>", "type vec3<f32>", "type vec4<f32>",
	"type struct", "type array", "type array of struct", "type struct of vector",
	"nested if", "else-if chain",
	"early return", "return inside if", "return inside loop", "return inside switch", "return at depth >= 3",
	"call chain of depth >= 3",
	"fixed-count loop", "loop with step other than ±1", "descending loop", "loop bounded by min(n, C)",
	"loop with data-dependent exit", "while loop (counter updated in the body)", "loop with break if", "nested loop",
	"break inside if inside loop", "continue inside if", "break inside switch inside loop", "continue inside switch inside loop",
	"switch in loop", "case with several values", "default beside values", "default not last",
	"compound assignment", "increment/decrement",
	"component write v.x = e", "field write s.f = e", "element write a[i] = e", "vector index write v[i] = e", "nested write a[i].f.x = e",
	"void helper writing a global", "void call statement", "kernel returning a value", "void kernel",
	"call in if condition", "call in && / || right operand", "call in select arm",
	"constructor",
}
