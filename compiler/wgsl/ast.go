package wgsl

// The syntax tree the parser builds for the whole WGSL grammar (WGSL
// "Grammar for Recursive Descent Parsing"). Every node records the byte
// offset of its first token; positions become ir.Pos only when reported or
// lowered. The checker lowers the subset of this tree to ir; declarations
// outside the subset keep only their source text.

// astExpr is an expression node.
type astExpr interface{ astOff() int32 }

// astIdentExpr is a template_elaborated_ident: a name with an optional
// template list (vec3<f32>, array<i32, 4>, ptr<function, i32>, x).
type astIdentExpr struct {
	off     int32
	name    string
	hasTmpl bool
	tmpl    []astExpr
}

// astCallExpr is a call_phrase: callee(args).
type astCallExpr struct {
	callee *astIdentExpr
	args   []astExpr
}

// astLitExpr is a literal: an int or float token, or true/false.
type astLitExpr struct {
	off, end int32
	kind     lexKind // lexIntLit, lexFloatLit or lexKeyword (true/false)
	text     string
}

type astParenExpr struct {
	off int32
	x   astExpr
}

// astUnaryExpr is op x for op in - ! ~ * &.
type astUnaryExpr struct {
	off int32
	op  lexKind
	x   astExpr
}

// astBinaryExpr is x op y; off is the operator's offset.
type astBinaryExpr struct {
	off  int32
	op   lexKind
	x, y astExpr
}

// astIndexExpr is x[index]; off is the '[' offset.
type astIndexExpr struct {
	off      int32
	x, index astExpr
}

// astMemberExpr is x.name (a structure member or a swizzle); off is the
// offset of the name.
type astMemberExpr struct {
	off  int32
	x    astExpr
	name string
}

func (e *astIdentExpr) astOff() int32  { return e.off }
func (e *astCallExpr) astOff() int32   { return e.callee.off }
func (e *astLitExpr) astOff() int32    { return e.off }
func (e *astParenExpr) astOff() int32  { return e.off }
func (e *astUnaryExpr) astOff() int32  { return e.off }
func (e *astBinaryExpr) astOff() int32 { return e.off }
func (e *astIndexExpr) astOff() int32  { return e.off }
func (e *astMemberExpr) astOff() int32 { return e.off }

// astExprStart returns the offset of the first token of e.
func astExprStart(e astExpr) int32 {
	for {
		switch x := e.(type) {
		case *astBinaryExpr:
			e = x.x
		case *astIndexExpr:
			e = x.x
		case *astMemberExpr:
			e = x.x
		default:
			return e.astOff()
		}
	}
}

// astAttr is an attribute @name or @name(args).
type astAttr struct {
	off     int32
	name    string
	hasArgs bool
	args    []astExpr
}

// astStmt is a statement node.
type astStmt interface{ astOff() int32 }

// astBlock is a compound statement; end is the offset of its '}'.
type astBlock struct {
	off, end int32
	attrs    []*astAttr
	stmts    []astStmt
}

// astVarStmt is a var, let or const declaration (variable_or_value_statement).
type astVarStmt struct {
	off     int32
	kw      string // "var", "let" or "const"
	hasTmpl bool
	tmpl    []astExpr // var<address_space, access_mode>
	name    string
	nameOff int32
	typ     *astIdentExpr
	init    astExpr
}

// astAssignStmt is lhs = rhs, lhs op= rhs, or the phony assignment _ = rhs
// (lhs nil). off is the operator's offset.
type astAssignStmt struct {
	off int32
	lhs astExpr
	op  lexKind // lexAssign or a compound assignment token
	rhs astExpr
}

// astIncDecStmt is lhs++ or lhs--; off is the operator's offset.
type astIncDecStmt struct {
	off int32
	lhs astExpr
	inc bool
}

type astCallStmt struct {
	call *astCallExpr
}

// astIfStmt is if cond then [else els]; els is nil, *astBlock or *astIfStmt.
type astIfStmt struct {
	off   int32
	attrs []*astAttr
	cond  astExpr
	then  *astBlock
	els   astStmt
}

type astSwitchStmt struct {
	off       int32
	attrs     []*astAttr
	sel       astExpr
	bodyAttrs []*astAttr
	clauses   []*astCaseClause
}

// astCaseClause is a case or default clause; a nil selector means default.
type astCaseClause struct {
	off  int32
	sels []astExpr
	offs []int32 // offset of each selector
	body *astBlock
}

// astLoopStmt is loop { body continuing { … break if e; } }.
type astLoopStmt struct {
	off       int32
	attrs     []*astAttr
	bodyAttrs []*astAttr
	body      []astStmt
	end       int32
	cont      *astContinuing
}

type astContinuing struct {
	off        int32
	attrs      []*astAttr
	stmts      []astStmt
	breakIf    astExpr
	breakIfOff int32
	end        int32
}

type astForStmt struct {
	off    int32
	attrs  []*astAttr
	init   astStmt
	cond   astExpr
	update astStmt
	body   *astBlock
}

type astWhileStmt struct {
	off   int32
	attrs []*astAttr
	cond  astExpr
	body  *astBlock
}

type astBreakStmt struct{ off int32 }
type astContinueStmt struct{ off int32 }
type astDiscardStmt struct{ off int32 }
type astEmptyStmt struct{ off int32 }

type astReturnStmt struct {
	off int32
	x   astExpr
}

type astConstAssertStmt struct {
	off int32
	x   astExpr
}

func (s *astBlock) astOff() int32           { return s.off }
func (s *astVarStmt) astOff() int32         { return s.off }
func (s *astAssignStmt) astOff() int32      { return s.off }
func (s *astIncDecStmt) astOff() int32      { return s.off }
func (s *astCallStmt) astOff() int32        { return s.call.callee.off }
func (s *astIfStmt) astOff() int32          { return s.off }
func (s *astSwitchStmt) astOff() int32      { return s.off }
func (s *astLoopStmt) astOff() int32        { return s.off }
func (s *astForStmt) astOff() int32         { return s.off }
func (s *astWhileStmt) astOff() int32       { return s.off }
func (s *astBreakStmt) astOff() int32       { return s.off }
func (s *astContinueStmt) astOff() int32    { return s.off }
func (s *astDiscardStmt) astOff() int32     { return s.off }
func (s *astEmptyStmt) astOff() int32       { return s.off }
func (s *astReturnStmt) astOff() int32      { return s.off }
func (s *astConstAssertStmt) astOff() int32 { return s.off }

// astParam is a formal parameter.
type astParam struct {
	off   int32
	attrs []*astAttr
	name  string
	typ   *astIdentExpr
}

// astMember is a structure member.
type astMember struct {
	off   int32
	attrs []*astAttr
	name  string
	typ   *astIdentExpr
}

// astDecl is a module-scope declaration or directive. kind is the leading
// keyword ("fn", "struct", "var", "const", "override", "alias",
// "const_assert", "enable", "requires", "diagnostic"); [off, end) is its
// exact source text including attributes.
type astDecl struct {
	kind     string
	off, end int32
	kwOff    int32
	name     string
	nameOff  int32
	attrs    []*astAttr

	// var, const, override, alias (typ), const_assert (init)
	hasTmpl bool
	tmpl    []astExpr
	typ     *astIdentExpr
	init    astExpr

	// struct
	members []*astMember

	// fn
	params   []*astParam
	retAttrs []*astAttr
	ret      *astIdentExpr
	body     *astBlock

	// enable, requires: extension names and their offsets; diagnostic:
	// severity and rule
	names    []string
	nameOffs []int32
	args     []astExpr
}
