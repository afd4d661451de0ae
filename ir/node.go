package ir

// Node is any IR node: an Expr, a Stmt (including *Block), a *Case or a *Func.
type Node interface {
	Position() Pos
}

// Expr is a typed expression. Every Expr has a concrete, non-void type,
// except a *Call of a void function (which may only appear as an ExprStmt).
type Expr interface {
	Node
	Type() *Type
	exprNode()
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmtNode()
}

// RefKind says what an Ident refers to.
type RefKind uint8

const (
	RefParam  RefKind = iota + 1 // a function parameter (immutable)
	RefLet                       // a let binding (immutable)
	RefVar                       // a function-scope var (mutable)
	RefGlobal                    // a module-scope var<private> (mutable)
	RefShared                    // a module-scope SharedVar: workgroup, storage or uniform (Module.Shared)
	// RefPtr is a pointer parameter (Param.Ptr != 0) used as the memory
	// view it points to: the Ident denotes *p, a reference of the
	// pointee type T (WGSL #indirection), mutable (read_write access);
	// the printer writes it (*p).
	RefPtr
	// RefHandle is a module-scope texture or sampler (Module.Textures),
	// only ever a TextureCall's argument (texture.go).
	RefHandle
)

func (k RefKind) String() string {
	switch k {
	case RefParam:
		return "param"
	case RefLet:
		return "let"
	case RefVar:
		return "var"
	case RefGlobal:
		return "global"
	case RefShared:
		return "shared var"
	case RefPtr:
		return "pointer param"
	case RefHandle:
		return "texture or sampler"
	}
	return "?"
}

// Mutable reports whether an Ident of this kind may be assigned.
func (k RefKind) Mutable() bool {
	return k == RefVar || k == RefGlobal || k == RefShared || k == RefPtr
}

// IsModuleScope reports whether the kind names a module-scope variable
// (private or shared), which Normalize never renames.
func (k RefKind) IsModuleScope() bool { return k == RefGlobal || k == RefShared }

// ---- expressions ----

// Lit is a constant value.
type Lit struct {
	Pos Pos
	Val Value
}

// Ident names a parameter, local or global.
type Ident struct {
	Pos  Pos
	Name string
	T    *Type
	Ref  RefKind
}

// Unary is a prefix operator application (WGSL §8.6 -x, !x, ~x).
type Unary struct {
	Pos Pos
	Op  UnaryOp
	X   Expr
	T   *Type
}

// Binary is an infix operator application. OpLogAnd and OpLogOr
// short-circuit; after Normalize their right operand never contains a user
// call. Vector-scalar arithmetic keeps its operands as written; the result
// type T is the vector type.
type Binary struct {
	Pos  Pos
	Op   BinaryOp
	X, Y Expr
	T    *Type
}

// Select is WGSL's select(f, t, cond) (§17.3.9): all three operands are
// evaluated; the result is t where cond holds, else f, component-wise when
// cond is a vector.
type Select struct {
	Pos         Pos
	False, True Expr
	Cond        Expr
	T           *Type
}

// Call calls a user function. T is the callee's result type (Void for a
// void function, which may only be called as an ExprStmt).
type Call struct {
	Pos  Pos
	Func string
	Args []Expr
	T    *Type
}

// BuiltinCall calls a WGSL builtin function (see Builtins).
type BuiltinCall struct {
	Pos  Pos
	Fn   Builtin
	Args []Expr
	T    *Type
}

// Construct is a value constructor (WGSL §17.1): with no arguments the zero
// value of T; for a vector, either one scalar (splat) or scalars and
// vectors whose widths sum to N; for arrays and structs, one argument per
// element or field.
type Construct struct {
	Pos  Pos
	T    *Type
	Args []Expr
}

// Convert is a value conversion to a scalar or vector type of the same
// width (WGSL §17.1.2, e.g. i32(f), vec3<f32>(vec3<u32>)). Float-to-integer
// conversion truncates and saturates (WGSL §15.7.6).
type Convert struct {
	Pos Pos
	T   *Type
	X   Expr
}

// Bitcast reinterprets the bits of a scalar or vector (WGSL
// #bitcast-builtin): T and X's type have the same number of bits — the
// same width of 32-bit components, or f16 vectors against 32-bit ones
// (vec2<f16> ↔ u32/i32/f32, vec4<f16> ↔ vec2<u32>/…, component 0 in the
// low half: WGSL's little-endian packing).
type Bitcast struct {
	Pos Pos
	T   *Type
	X   Expr
}

// Index selects an array element or vector component by a (possibly run-
// time) i32 or u32 index. A run-time out-of-bounds index is clamped by the
// reference semantics (see interp).
type Index struct {
	Pos   Pos
	X     Expr
	Index Expr
	T     *Type
}

// Member selects a struct field by index.
type Member struct {
	Pos   Pos
	X     Expr
	Field int
	T     *Type
}

// Swizzle selects 1 to 4 components of a vector (v.x, v.zyx). A one-
// component swizzle is a scalar and may be assigned to; longer swizzles
// are values only.
type Swizzle struct {
	Pos   Pos
	X     Expr
	Comps []uint8 // component indices 0..3
	T     *Type
}

// AddrOf is &X as the argument of a pointer parameter (WGSL
// #address-of-expr, #function-calls): X is a reference chain (Ident,
// Index, Member) rooted at a function var, a private global or a pointer
// parameter, and T is X's type, the pointee's. It appears only as a Call
// argument whose parameter has Param.Ptr set; its index operands are
// evaluated where the call evaluates its arguments (WGSL order), the
// view itself is neither loaded nor copied.
type AddrOf struct {
	Pos Pos
	X   Expr
	T   *Type
}

func (e *Lit) Position() Pos         { return e.Pos }
func (e *Ident) Position() Pos       { return e.Pos }
func (e *Unary) Position() Pos       { return e.Pos }
func (e *Binary) Position() Pos      { return e.Pos }
func (e *Select) Position() Pos      { return e.Pos }
func (e *Call) Position() Pos        { return e.Pos }
func (e *BuiltinCall) Position() Pos { return e.Pos }
func (e *Construct) Position() Pos   { return e.Pos }
func (e *Convert) Position() Pos     { return e.Pos }
func (e *Bitcast) Position() Pos     { return e.Pos }
func (e *Index) Position() Pos       { return e.Pos }
func (e *Member) Position() Pos      { return e.Pos }
func (e *Swizzle) Position() Pos     { return e.Pos }
func (e *AddrOf) Position() Pos      { return e.Pos }

func (e *Lit) Type() *Type         { return e.Val.Type }
func (e *Ident) Type() *Type       { return e.T }
func (e *Unary) Type() *Type       { return e.T }
func (e *Binary) Type() *Type      { return e.T }
func (e *Select) Type() *Type      { return e.T }
func (e *Call) Type() *Type        { return e.T }
func (e *BuiltinCall) Type() *Type { return e.T }
func (e *Construct) Type() *Type   { return e.T }
func (e *Convert) Type() *Type     { return e.T }
func (e *Bitcast) Type() *Type     { return e.T }
func (e *Index) Type() *Type       { return e.T }
func (e *Member) Type() *Type      { return e.T }
func (e *Swizzle) Type() *Type     { return e.T }
func (e *AddrOf) Type() *Type      { return e.T }

func (*Lit) exprNode()         {}
func (*Ident) exprNode()       {}
func (*Unary) exprNode()       {}
func (*Binary) exprNode()      {}
func (*Select) exprNode()      {}
func (*Call) exprNode()        {}
func (*BuiltinCall) exprNode() {}
func (*Construct) exprNode()   {}
func (*Convert) exprNode()     {}
func (*Bitcast) exprNode()     {}
func (*Index) exprNode()       {}
func (*Member) exprNode()      {}
func (*Swizzle) exprNode()     {}
func (*AddrOf) exprNode()      {}

// ---- statements ----

// Block is a sequence of statements and a lexical scope; it is also a
// statement (a bare { … } block).
type Block struct {
	Pos   Pos
	Stmts []Stmt
}

// Decl declares a local: a let (Mutable false; Init required) or a var
// (Mutable true; a nil Init means the zero value).
type Decl struct {
	Pos     Pos
	Name    string
	T       *Type
	Init    Expr
	Mutable bool
}

// Assign stores RHS into the reference LHS — an Ident of a var or global,
// or an Index/Member/one-component Swizzle chain rooted at one. Op is
// OpNone for plain assignment; otherwise the statement is the compound
// assignment LHS op= RHS, whose LHS reference is evaluated once
// (WGSL §9.2.2; x++ and x-- are x += 1 and x -= 1).
type Assign struct {
	Pos Pos
	LHS Expr
	Op  BinaryOp
	RHS Expr
}

// ExprStmt evaluates X for its effects: a call statement when X is a *Call,
// otherwise WGSL's phony assignment _ = X.
type ExprStmt struct {
	Pos Pos
	X   Expr
}

// If executes Then when Cond holds, else Else (never nil, possibly empty).
type If struct {
	Pos  Pos
	Cond Expr
	Then *Block
	Else *Block
}

// Loop is the one loop form (WGSL §9.4.4 loop): Body runs, then
// Continuing (never nil, possibly empty), then the loop exits if BreakIf
// (may be nil) holds, else repeats. Continue jumps to Continuing. Body's
// declarations are in scope in Continuing and BreakIf, and Continuing's
// in BreakIf, the continuing block's last statement (WGSL
// #continuing-statement).
// WGSL for and while lower to Loop with a leading `if (!cond) { break; }`.
type Loop struct {
	Pos        Pos
	Body       *Block
	Continuing *Block
	BreakIf    Expr
}

// Switch evaluates Selector (i32 or u32) once and runs the first case
// whose Values contain it, else the Default case (WGSL §9.4.3).
type Switch struct {
	Pos      Pos
	Selector Expr
	Cases    []*Case
}

// Case is one switch clause; Default marks the clause that also holds
// `default` (alone or beside values).
type Case struct {
	Pos     Pos
	Values  []Value
	Default bool
	Body    *Block
}

// Break leaves the innermost Loop or Switch.
type Break struct{ Pos Pos }

// Continue jumps to the innermost Loop's continuing block.
type Continue struct{ Pos Pos }

// Return leaves the function; Value is nil for a void function.
type Return struct {
	Pos   Pos
	Value Expr
}

func (s *Block) Position() Pos    { return s.Pos }
func (s *Decl) Position() Pos     { return s.Pos }
func (s *Assign) Position() Pos   { return s.Pos }
func (s *ExprStmt) Position() Pos { return s.Pos }
func (s *If) Position() Pos       { return s.Pos }
func (s *Loop) Position() Pos     { return s.Pos }
func (s *Switch) Position() Pos   { return s.Pos }
func (s *Case) Position() Pos     { return s.Pos }
func (s *Break) Position() Pos    { return s.Pos }
func (s *Continue) Position() Pos { return s.Pos }
func (s *Return) Position() Pos   { return s.Pos }

func (*Block) stmtNode()    {}
func (*Decl) stmtNode()     {}
func (*Assign) stmtNode()   {}
func (*ExprStmt) stmtNode() {}
func (*If) stmtNode()       {}
func (*Loop) stmtNode()     {}
func (*Switch) stmtNode()   {}
func (*Break) stmtNode()    {}
func (*Continue) stmtNode() {}
func (*Return) stmtNode()   {}

// IsJump reports whether s is a Break, Continue or Return.
func IsJump(s Stmt) bool {
	switch s.(type) {
	case *Break, *Continue, *Return:
		return true
	}
	return false
}

// NewBlock returns a block holding stmts.
func NewBlock(pos Pos, stmts ...Stmt) *Block { return &Block{Pos: pos, Stmts: stmts} }
