package wgsl

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// The parser: recursive descent over the whole WGSL grammar (WGSL
// "Grammar for Recursive Descent Parsing", #expression-grammar,
// #statements-summary), one token of lookahead, building the ast. It stops
// at the first syntax error (errors from the lexer before it are kept).

// maxErrors bounds the number of diagnostics a Parse reports.
const maxErrors = 10

// diagList collects positioned diagnostics for one source file.
type diagList struct {
	file  string
	lines []int32
	list  ir.ErrorList
}

func (d *diagList) pos(off int32) ir.Pos { return lexPosOf(d.lines, off) }

// add records "file:line:col: pass: msg" unless maxErrors were recorded.
func (d *diagList) add(off int32, pass, msg string) {
	if len(d.list) >= maxErrors {
		return
	}
	d.list = append(d.list, &ir.Error{File: d.file, Pos: d.pos(off), Pass: pass, Msg: msg})
}

func (d *diagList) full() bool { return len(d.list) >= maxErrors }

// pBailout is the panic value that unwinds the parser after a syntax
// error; parseSource recovers it. It never escapes the package.
type pBailout struct{}

// pMaxDepth bounds the nesting of expressions and statements
// (parentheses, unary operators, calls, indices, members, blocks), so that
// every later recursive pass over the tree has bounded depth. The
// operators of a left-associative chain (a + b - c + …, a * b * …,
// a & b & …, a && b && …) are parsed in a loop and enter no level: such a
// chain is bounded by pMaxChain instead.
const pMaxDepth = 1000

// pMaxChain bounds the binary operators of the left-associative chains in
// one outermost expression. A chain of n operators is a left-leaning tree n
// deep, and the later passes recurse over it, so the depth of an
// expression's tree stays below pMaxDepth + pMaxChain (within Go's stacks:
// a 4 MiB source of 1+1+… would otherwise be a tree two million deep).
const pMaxChain = 100_000

type parser struct {
	depth   int
	inExpr  bool // inside an expression (chain counts for the outermost one)
	chain   int  // operators of left-associative chains in the current outermost expression
	src     []byte
	lx      *lexer
	diags   *diagList
	tok     lexTok
	prevEnd int32
	decls   []*astDecl
	sawDecl bool
}

// parseSource parses src into module-scope declarations. Syntax errors are
// recorded in diags; ok is false when parsing stopped early.
func parseSource(src []byte, diags *diagList) (decls []*astDecl, ok bool) {
	p := &parser{src: src, diags: diags}
	p.lx = newLexer(src, func(off int32, msg string) { diags.add(off, "parse", msg) })
	diags.lines = p.lx.lines
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(pBailout); !isBail {
				panic(r)
			}
			decls, ok = p.decls, false
		}
	}()
	p.next()
	p.module()
	return p.decls, !p.lx.fatal
}

func (p *parser) next() {
	p.prevEnd = p.tok.end
	p.tok = p.lx.next()
	if p.lx.fatal {
		panic(pBailout{})
	}
}

func (p *parser) text(t lexTok) string { return string(p.src[t.off:t.end]) }

func (p *parser) isKw(word string) bool {
	return p.tok.kind == lexKeyword && p.text(p.tok) == word
}

// describe names a token for an error message.
func (p *parser) describe(t lexTok) string {
	switch t.kind {
	case lexEOF:
		return "end of file"
	case lexIdent:
		return fmt.Sprintf("identifier '%s'", p.text(t))
	case lexIntLit, lexFloatLit:
		return fmt.Sprintf("literal '%s'", p.text(t))
	case lexKeyword:
		return fmt.Sprintf("'%s'", p.text(t))
	}
	return fmt.Sprintf("'%s'", lexSpelling[t.kind])
}

// failf records a syntax error at off and unwinds the parser.
func (p *parser) failf(off int32, format string, args ...any) {
	p.diags.add(off, "parse", fmt.Sprintf(format, args...))
	panic(pBailout{})
}

// expect consumes a token of kind k, or fails with
// "expected 'k' <where>, found <tok>".
func (p *parser) expect(k lexKind, where string) lexTok {
	if p.tok.kind != k {
		p.failf(p.tok.off, "expected '%s' %s, found %s", lexSpelling[k], where, p.describe(p.tok))
	}
	t := p.tok
	p.next()
	return t
}

// pSuffixError describes a numeric literal lit directly followed by the
// letters suffix (WGSL #numeric-literals: the suffixes are i and u for
// integers, f and h for floats).
func pSuffixError(lit, suffix string) string {
	msg := fmt.Sprintf("invalid numeric literal %s%s: %q is not a WGSL literal suffix (i, u, f, h)", lit, suffix, suffix)
	switch suffix {
	case "li", "lu", "lf":
		msg += "; 64-bit literals (i64, u64, f64) are a naga extension outside WGSL and gpudiff's subset"
	}
	return msg
}

// ident consumes an identifier and returns its name and offset.
func (p *parser) ident(what string) (string, int32) {
	if p.tok.kind != lexIdent {
		p.failf(p.tok.off, "expected %s, found %s", what, p.describe(p.tok))
	}
	t := p.tok
	p.next()
	return p.text(t), t.off
}

// deeper enters one nesting level.
func (p *parser) deeper(off int32) {
	p.depth++
	if p.depth > pMaxDepth {
		p.failf(off, "expressions and statements may nest at most %d levels deep", pMaxDepth)
	}
}

// link counts one operator, at off, of a left-associative chain: it enters
// no nesting level (the chain is parsed in a loop), but the outermost
// expression may hold at most pMaxChain of them.
func (p *parser) link(off int32) {
	p.chain++
	if p.chain > pMaxChain {
		p.failf(off, "an expression may chain at most %d binary operators", pMaxChain)
	}
}

// split replaces the current two-character token by its first character
// (WGSL #parsing: tokenization is context-aware, so "--" in an operand
// position is two '-' tokens, and "&&" in a unary position is two '&').
func (p *parser) split(k lexKind) {
	p.tok = lexTok{kind: k, off: p.tok.off, end: p.tok.off + 1}
	p.lx.pos = int(p.tok.end)
}

// ---- module scope ----

func (p *parser) module() {
	for p.tok.kind != lexEOF {
		start := p.tok.off
		if p.tok.kind == lexSemi {
			p.next()
			continue
		}
		if p.tok.kind == lexKeyword {
			switch w := p.text(p.tok); w {
			case "enable", "requires", "diagnostic":
				if p.sawDecl {
					p.failf(p.tok.off, "directive '%s' must appear before any declaration", w)
				}
				p.decls = append(p.decls, p.directive(w))
				continue
			}
		}
		p.sawDecl = true
		attrs := p.attrs()
		var d *astDecl
		noAttrs := func(what string) {
			if len(attrs) > 0 {
				p.failf(attrs[0].off, "attributes are not allowed on %s", what)
			}
		}
		switch {
		case p.isKw("var"):
			d = p.globalVar()
			p.expect(lexSemi, "after variable declaration")
		case p.isKw("override"):
			d = p.valueDecl("override")
			p.expect(lexSemi, "after override declaration")
		case p.isKw("const"):
			noAttrs("a const declaration")
			d = p.valueDecl("const")
			p.expect(lexSemi, "after const declaration")
		case p.isKw("alias"):
			noAttrs("a type alias")
			d = &astDecl{kind: "alias", kwOff: p.tok.off}
			p.next()
			d.name, d.nameOff = p.ident("alias name")
			p.expect(lexAssign, "in type alias")
			d.typ = p.typeSpec()
			p.expect(lexSemi, "after type alias")
		case p.isKw("struct"):
			noAttrs("a struct declaration")
			d = p.structDecl()
		case p.isKw("fn"):
			d = p.fnDecl()
		case p.isKw("const_assert"):
			noAttrs("const_assert")
			d = &astDecl{kind: "const_assert", kwOff: p.tok.off}
			p.next()
			d.init = p.expr()
			p.expect(lexSemi, "after const_assert")
		default:
			p.failf(p.tok.off, "expected a declaration, found %s", p.describe(p.tok))
		}
		d.attrs = attrs
		d.off, d.end = start, p.prevEnd
		p.decls = append(p.decls, d)
	}
}

func (p *parser) directive(kw string) *astDecl {
	d := &astDecl{kind: kw, off: p.tok.off, kwOff: p.tok.off}
	p.next()
	if kw == "diagnostic" {
		d.args = p.argList("diagnostic")
	} else {
		for {
			name, off := p.ident("extension name")
			d.names = append(d.names, name)
			d.nameOffs = append(d.nameOffs, off)
			if p.tok.kind != lexComma {
				break
			}
			p.next()
			if p.tok.kind == lexSemi {
				break
			}
		}
	}
	p.expect(lexSemi, "after "+kw+" directive")
	d.end = p.prevEnd
	return d
}

func (p *parser) globalVar() *astDecl {
	v := p.varDecl()
	return &astDecl{kind: "var", kwOff: v.off, name: v.name, nameOff: v.nameOff,
		hasTmpl: v.hasTmpl, tmpl: v.tmpl, typ: v.typ, init: v.init}
}

// valueDecl parses const or override: kw name [: type] [= init].
func (p *parser) valueDecl(kw string) *astDecl {
	d := &astDecl{kind: kw, kwOff: p.tok.off}
	p.next()
	d.name, d.nameOff = p.ident(kw + " name")
	if p.tok.kind == lexColon {
		p.next()
		d.typ = p.typeSpec()
	}
	if kw == "const" || p.tok.kind == lexAssign {
		p.expect(lexAssign, "in "+kw+" declaration")
		d.init = p.expr()
	}
	return d
}

func (p *parser) structDecl() *astDecl {
	d := &astDecl{kind: "struct", kwOff: p.tok.off}
	p.next()
	d.name, d.nameOff = p.ident("struct name")
	p.expect(lexLBrace, "after struct name")
	for {
		m := &astMember{off: p.tok.off}
		m.attrs = p.attrs()
		var nameOff int32
		m.name, nameOff = p.ident("struct member name")
		if len(m.attrs) == 0 {
			m.off = nameOff
		}
		p.expect(lexColon, "after struct member name")
		m.typ = p.typeSpec()
		d.members = append(d.members, m)
		if p.tok.kind != lexComma {
			break
		}
		p.next()
		if p.tok.kind == lexRBrace {
			break
		}
	}
	p.expect(lexRBrace, "after struct members")
	return d
}

func (p *parser) fnDecl() *astDecl {
	d := &astDecl{kind: "fn", kwOff: p.tok.off}
	p.next()
	d.name, d.nameOff = p.ident("function name")
	p.expect(lexLParen, "after function name")
	for p.tok.kind != lexRParen {
		prm := &astParam{off: p.tok.off}
		prm.attrs = p.attrs()
		var nameOff int32
		prm.name, nameOff = p.ident("parameter name")
		if len(prm.attrs) == 0 {
			prm.off = nameOff
		}
		p.expect(lexColon, "after parameter name")
		prm.typ = p.typeSpec()
		d.params = append(d.params, prm)
		if p.tok.kind != lexComma {
			break
		}
		p.next()
	}
	p.expect(lexRParen, "after function parameters")
	if p.tok.kind == lexArrow {
		p.next()
		d.retAttrs = p.attrs()
		d.ret = p.typeSpec()
	}
	if p.tok.kind != lexLBrace {
		p.failf(p.tok.off, "expected '{' to begin the function body, found %s", p.describe(p.tok))
	}
	d.body = p.block(nil)
	return d
}

// attrs parses zero or more attributes.
func (p *parser) attrs() []*astAttr {
	var out []*astAttr
	for p.tok.kind == lexAt {
		a := &astAttr{off: p.tok.off}
		p.next()
		if p.tok.kind != lexIdent && p.tok.kind != lexKeyword {
			p.failf(p.tok.off, "expected attribute name after '@', found %s", p.describe(p.tok))
		}
		a.name = p.text(p.tok)
		p.next()
		if p.tok.kind == lexLParen {
			a.hasArgs = true
			a.args = p.argList("attribute @" + a.name)
		}
		out = append(out, a)
	}
	return out
}

// argList parses '(' expression_comma_list? ')'.
func (p *parser) argList(what string) []astExpr {
	p.expect(lexLParen, "before arguments of "+what)
	var args []astExpr
	for p.tok.kind != lexRParen {
		args = append(args, p.expr())
		if p.tok.kind != lexComma {
			break
		}
		p.next()
	}
	p.expect(lexRParen, "after arguments of "+what)
	return args
}

// ---- types and identifiers ----

// typeSpec parses a type_specifier (template_elaborated_ident).
func (p *parser) typeSpec() *astIdentExpr {
	if p.tok.kind != lexIdent {
		p.failf(p.tok.off, "expected a type, found %s", p.describe(p.tok))
	}
	return p.templateIdent()
}

// templateIdent parses ident template_list?.
func (p *parser) templateIdent() *astIdentExpr {
	id := &astIdentExpr{off: p.tok.off, name: p.text(p.tok)}
	p.next()
	if p.tok.kind == lexTemplateStart {
		id.hasTmpl = true
		id.tmpl = p.templateList()
	}
	return id
}

// templateList parses '<' expr (',' expr)* ','? '>' (WGSL #template-lists-sec).
func (p *parser) templateList() []astExpr {
	p.next()
	var args []astExpr
	for {
		args = append(args, p.expr())
		if p.tok.kind != lexComma {
			break
		}
		p.next()
		if p.tok.kind == lexTemplateEnd {
			break
		}
	}
	if p.tok.kind != lexTemplateEnd {
		p.failf(p.tok.off, "expected '>' to end the template list, found %s", p.describe(p.tok))
	}
	p.next()
	return args
}

// ---- expressions (WGSL #expression-grammar) ----

func isBitwiseOp(k lexKind) bool { return k == lexAnd || k == lexOr || k == lexXor }
func isCompareOp(k lexKind) bool {
	return k == lexEqEq || k == lexNotEq || k == lexLt || k == lexLe || k == lexGt || k == lexGe
}
func isShiftOp(k lexKind) bool { return k == lexShl || k == lexShr }
func isMulOp(k lexKind) bool   { return k == lexStar || k == lexSlash || k == lexPercent }
func isAddOp(k lexKind) bool   { return k == lexPlus || k == lexMinus || k == lexMinusMinus }

// isBinaryOp reports whether k is any infix operator.
func isBinaryOp(k lexKind) bool {
	return isBitwiseOp(k) || isCompareOp(k) || isShiftOp(k) || isMulOp(k) || isAddOp(k) ||
		k == lexAndAnd || k == lexOrOr
}

// expr parses an expression:
//
//	expression: relational_expression
//	  | short_circuit_or_expression '||' relational_expression
//	  | short_circuit_and_expression '&&' relational_expression
//	  | bitwise_expression
//
// WGSL has no precedence between &, |, ^ and the other binary operators,
// and does not chain comparisons or mix && with ||: such mixtures need
// parentheses (WGSL #operator-precedence-associativity).
func (p *parser) expr() astExpr {
	p.deeper(p.tok.off)
	defer func(d int) { p.depth = d }(p.depth - 1)
	if !p.inExpr {
		p.inExpr, p.chain = true, 0
		defer func() { p.inExpr = false }()
	}
	u := p.unary()
	if k := p.tok.kind; isBitwiseOp(k) {
		x := u
		for p.tok.kind == k {
			off := p.tok.off
			p.link(off)
			p.next()
			x = &astBinaryExpr{off: off, op: k, x: x, y: p.unary()}
		}
		if isBinaryOp(p.tok.kind) {
			p.failf(p.tok.off, "mixing '%s' and '%s' requires parentheses", lexSpelling[k], lexSpelling[p.tok.kind])
		}
		return x
	}
	x := p.relationalFrom(u)
	if k := p.tok.kind; k == lexAndAnd || k == lexOrOr {
		for p.tok.kind == k {
			off := p.tok.off
			p.link(off)
			p.next()
			x = &astBinaryExpr{off: off, op: k, x: x, y: p.relationalFrom(p.unary())}
		}
		if p.tok.kind == lexAndAnd || p.tok.kind == lexOrOr {
			p.failf(p.tok.off, "mixing '&&' and '||' requires parentheses")
		}
	}
	if isBitwiseOp(p.tok.kind) {
		p.failf(p.tok.off, "mixing '%s' with other operators requires parentheses", lexSpelling[p.tok.kind])
	}
	return x
}

// relationalFrom continues a relational_expression whose first unary
// operand u was already parsed.
func (p *parser) relationalFrom(u astExpr) astExpr {
	x := p.shiftFrom(u)
	if k := p.tok.kind; isCompareOp(k) {
		off := p.tok.off
		p.next()
		x = &astBinaryExpr{off: off, op: k, x: x, y: p.shiftFrom(p.unary())}
		if isCompareOp(p.tok.kind) {
			p.failf(p.tok.off, "comparisons cannot be chained; use parentheses")
		}
	}
	return x
}

// shiftFrom continues a shift_expression (an additive_expression, or
// unary shift_operator unary) from its first unary operand u.
func (p *parser) shiftFrom(u astExpr) astExpr {
	if k := p.tok.kind; isShiftOp(k) {
		off := p.tok.off
		p.next()
		x := &astBinaryExpr{off: off, op: k, x: u, y: p.unary()}
		if isShiftOp(p.tok.kind) || isMulOp(p.tok.kind) || isAddOp(p.tok.kind) {
			p.failf(p.tok.off, "mixing '%s' with '%s' requires parentheses", lexSpelling[k], lexSpelling[p.tok.kind])
		}
		return x
	}
	x := p.mulFrom(u)
	for isAddOp(p.tok.kind) {
		if p.tok.kind == lexMinusMinus {
			p.split(lexMinus)
		}
		k, off := p.tok.kind, p.tok.off
		p.link(off)
		p.next()
		x = &astBinaryExpr{off: off, op: k, x: x, y: p.mulFrom(p.unary())}
	}
	if isShiftOp(p.tok.kind) {
		p.failf(p.tok.off, "mixing '%s' with arithmetic requires parentheses", lexSpelling[p.tok.kind])
	}
	return x
}

func (p *parser) mulFrom(u astExpr) astExpr {
	x := u
	for isMulOp(p.tok.kind) {
		k, off := p.tok.kind, p.tok.off
		p.link(off)
		p.next()
		x = &astBinaryExpr{off: off, op: k, x: x, y: p.unary()}
	}
	return x
}

// unary parses a unary_expression.
func (p *parser) unary() astExpr {
	switch p.tok.kind {
	case lexMinusMinus:
		p.split(lexMinus)
	case lexAndAnd:
		p.split(lexAnd)
	}
	switch k := p.tok.kind; k {
	case lexMinus, lexBang, lexTilde, lexStar, lexAnd:
		off := p.tok.off
		p.deeper(off)
		defer func(d int) { p.depth = d }(p.depth - 1)
		p.next()
		return &astUnaryExpr{off: off, op: k, x: p.unary()}
	}
	return p.postfix(p.primary())
}

func (p *parser) primary() astExpr {
	switch p.tok.kind {
	case lexIntLit, lexFloatLit:
		t := p.tok
		p.next()
		if p.tok.kind == lexIdent && p.tok.off == t.end {
			// WGSL tokenizes 1li as 1 and li, which never parses: say what
			// the letters are instead of the generic "expected …".
			p.failf(t.off, "%s", pSuffixError(p.text(t), p.text(p.tok)))
		}
		return &astLitExpr{off: t.off, end: t.end, kind: t.kind, text: p.text(t)}
	case lexLParen:
		off := p.tok.off
		p.next()
		x := p.expr()
		p.expect(lexRParen, "to close the parenthesized expression")
		return &astParenExpr{off: off, x: x}
	case lexIdent:
		id := p.templateIdent()
		if p.tok.kind == lexLParen {
			return &astCallExpr{callee: id, args: p.argList(id.name)}
		}
		return id
	case lexKeyword:
		if w := p.text(p.tok); w == "true" || w == "false" {
			t := p.tok
			p.next()
			return &astLitExpr{off: t.off, end: t.end, kind: lexKeyword, text: w}
		}
	}
	p.failf(p.tok.off, "expected an expression, found %s", p.describe(p.tok))
	return nil
}

// postfix parses component_or_swizzle_specifier*.
func (p *parser) postfix(x astExpr) astExpr {
	depth := p.depth
	defer func() { p.depth = depth }()
	for {
		switch p.tok.kind {
		case lexLBrack, lexDot:
			p.deeper(p.tok.off)
		}
		switch p.tok.kind {
		case lexLBrack:
			off := p.tok.off
			p.next()
			idx := p.expr()
			p.expect(lexRBrack, "after index")
			x = &astIndexExpr{off: off, x: x, index: idx}
		case lexDot:
			p.next()
			name, off := p.ident("member name after '.'")
			x = &astMemberExpr{off: off, x: x, name: name}
		default:
			return x
		}
	}
}

// lhs parses an lhs_expression.
func (p *parser) lhs() astExpr {
	if p.tok.kind == lexAndAnd {
		p.split(lexAnd)
	}
	switch k := p.tok.kind; k {
	case lexStar, lexAnd:
		off := p.tok.off
		p.next()
		return &astUnaryExpr{off: off, op: k, x: p.lhs()}
	case lexLParen:
		off := p.tok.off
		p.next()
		x := p.lhs()
		p.expect(lexRParen, "to close the parenthesized reference")
		return p.postfix(&astParenExpr{off: off, x: x})
	case lexIdent:
		id := &astIdentExpr{off: p.tok.off, name: p.text(p.tok)}
		p.next()
		return p.postfix(id)
	}
	p.failf(p.tok.off, "expected a statement, found %s", p.describe(p.tok))
	return nil
}

// ---- statements (WGSL #statements-summary) ----

// block parses attrs? '{' statement* '}' (attrs already parsed when given).
func (p *parser) block(attrs []*astAttr) *astBlock {
	b := &astBlock{off: p.tok.off, attrs: attrs}
	if len(attrs) > 0 {
		b.off = attrs[0].off
	}
	p.expect(lexLBrace, "to begin a block")
	for p.tok.kind != lexRBrace {
		if p.tok.kind == lexEOF {
			p.failf(p.tok.off, "expected '}' to end the block, found end of file")
		}
		b.stmts = append(b.stmts, p.stmt())
	}
	b.end = p.tok.off
	p.next()
	return b
}

func (p *parser) semi() { p.expect(lexSemi, "after statement") }

func (p *parser) stmt() astStmt {
	p.deeper(p.tok.off)
	defer func(d int) { p.depth = d }(p.depth - 1)
	switch p.tok.kind {
	case lexSemi:
		off := p.tok.off
		p.next()
		return &astEmptyStmt{off: off}
	case lexLBrace:
		return p.block(nil)
	case lexAt:
		attrs := p.attrs()
		switch {
		case p.tok.kind == lexLBrace:
			return p.block(attrs)
		case p.isKw("if"):
			return p.ifStmt(attrs)
		case p.isKw("switch"):
			return p.switchStmt(attrs)
		case p.isKw("loop"):
			return p.loopStmt(attrs)
		case p.isKw("for"):
			return p.forStmt(attrs)
		case p.isKw("while"):
			return p.whileStmt(attrs)
		}
		p.failf(p.tok.off, "expected a compound, if, switch, loop, for or while statement after attributes, found %s", p.describe(p.tok))
	case lexKeyword:
		off := p.tok.off
		switch w := p.text(p.tok); w {
		case "return":
			p.next()
			s := &astReturnStmt{off: off}
			if p.tok.kind != lexSemi {
				s.x = p.expr()
			}
			p.semi()
			return s
		case "if":
			return p.ifStmt(nil)
		case "switch":
			return p.switchStmt(nil)
		case "loop":
			return p.loopStmt(nil)
		case "for":
			return p.forStmt(nil)
		case "while":
			return p.whileStmt(nil)
		case "break":
			p.next()
			if p.isKw("if") {
				p.failf(off, "'break if' is only allowed as the last statement of a continuing block")
			}
			p.semi()
			return &astBreakStmt{off: off}
		case "continue":
			p.next()
			p.semi()
			return &astContinueStmt{off: off}
		case "discard":
			p.next()
			p.semi()
			return &astDiscardStmt{off: off}
		case "var", "let", "const":
			s := p.localDecl()
			p.semi()
			return s
		case "const_assert":
			p.next()
			s := &astConstAssertStmt{off: off, x: p.expr()}
			p.semi()
			return s
		case "continuing":
			p.failf(off, "'continuing' is only allowed as the last statement of a loop body")
		}
		p.failf(off, "expected a statement, found %s", p.describe(p.tok))
	}
	s := p.updatingOrCall()
	p.semi()
	return s
}

// localDecl parses variable_or_value_statement.
func (p *parser) localDecl() *astVarStmt {
	kw := p.text(p.tok)
	if kw == "var" {
		return p.varDecl()
	}
	s := &astVarStmt{off: p.tok.off, kw: kw}
	p.next()
	s.name, s.nameOff = p.ident(kw + " name")
	if p.tok.kind == lexColon {
		p.next()
		s.typ = p.typeSpec()
	}
	p.expect(lexAssign, "in "+kw+" declaration")
	s.init = p.expr()
	return s
}

// varDecl parses 'var' template_list? name (':' type)? ('=' expr)?.
func (p *parser) varDecl() *astVarStmt {
	s := &astVarStmt{off: p.tok.off, kw: "var"}
	p.next()
	if p.tok.kind == lexTemplateStart {
		s.hasTmpl = true
		s.tmpl = p.templateList()
	}
	s.name, s.nameOff = p.ident("variable name")
	if p.tok.kind == lexColon {
		p.next()
		s.typ = p.typeSpec()
	}
	if p.tok.kind == lexAssign {
		p.next()
		s.init = p.expr()
	}
	return s
}

func isCompoundAssign(k lexKind) bool {
	switch k {
	case lexPlusAssign, lexMinusAssign, lexStarAssign, lexSlashAssign, lexPercentAssgn,
		lexAndAssign, lexOrAssign, lexXorAssign, lexShrAssign, lexShlAssign:
		return true
	}
	return false
}

// updatingOrCall parses a variable_updating_statement or a
// func_call_statement (without the ';').
func (p *parser) updatingOrCall() astStmt {
	if p.tok.kind == lexUnderscore {
		p.next()
		off := p.tok.off
		p.expect(lexAssign, "after '_'")
		return &astAssignStmt{off: off, op: lexAssign, rhs: p.expr()}
	}
	var lhs astExpr
	if p.tok.kind == lexIdent {
		id := p.templateIdent()
		if p.tok.kind == lexLParen {
			return &astCallStmt{call: &astCallExpr{callee: id, args: p.argList(id.name)}}
		}
		if id.hasTmpl {
			p.failf(p.tok.off, "expected '(' to call %s, found %s", id.name, p.describe(p.tok))
		}
		lhs = p.postfix(id)
	} else {
		lhs = p.lhs()
	}
	switch k := p.tok.kind; {
	case k == lexAssign || isCompoundAssign(k):
		off := p.tok.off
		p.next()
		return &astAssignStmt{off: off, lhs: lhs, op: k, rhs: p.expr()}
	case k == lexPlusPlus || k == lexMinusMinus:
		off := p.tok.off
		p.next()
		return &astIncDecStmt{off: off, lhs: lhs, inc: k == lexPlusPlus}
	}
	p.failf(p.tok.off, "expected an assignment, '++' or '--', found %s", p.describe(p.tok))
	return nil
}

func (p *parser) ifStmt(attrs []*astAttr) *astIfStmt {
	p.deeper(p.tok.off)
	defer func(d int) { p.depth = d }(p.depth - 1)
	s := &astIfStmt{off: p.tok.off, attrs: attrs}
	p.next()
	s.cond = p.expr()
	s.then = p.block(p.attrs())
	if p.isKw("else") {
		p.next()
		if p.isKw("if") {
			s.els = p.ifStmt(nil)
		} else {
			s.els = p.block(p.attrs())
		}
	}
	return s
}

func (p *parser) switchStmt(attrs []*astAttr) *astSwitchStmt {
	s := &astSwitchStmt{off: p.tok.off, attrs: attrs}
	p.next()
	s.sel = p.expr()
	s.bodyAttrs = p.attrs()
	p.expect(lexLBrace, "to begin the switch body")
	for p.tok.kind != lexRBrace {
		c := &astCaseClause{off: p.tok.off}
		switch {
		case p.isKw("case"):
			p.next()
			for {
				off := p.tok.off
				if p.isKw("default") {
					p.next()
					c.sels = append(c.sels, nil)
				} else {
					c.sels = append(c.sels, p.expr())
				}
				c.offs = append(c.offs, off)
				if p.tok.kind != lexComma {
					break
				}
				p.next()
				if p.tok.kind == lexColon || p.tok.kind == lexLBrace || p.tok.kind == lexAt {
					break
				}
			}
		case p.isKw("default"):
			c.sels = []astExpr{nil}
			c.offs = []int32{p.tok.off}
			p.next()
		default:
			p.failf(p.tok.off, "expected 'case' or 'default' in switch, found %s", p.describe(p.tok))
		}
		if p.tok.kind == lexColon {
			p.next()
		}
		c.body = p.block(p.attrs())
		s.clauses = append(s.clauses, c)
	}
	if len(s.clauses) == 0 {
		p.failf(p.tok.off, "switch statement has no clauses")
	}
	p.next()
	return s
}

func (p *parser) loopStmt(attrs []*astAttr) *astLoopStmt {
	s := &astLoopStmt{off: p.tok.off, attrs: attrs}
	p.next()
	s.bodyAttrs = p.attrs()
	p.expect(lexLBrace, "to begin the loop body")
	for p.tok.kind != lexRBrace {
		if p.isKw("continuing") {
			s.cont = p.continuing()
			if p.tok.kind != lexRBrace {
				p.failf(p.tok.off, "expected '}' after the continuing block, found %s", p.describe(p.tok))
			}
			break
		}
		if p.tok.kind == lexEOF {
			p.failf(p.tok.off, "expected '}' to end the loop, found end of file")
		}
		s.body = append(s.body, p.stmt())
	}
	s.end = p.tok.off
	p.next()
	return s
}

func (p *parser) continuing() *astContinuing {
	c := &astContinuing{off: p.tok.off}
	p.next()
	c.attrs = p.attrs()
	p.expect(lexLBrace, "to begin the continuing block")
	for p.tok.kind != lexRBrace {
		if p.isKw("break") {
			off := p.tok.off
			p.next()
			if p.isKw("if") {
				p.next()
				c.breakIf = p.expr()
				c.breakIfOff = off
				p.semi()
				if p.tok.kind != lexRBrace {
					p.failf(p.tok.off, "'break if' must be the last statement of the continuing block, found %s after it", p.describe(p.tok))
				}
				break
			}
			p.semi()
			c.stmts = append(c.stmts, &astBreakStmt{off: off})
			continue
		}
		if p.tok.kind == lexEOF {
			p.failf(p.tok.off, "expected '}' to end the continuing block, found end of file")
		}
		c.stmts = append(c.stmts, p.stmt())
	}
	c.end = p.tok.off
	p.next()
	return c
}

func (p *parser) forStmt(attrs []*astAttr) *astForStmt {
	s := &astForStmt{off: p.tok.off, attrs: attrs}
	p.next()
	p.expect(lexLParen, "after 'for'")
	if p.tok.kind != lexSemi {
		if p.isKw("var") || p.isKw("let") || p.isKw("const") {
			s.init = p.localDecl()
		} else {
			s.init = p.updatingOrCall()
		}
	}
	p.expect(lexSemi, "after for-loop initializer")
	if p.tok.kind != lexSemi {
		s.cond = p.expr()
	}
	p.expect(lexSemi, "after for-loop condition")
	if p.tok.kind != lexRParen {
		s.update = p.updatingOrCall()
	}
	p.expect(lexRParen, "after for-loop header")
	s.body = p.block(p.attrs())
	return s
}

func (p *parser) whileStmt(attrs []*astAttr) *astWhileStmt {
	s := &astWhileStmt{off: p.tok.off, attrs: attrs}
	p.next()
	s.cond = p.expr()
	s.body = p.block(p.attrs())
	return s
}
