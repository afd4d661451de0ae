package ir

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// The canonical printer. Its output is valid WGSL with concrete types
// everywhere (typed literals, explicit declaration types), minimal but
// grammar-safe parentheses, two-space indentation and one declaration per
// line. It is deterministic: equal IR prints equal text, which is what
// program hashes and golden files rely on. Loops print in the one IR form,
// `loop { … continuing { … break if c; } }`.

// Print returns m as canonical WGSL: directives, structs, private globals,
// other opaque declarations (verbatim), then functions, in module order
// within each group.
func Print(m *Module) string {
	p := &printer{}
	p.module(m)
	return p.b.String()
}

// PrintFunc returns f as canonical WGSL.
func PrintFunc(f *Func) string {
	p := &printer{}
	p.fn(f)
	return p.b.String()
}

// PrintExpr returns e as a WGSL expression.
func PrintExpr(e Expr) string {
	p := &printer{}
	p.expr(e)
	return p.b.String()
}

// PrintStmt returns s as WGSL, indented by depth levels, newline-terminated.
func PrintStmt(s Stmt, depth int) string {
	p := &printer{indent: depth}
	p.stmt(s)
	return p.b.String()
}

// Hash returns the hex SHA-256 of text (used on canonical prints to name
// programs and de-duplicate failures).
func Hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// ProgramText returns the canonical text of what a kernel's behavior
// depends on: the structs, the private globals the call graph uses and the
// call graph's functions, callees first.
func ProgramText(m *Module, kernel string) string {
	p := &printer{}
	for _, s := range m.Structs {
		p.structDecl(s)
	}
	for _, g := range m.GlobalsUsed(kernel) {
		p.global(g)
	}
	for _, f := range m.CallGraph(kernel) {
		p.fn(f)
	}
	return p.b.String()
}

type printer struct {
	b      strings.Builder
	indent int
}

func (p *printer) ws(s string) { p.b.WriteString(s) }

func (p *printer) line() {
	for i := 0; i < p.indent; i++ {
		p.b.WriteString("  ")
	}
}

func isDirective(o *Opaque) bool {
	return o.Kind == "enable" || o.Kind == "requires" || o.Kind == "diagnostic"
}

func (p *printer) module(m *Module) {
	sep := func() {
		if p.b.Len() > 0 {
			p.ws("\n")
		}
	}
	for _, o := range m.Opaque {
		if isDirective(o) {
			p.ws(o.Text)
			p.ws("\n")
		}
	}
	for _, s := range m.Structs {
		sep()
		p.structDecl(s)
	}
	if len(m.Globals) > 0 {
		sep()
		for _, g := range m.Globals {
			p.global(g)
		}
	}
	if len(m.Shared) > 0 {
		sep()
		for _, g := range m.Shared {
			p.ws(g.Decl() + "\n")
		}
	}
	if len(m.Textures) > 0 {
		sep()
		for _, g := range m.Textures {
			p.ws(g.Decl() + "\n")
		}
	}
	for _, o := range m.Opaque {
		if !isDirective(o) {
			sep()
			p.ws(o.Text)
			p.ws("\n")
		}
	}
	for _, f := range m.Funcs {
		sep()
		p.fn(f)
	}
}

func (p *printer) structDecl(s *StructDecl) {
	p.ws("struct " + s.Name + " {\n")
	for _, f := range s.Fields {
		p.ws("  ")
		if f.Builtin != "" {
			p.ws("@builtin(" + f.Builtin + ") ")
		}
		if f.HasLocation {
			p.ws(fmt.Sprintf("@location(%d) ", f.Location))
		}
		if a := f.Interp.Attr(); a != "" {
			p.ws(a + " ")
		}
		if f.Align > 0 {
			p.ws(fmt.Sprintf("@align(%d) ", f.Align))
		}
		if f.Size > 0 {
			p.ws(fmt.Sprintf("@size(%d) ", f.Size))
		}
		p.ws(f.Name + ": " + f.Type.String() + ",\n")
	}
	p.ws("}\n")
}

func (p *printer) global(g *Global) {
	if g.T.Kind == KindStruct && IsPredeclaredStruct(g.T.Struct) && g.Init != nil {
		p.ws("var<private> " + g.Name) // a predeclared result struct has no WGSL spelling
	} else {
		p.ws("var<private> " + g.Name + ": " + g.T.String())
	}
	if g.Init != nil {
		p.ws(" = ")
		p.expr(g.Init)
	}
	p.ws(";\n")
}

func (p *printer) fn(f *Func) {
	switch f.Stage {
	case StageCompute:
		w := f.WorkgroupSize
		p.ws(fmt.Sprintf("@compute @workgroup_size(%d, %d, %d)\n", w[0], w[1], w[2]))
	case StageFragment:
		p.ws("@fragment\n")
	case StageVertex:
		p.ws("@vertex\n")
	}
	p.ws("fn " + f.Name + "(")
	for i, prm := range f.Params {
		if i > 0 {
			p.ws(", ")
		}
		if prm.Builtin != "" {
			p.ws("@builtin(" + prm.Builtin + ") ")
		}
		if prm.HasLocation {
			p.ws(fmt.Sprintf("@location(%d) ", prm.Location))
		}
		if a := prm.Interp.Attr(); a != "" {
			p.ws(a + " ")
		}
		if prm.Ptr != 0 {
			acc := ""
			if prm.Ptr == SpaceStorage && prm.PtrAccess == AccessReadWrite {
				acc = ", read_write"
			}
			p.ws(prm.Name + ": ptr<" + prm.Ptr.String() + ", " + prm.T.String() + acc + ">")
		} else {
			p.ws(prm.Name + ": " + prm.T.String())
		}
	}
	p.ws(")")
	if !f.Result.IsVoid() {
		p.ws(" -> ")
		if f.Stage.IsRenderStage() && f.Result.Kind != KindStruct {
			if f.ResultBuiltin != "" {
				p.ws("@builtin(" + f.ResultBuiltin + ") ")
			} else {
				p.ws(fmt.Sprintf("@location(%d) ", f.ResultLocation))
			}
			if a := f.ResultInterp.Attr(); a != "" {
				p.ws(a + " ")
			}
		}
		p.ws(f.Result.String())
	}
	p.ws(" ")
	p.block(f.Body)
	p.ws("\n")
}

// block prints "{", the statements, and "}" (no trailing newline).
func (p *printer) block(b *Block) {
	if len(b.Stmts) == 0 {
		p.ws("{\n")
		p.line()
		p.ws("}")
		return
	}
	p.ws("{\n")
	p.indent++
	for _, s := range b.Stmts {
		p.stmt(s)
	}
	p.indent--
	p.line()
	p.ws("}")
}

func (p *printer) stmt(s Stmt) {
	p.line()
	switch s := s.(type) {
	case *Block:
		p.block(s)
		p.ws("\n")
	case *Decl:
		if s.Mutable {
			p.ws("var ")
		} else {
			p.ws("let ")
		}
		if s.T.Kind == KindStruct && IsPredeclaredStruct(s.T.Struct) {
			p.ws(s.Name) // a predeclared result struct has no WGSL spelling
		} else {
			p.ws(s.Name + ": " + s.T.String())
		}
		if s.Init != nil {
			p.ws(" = ")
			p.expr(s.Init)
		}
		p.ws(";\n")
	case *Assign:
		p.expr(s.LHS)
		if s.Op == OpNone {
			p.ws(" = ")
		} else {
			p.ws(" " + s.Op.String() + "= ")
		}
		p.expr(s.RHS)
		p.ws(";\n")
	case *ExprStmt:
		// A call, or a void builtin call (a barrier), is a call statement;
		// anything else is a phony assignment.
		_, atomic := s.X.(*Atomic)
		if _, ok := s.X.(*Call); !ok && !atomic && !s.X.Type().IsVoid() {
			p.ws("_ = ")
		}
		p.expr(s.X)
		p.ws(";\n")
	case *If:
		p.ifStmt(s)
		p.ws("\n")
	case *Loop:
		p.ws("loop ")
		if len(s.Continuing.Stmts) == 0 && s.BreakIf == nil {
			p.block(s.Body)
			p.ws("\n")
			return
		}
		p.ws("{\n")
		p.indent++
		for _, st := range s.Body.Stmts {
			p.stmt(st)
		}
		p.line()
		p.ws("continuing {\n")
		p.indent++
		for _, st := range s.Continuing.Stmts {
			p.stmt(st)
		}
		if s.BreakIf != nil {
			p.line()
			p.ws("break if ")
			p.expr(s.BreakIf)
			p.ws(";\n")
		}
		p.indent--
		p.line()
		p.ws("}\n")
		p.indent--
		p.line()
		p.ws("}\n")
	case *Switch:
		p.ws("switch (")
		p.expr(s.Selector)
		p.ws(") {\n")
		p.indent++
		for _, c := range s.Cases {
			p.line()
			if len(c.Values) == 0 && c.Default {
				p.ws("default: ")
			} else {
				p.ws("case ")
				for i, v := range c.Values {
					if i > 0 {
						p.ws(", ")
					}
					p.ws(v.String())
				}
				if c.Default {
					p.ws(", default")
				}
				p.ws(": ")
			}
			p.block(c.Body)
			p.ws("\n")
		}
		p.indent--
		p.line()
		p.ws("}\n")
	case *Break:
		p.ws("break;\n")
	case *Discard:
		p.ws("discard;\n")
	case *Continue:
		p.ws("continue;\n")
	case *Return:
		if s.Value == nil {
			p.ws("return;\n")
		} else {
			p.ws("return ")
			p.expr(s.Value)
			p.ws(";\n")
		}
	default:
		p.ws("<unknown statement>\n")
	}
}

func (p *printer) ifStmt(s *If) {
	p.ws("if (")
	p.expr(s.Cond)
	p.ws(") ")
	p.block(s.Then)
	if len(s.Else.Stmts) == 0 {
		return
	}
	if len(s.Else.Stmts) == 1 {
		if elif, ok := s.Else.Stmts[0].(*If); ok {
			p.ws(" else ")
			p.ifStmt(elif)
			return
		}
	}
	p.ws(" else ")
	p.block(s.Else)
}

// Precedence classes of the WGSL expression grammar (WGSL "Expression
// Grammar Summary"). WGSL forbids mixing some operators without
// parentheses (a & b | c, a << b << c, a < b < c, a && b || c), so the
// printer only omits parentheses where the grammar allows it.
func needParens(parent *Binary, child Expr, right bool) bool {
	c, ok := child.(*Binary)
	if !ok {
		return false
	}
	pc, cc := parent.Op.Info().Class, c.Op.Info().Class
	mult := func(op BinaryOp) bool { return op == OpMul || op == OpDiv || op == OpRem }
	add := func(op BinaryOp) bool { return op == OpAdd || op == OpSub }
	switch {
	case pc == ClassArith && add(parent.Op):
		// additive: additive_expression (+|-) multiplicative_expression
		return !(mult(c.Op) || (add(c.Op) && !right))
	case pc == ClassArith && mult(parent.Op):
		return !(mult(c.Op) && !right)
	case pc == ClassShift:
		return true
	case (parent.Op == OpLt || parent.Op == OpLe) && right:
		// WGSL template-list discovery (#template-lists-sec) would read
		// `a < b >> c` or `a < b > c`'s right side as closing a template
		// `a<…>`: keep any compound right operand of < and <= parenthesized.
		return true
	case pc == ClassOrder || pc == ClassEquality:
		// relational operands are shift expressions (incl. additive)
		return !(cc == ClassArith || cc == ClassShift)
	case pc == ClassBitwise:
		return !(c.Op == parent.Op && !right)
	case pc == ClassLogical:
		if c.Op == parent.Op && !right {
			return false
		}
		return !(cc == ClassOrder || cc == ClassEquality || cc == ClassArith || cc == ClassShift)
	}
	return true
}

func (p *printer) args(es []Expr) {
	p.ws("(")
	for i, e := range es {
		if i > 0 {
			p.ws(", ")
		}
		// `f(a < b, c > d)` would be discovered as the template `a<b, c>`
		// (WGSL #template-lists-sec), and so would `f(x && a < b, c >= d)`:
		// parenthesize an argument with a < or <= among its operators.
		if hasLess(e) {
			p.ws("(")
			p.expr(e)
			p.ws(")")
			continue
		}
		p.expr(e)
	}
	p.ws(")")
}

// hasLess reports whether e is a binary expression with a < or <= among
// the binary operators of its tree (operands the printer may leave without
// parentheses; a unary operand and every other expression bring their own
// brackets).
func hasLess(e Expr) bool {
	b, ok := e.(*Binary)
	if !ok {
		return false
	}
	return b.Op == OpLt || b.Op == OpLe || hasLess(b.X) || hasLess(b.Y)
}

// postfixOperand prints e as the operand of a postfix accessor.
func (p *printer) postfixOperand(e Expr) {
	switch e.(type) {
	case *Binary, *Unary:
		p.ws("(")
		p.expr(e)
		p.ws(")")
	default:
		p.expr(e)
	}
}

var swizzleLetters = "xyzw"

func (p *printer) expr(e Expr) {
	switch e := e.(type) {
	case *Lit:
		p.ws(e.Val.String())
	case *Ident:
		if e.Ref == RefPtr {
			p.ws("(*" + e.Name + ")")
		} else {
			p.ws(e.Name)
		}
	case *AddrOf:
		p.ws("&")
		p.expr(e.X)
	case *Atomic:
		p.ws(e.Op.String() + "(&")
		for i, a := range e.Args {
			if i > 0 {
				p.ws(", ")
			}
			p.expr(a)
		}
		p.ws(")")
	case *TextureCall:
		p.ws(e.Op.String() + "(")
		for i, a := range e.Args {
			if i > 0 {
				p.ws(", ")
			}
			p.expr(a)
		}
		p.ws(")")
	case *ArrayLength:
		p.ws("arrayLength(&")
		p.expr(e.X)
		p.ws(")")
	case *Unary:
		p.ws(e.Op.String())
		paren := false
		switch x := e.X.(type) {
		case *Binary, *Unary:
			paren = true
		case *Lit:
			paren = strings.HasPrefix(x.Val.String(), "-")
		}
		if paren {
			p.ws("(")
			p.expr(e.X)
			p.ws(")")
		} else {
			p.expr(e.X)
		}
	case *Binary:
		if needParens(e, e.X, false) {
			p.ws("(")
			p.expr(e.X)
			p.ws(")")
		} else {
			p.expr(e.X)
		}
		p.ws(" " + e.Op.String() + " ")
		if needParens(e, e.Y, true) {
			p.ws("(")
			p.expr(e.Y)
			p.ws(")")
		} else {
			p.expr(e.Y)
		}
	case *Select:
		p.ws("select")
		p.args([]Expr{e.False, e.True, e.Cond})
	case *Call:
		p.ws(e.Func)
		p.args(e.Args)
	case *BuiltinCall:
		p.ws(e.Fn.Info().Name)
		if e.Fn == BWorkgroupUniformLoad {
			p.args([]Expr{&AddrOf{Pos: e.Pos, X: e.Args[0], T: e.T}})
		} else {
			p.args(e.Args)
		}
	case *Construct:
		p.ws(e.T.String())
		p.args(e.Args)
	case *Convert:
		p.ws(e.T.String())
		p.args([]Expr{e.X})
	case *Bitcast:
		p.ws("bitcast<" + e.T.String() + ">")
		p.args([]Expr{e.X})
	case *Index:
		p.postfixOperand(e.X)
		p.ws("[")
		p.expr(e.Index)
		p.ws("]")
	case *Member:
		p.postfixOperand(e.X)
		p.ws(".")
		if st := e.X.Type(); st != nil && st.Kind == KindStruct && e.Field < len(st.Struct.Fields) {
			p.ws(st.Struct.Fields[e.Field].Name)
		} else {
			p.ws("<bad field>")
		}
	case *Swizzle:
		p.postfixOperand(e.X)
		p.ws(".")
		for _, c := range e.Comps {
			p.b.WriteByte(swizzleLetters[c&3])
		}
	default:
		p.ws("<unknown expression>")
	}
}
