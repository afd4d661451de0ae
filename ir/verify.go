package ir

import "fmt"

// Verify checks every invariant of m that passes rely on and returns the
// violations as an ErrorList with pass "verify" (nil when m is sound):
//
//   - module-scope names are unique; struct fields and globals are typed;
//   - within a function, names are unique and distinct from module-scope
//     names; every Ident refers to a declaration in scope with its kind and
//     type;
//   - every expression's stored type is the type its operands imply;
//   - assignments store into a mutable reference of the right type;
//   - conditions are bool, switch selectors i32/u32 with unique case
//     values and exactly one default;
//   - break and continue appear only where WGSL allows them, nothing
//     follows a jump in a block, and a non-void function cannot fall off
//     its end (WGSL "Statement Behavior Analysis");
//   - && and || have no user call in their right operand;
//   - no literal operand makes a WGSL shader-creation error (zero integer
//     divisor, shift count ≥ 32, out-of-range constant index);
//   - calls name existing functions with matching arguments, and a void
//     call is only a statement;
//   - entry points and shared variables (entry.go): verifyEntry's rules
//     (builtin parameters, workgroup size, atomics only in storage
//     read_write and workgroup variables, runtime-sized arrays only in
//     storage, stores only into writable variables, barriers only in code
//     a compute entry point reaches when the module has entry points,
//     entry points never called).
//
// Verify does not reject recursion (WGSL forbids it; the front end reports
// it, and flatten refuses it with its own message).
func Verify(m *Module) error {
	v := &verifier{m: m}
	v.module()
	v.errs.Sort()
	return v.errs.Err()
}

// VerifyFunc checks one function of m (see Verify).
func VerifyFunc(m *Module, f *Func) error {
	v := &verifier{m: m}
	v.fn(f)
	return v.errs.Err()
}

type verifier struct {
	m        *Module
	errs     ErrorList
	f        *Func
	scopes   []map[string]scopeEntry
	names    map[string]bool
	modNames map[string]bool
}

type scopeEntry struct {
	kind RefKind
	t    *Type
}

func (v *verifier) errorf(pos Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if v.f != nil {
		msg = "in " + v.f.Name + ": " + msg
	}
	v.errs = append(v.errs, &Error{File: v.m.File, Pos: pos, Pass: "verify", Msg: msg})
}

func (v *verifier) moduleNames() {
	v.modNames = map[string]bool{}
	add := func(pos Pos, name string) {
		if name == "" {
			return
		}
		if v.modNames[name] {
			v.errorf(pos, "module-scope name %q declared twice", name)
		}
		v.modNames[name] = true
	}
	for _, s := range v.m.Structs {
		add(s.Pos, s.Name)
	}
	for _, g := range v.m.Globals {
		add(g.Pos, g.Name)
	}
	for _, g := range v.m.Shared {
		add(g.Pos, g.Name)
	}
	for _, g := range v.m.Textures {
		add(g.Pos, g.Name)
	}
	for _, f := range v.m.Funcs {
		add(f.Pos, f.Name)
	}
	for _, o := range v.m.Opaque {
		add(o.Pos, o.Name)
	}
}

func (v *verifier) module() {
	v.moduleNames()
	v.textureVars()
	for _, s := range v.m.Structs {
		seen := map[string]bool{}
		if len(s.Fields) == 0 {
			v.errorf(s.Pos, "struct %s has no members", s.Name)
		}
		for _, f := range s.Fields {
			if seen[f.Name] {
				v.errorf(f.Pos, "struct %s: member %s declared twice", s.Name, f.Name)
			}
			seen[f.Name] = true
			v.checkType(f.Pos, f.Type)
		}
	}
	for _, g := range v.m.Globals {
		v.checkType(g.Pos, g.T)
		if g.Init != nil {
			v.scopes = nil
			v.expr(g.Init)
			if !Identical(g.Init.Type(), g.T) {
				v.errorf(g.Pos, "global %s: initializer has type %v, want %v", g.Name, g.Init.Type(), g.T)
			}
			if Any(g.Init, func(n Node) bool {
				_, isCall := n.(*Call)
				_, isID := n.(*Ident)
				return isCall || isID
			}) {
				v.errorf(g.Pos, "global %s: initializer is not a const-expression", g.Name)
			}
		}
	}
	for _, f := range v.m.Funcs {
		v.fn(f)
	}
	v.entries()
}

func (v *verifier) checkType(pos Pos, t *Type) {
	if t == nil {
		v.errorf(pos, "missing type")
		return
	}
	switch t.Kind {
	case KindVec:
		if t.Len < 2 || t.Len > 4 || !t.Elem.IsScalar() {
			v.errorf(pos, "invalid vector type %v", t)
		}
	case KindArray:
		if t.Len < 1 {
			v.errorf(pos, "invalid array length in %v", t)
		}
		v.checkType(pos, t.Elem)
	case KindMat:
		if t.Len < 2 || t.Len > 4 || t.Elem == nil || t.Elem.Kind != KindVec || !t.Elem.Elem.IsFloat() || t.Elem.Len < 2 || t.Elem.Len > 4 {
			v.errorf(pos, "invalid matrix type %v", t)
		}
	case KindStruct:
		if t.Struct == nil || v.m.Struct(t.Struct.Name) == nil && !IsPredeclaredStruct(t.Struct) {
			v.errorf(pos, "unknown struct type %v", t)
		}
	case KindAtomic:
		if !t.Elem.IsInteger() {
			v.errorf(pos, "invalid atomic type %v", t)
		}
	case KindRuntimeArray:
		v.checkType(pos, t.Elem)
	}
}

func (v *verifier) fn(f *Func) {
	v.f = f
	defer func() { v.f = nil }()
	if v.modNames == nil {
		v.moduleNames()
	}
	v.names = map[string]bool{}
	v.scopes = []map[string]scopeEntry{{}}
	for _, p := range f.Params {
		v.checkType(p.Pos, p.T)
		if !p.SharesMemory() {
			v.valueType(p.Pos, p.T, "parameter "+p.Name)
		}
		if p.PtrAccess != 0 && p.Ptr != SpaceStorage {
			v.errorf(p.Pos, "pointer parameter %s in address space %v has an access mode (storage only)", p.Name, p.Ptr)
		}
		switch p.Ptr {
		case 0:
			v.declare(p.Pos, p.Name, RefParam, p.T)
		case SpaceFunction, SpacePrivate, SpaceWorkgroup, SpaceStorage, SpaceUniform:
			if f.Stage != StageNone {
				v.errorf(p.Pos, "entry point parameter %s is a pointer", p.Name)
			}
			v.declare(p.Pos, p.Name, RefPtr, p.T)
		default:
			v.errorf(p.Pos, "pointer parameter %s in unknown address space %d", p.Name, p.Ptr)
		}
	}
	if f.Result == nil {
		v.errorf(f.Pos, "nil result type (use ir.Void)")
	} else if !f.Result.IsVoid() {
		v.checkType(f.Pos, f.Result)
	}
	beh := v.block(f.Body, ctx{})
	if !f.Result.IsVoid() && beh&behNext != 0 {
		v.errorf(f.Pos, "function %s with result type %v can reach its end without returning", f.Name, f.Result)
	}
}

func (v *verifier) declare(pos Pos, name string, kind RefKind, t *Type) {
	if v.names[name] {
		v.errorf(pos, "name %q declared twice in function (names must be unique after Normalize)", name)
	}
	if v.modNames[name] {
		v.errorf(pos, "local %q collides with a module-scope name", name)
	}
	v.names[name] = true
	v.scopes[len(v.scopes)-1][name] = scopeEntry{kind, t}
}

func (v *verifier) lookup(name string) (scopeEntry, bool) {
	for i := len(v.scopes) - 1; i >= 0; i-- {
		if e, ok := v.scopes[i][name]; ok {
			return e, true
		}
	}
	return scopeEntry{}, false
}

// ctx is where a statement sits.
type ctx struct {
	inLoop, inSwitch, inContinuing bool
	// breakable is true when the innermost breakable construct exists.
	breakable bool
}

// Statement behaviors (WGSL "Statement Behavior Analysis").
type behavior uint8

const (
	behNext behavior = 1 << iota
	behBreak
	behContinue
	behReturn
)

func (v *verifier) block(b *Block, c ctx) behavior {
	if b == nil {
		v.errorf(Pos{}, "nil block")
		return behNext
	}
	v.scopes = append(v.scopes, map[string]scopeEntry{})
	defer func() { v.scopes = v.scopes[:len(v.scopes)-1] }()
	return v.stmts(b, c)
}

// stmts checks b's statements in the current scope.
func (v *verifier) stmts(b *Block, c ctx) behavior {
	beh := behNext
	for i, s := range b.Stmts {
		if IsJump(s) && i != len(b.Stmts)-1 {
			v.errorf(b.Stmts[i+1].Position(), "unreachable statement after %T", s)
		}
		sb := v.stmt(s, c)
		if beh&behNext != 0 {
			beh = (beh &^ behNext) | sb
		}
	}
	return beh
}

func (v *verifier) stmt(s Stmt, c ctx) behavior {
	switch s := s.(type) {
	case *Block:
		return v.block(s, c)
	case *Decl:
		v.checkType(s.Pos, s.T)
		v.valueType(s.Pos, s.T, s.Name)
		if s.Init == nil {
			if !s.Mutable {
				v.errorf(s.Pos, "let %s has no initializer", s.Name)
			}
		} else {
			v.expr(s.Init)
			if !Identical(s.Init.Type(), s.T) {
				v.errorf(s.Pos, "%s: initializer has type %v, want %v", s.Name, s.Init.Type(), s.T)
			}
		}
		kind := RefLet
		if s.Mutable {
			kind = RefVar
		}
		v.declare(s.Pos, s.Name, kind, s.T)
		return behNext
	case *Assign:
		v.expr(s.LHS)
		v.expr(s.RHS)
		v.checkRef(s.LHS)
		lt, rt := s.LHS.Type(), s.RHS.Type()
		if !lt.IsConstructible() {
			v.errorf(s.Pos, "cannot assign to a reference of type %v (atomics are stored with atomicStore)", lt)
		}
		if s.Op == OpNone {
			if !Identical(lt, rt) {
				v.errorf(s.Pos, "cannot assign %v to %v", rt, lt)
			}
		} else {
			if !s.Op.Info().Compound {
				v.errorf(s.Pos, "%s= is not a compound assignment", s.Op)
			} else if t, err := BinaryResultType(s.Op, lt, rt); err != nil {
				v.errorf(s.Pos, "%v", err)
			} else if !Identical(t, lt) {
				v.errorf(s.Pos, "%s= result %v does not fit %v", s.Op, t, lt)
			} else {
				v.constRHS(s.Pos, s.Op, t, s.RHS) // x op= y is x = x op y (WGSL #compound-assignment)
			}
		}
		return behNext
	case *ExprStmt:
		if call, ok := s.X.(*Call); ok {
			v.call(call, true)
		} else {
			v.expr(s.X)
		}
		return behNext
	case *If:
		v.cond(s.Cond, "if condition")
		return v.block(s.Then, c) | v.block(s.Else, c)
	case *Loop:
		inner := ctx{inLoop: true, breakable: true}
		// The body's declarations stay in scope for the continuing block
		// and the break-if, and the break-if, the continuing block's last
		// statement, sees the continuing block's declarations too (WGSL
		// #continuing-statement): both scopes are popped after it.
		v.scopes = append(v.scopes, map[string]scopeEntry{})
		body := v.stmts(s.Body, inner)
		v.scopes = append(v.scopes, map[string]scopeEntry{})
		cont := behNext
		if s.Continuing == nil {
			v.errorf(s.Pos, "nil block")
		} else {
			cont = v.stmts(s.Continuing, ctx{inLoop: true, inContinuing: true})
		}
		if cont&(behBreak|behContinue|behReturn) != 0 {
			v.errorf(s.Pos, "continuing block may not break, continue or return (use break if)")
		}
		if s.BreakIf != nil {
			v.cond(s.BreakIf, "break-if condition")
		}
		v.scopes = v.scopes[:len(v.scopes)-2]
		var beh behavior
		if body&behReturn != 0 {
			beh |= behReturn
		}
		if body&behBreak != 0 || s.BreakIf != nil {
			beh |= behNext
		}
		if beh == 0 && body&(behBreak|behNext|behContinue) == 0 {
			return behReturn
		}
		return beh
	case *Switch:
		v.expr(s.Selector)
		st := s.Selector.Type()
		if !st.IsInteger() {
			v.errorf(s.Pos, "switch selector has type %v, want i32 or u32", st)
		}
		defaults := 0
		seen := map[uint32]bool{}
		var beh behavior
		inner := ctx{inLoop: c.inLoop, inSwitch: true, breakable: true, inContinuing: c.inContinuing}
		for _, cs := range s.Cases {
			if cs.Default {
				defaults++
			}
			for _, val := range cs.Values {
				if !Identical(val.Type, st) {
					v.errorf(cs.Pos, "case value %v does not match selector type %v", val, st)
				}
				if seen[val.Bits] {
					v.errorf(cs.Pos, "duplicate case value %v", val)
				}
				seen[val.Bits] = true
			}
			if len(cs.Values) == 0 && !cs.Default {
				v.errorf(cs.Pos, "case clause without values")
			}
			cb := v.block(cs.Body, inner)
			if cb&behBreak != 0 {
				cb = (cb &^ behBreak) | behNext
			}
			beh |= cb
		}
		if defaults != 1 {
			v.errorf(s.Pos, "switch must have exactly one default clause, has %d", defaults)
		}
		return beh
	case *Break:
		if !c.breakable {
			v.errorf(s.Pos, "break outside a loop or switch")
		}
		if c.inContinuing && !c.inSwitch {
			v.errorf(s.Pos, "break in a continuing block (use break if)")
		}
		return behBreak
	case *Continue:
		if !c.inLoop {
			v.errorf(s.Pos, "continue outside a loop")
		}
		if c.inContinuing {
			v.errorf(s.Pos, "continue in a continuing block")
		}
		return behContinue
	case *Return:
		if c.inContinuing {
			v.errorf(s.Pos, "return in a continuing block")
		}
		if s.Value == nil {
			if !v.f.Result.IsVoid() {
				v.errorf(s.Pos, "return without a value in a function returning %v", v.f.Result)
			}
		} else {
			v.expr(s.Value)
			if !Identical(s.Value.Type(), v.f.Result) {
				v.errorf(s.Pos, "return of %v in a function returning %v", s.Value.Type(), v.f.Result)
			}
		}
		return behReturn
	case *Discard:
		// Behavior {Next} (WGSL #behaviors); the stage is checked in entries.
		return behNext
	default:
		v.errorf(s.Position(), "unknown statement %T", s)
	}
	return behNext
}

func (v *verifier) cond(e Expr, what string) {
	v.expr(e)
	if t := e.Type(); t == nil || t.Kind != KindBool {
		v.errorf(e.Position(), "%s has type %v, want bool", what, t)
	}
}

// addrOf checks &X passed for pointer parameter p (WGSL #function-calls:
// the argument agrees with the parameter on address space and store
// type): X is a reference chain rooted at a function var or pointer
// parameter (function space) or a private global (private space).
func (v *verifier) addrOf(a *AddrOf, p *Param) {
	v.expr(a.X)
	if p.PtrWritable() {
		v.checkRef(a.X)
	} else if root := RootIdent(a.X); root == nil || root.Ref != RefShared && root.Ref != RefPtr {
		v.errorf(a.Pos, "&%T for read-only pointer parameter %s is not rooted at a shared variable or pointer parameter", a.X, p.Name)
	}
	v.want(a, a.T, a.X.Type())
	if _, ok := a.X.(*Swizzle); ok {
		v.errorf(a.Pos, "address of a vector component")
	}
	root := RootIdent(a.X)
	if root == nil {
		v.errorf(a.Pos, "&%T is not a reference chain", a.X)
		return
	}
	space, writable := SpaceFunction, true
	switch root.Ref {
	case RefGlobal:
		space = SpacePrivate
	case RefShared:
		space = 0
		if g := v.m.SharedVar(root.Name); g != nil {
			space, writable = g.Space, g.Writable()
		}
	case RefPtr:
		if q := v.ptrParam(root.Name); q != nil {
			space, writable = q.Ptr, q.PtrWritable()
		}
	}
	if space != p.Ptr {
		v.errorf(a.Pos, "pointer argument in address space %v for parameter %s: ptr<%v, %v>", space, p.Name, p.Ptr, p.T)
	} else if p.Ptr == SpaceStorage && (p.PtrAccess == AccessReadWrite) != writable {
		v.errorf(a.Pos, "pointer argument's access mode does not match parameter %s's (WGSL #function-restriction)", p.Name)
	}
}

// ptrParam returns the pointer parameter name of the function being
// checked when name is in scope as one; else nil.
func (v *verifier) ptrParam(name string) *Param {
	if ent, ok := v.lookup(name); !ok || ent.kind != RefPtr || v.f == nil {
		return nil
	}
	for _, q := range v.f.Params {
		if q.Name == name && q.Ptr != 0 {
			return q
		}
	}
	return nil
}

// checkRef checks that e is an assignable reference.
func (v *verifier) checkRef(e Expr) {
	switch x := e.(type) {
	case *Ident:
		if !x.Ref.Mutable() {
			v.errorf(x.Pos, "cannot assign to %s %s", x.Ref, x.Name)
		}
		if x.Ref == RefShared {
			if g := v.m.SharedVar(x.Name); g != nil && !g.Writable() {
				v.errorf(x.Pos, "cannot store into %s, a read-only %s variable", x.Name, g.Space)
			}
		}
		if x.Ref == RefPtr {
			if q := v.ptrParam(x.Name); q != nil && !q.PtrWritable() {
				v.errorf(x.Pos, "cannot store through %s, a read-only ptr<%v> parameter", x.Name, q.Ptr)
			}
		}
	case *Index:
		v.checkRef(x.X)
	case *Member:
		v.checkRef(x.X)
	case *Swizzle:
		if len(x.Comps) != 1 {
			v.errorf(x.Pos, "cannot assign to a multi-component swizzle")
		}
		v.checkRef(x.X)
	default:
		v.errorf(e.Position(), "left-hand side %T is not a reference", e)
	}
}

func (v *verifier) want(e Expr, got, want *Type) {
	if !Identical(got, want) {
		v.errorf(e.Position(), "%T has stored type %v, operands imply %v", e, got, want)
	}
}

func (v *verifier) call(c *Call, stmt bool) {
	f := v.m.Func(c.Func)
	for i, a := range c.Args {
		if ad, ok := a.(*AddrOf); ok && f != nil && i < len(f.Params) && f.Params[i].Ptr != 0 {
			v.addrOf(ad, f.Params[i])
			continue
		}
		if f != nil && i < len(f.Params) && f.Params[i].Ptr != 0 {
			v.errorf(a.Position(), "argument %d of %s is %T, want &reference for pointer parameter %s", i+1, c.Func, a, f.Params[i].Name)
		}
		v.expr(a)
	}
	if f == nil {
		if v.m.OpaqueDecl(c.Func) != nil {
			v.errorf(c.Pos, "call of %s, which is outside the subset", c.Func)
		} else {
			v.errorf(c.Pos, "call of unknown function %s", c.Func)
		}
		return
	}
	if len(c.Args) != len(f.Params) {
		v.errorf(c.Pos, "%s expects %d argument(s), got %d", c.Func, len(f.Params), len(c.Args))
	} else {
		for i, a := range c.Args {
			if !Identical(a.Type(), f.Params[i].T) {
				v.errorf(a.Position(), "argument %d of %s has type %v, want %v", i+1, c.Func, a.Type(), f.Params[i].T)
			}
		}
	}
	v.want(c, c.T, f.Result)
	if f.Result.IsVoid() && !stmt {
		v.errorf(c.Pos, "void function %s used as a value", c.Func)
	}
}

func (v *verifier) expr(e Expr) {
	if e == nil {
		v.errorf(Pos{}, "nil expression")
		return
	}
	switch e := e.(type) {
	case *Lit:
		v.value(e.Pos, e.Val)
	case *Atomic, *ArrayLength:
		v.sharedExpr(e)
	case *TextureCall:
		v.textureCall(e)
	case *Ident:
		if e.Ref == RefHandle {
			v.errorf(e.Pos, "texture or sampler %s used outside a texture builtin's arguments", e.Name)
			return
		}
		if e.Ref == RefShared {
			g := v.m.SharedVar(e.Name)
			if g == nil {
				v.errorf(e.Pos, "unknown shared var %s", e.Name)
			} else {
				v.want(e, e.T, g.T)
			}
			return
		}
		if e.Ref == RefGlobal {
			g := v.m.Global(e.Name)
			if g == nil {
				v.errorf(e.Pos, "unknown global %s", e.Name)
			} else {
				v.want(e, e.T, g.T)
			}
			return
		}
		if v.scopes == nil {
			v.errorf(e.Pos, "%s %s referenced outside a function", e.Ref, e.Name)
			return
		}
		ent, ok := v.lookup(e.Name)
		if !ok {
			v.errorf(e.Pos, "%s %s is not declared in scope", e.Ref, e.Name)
			return
		}
		if ent.kind != e.Ref {
			v.errorf(e.Pos, "%s is a %s, referenced as a %s", e.Name, ent.kind, e.Ref)
		}
		v.want(e, e.T, ent.t)
	case *Unary:
		v.expr(e.X)
		if t, err := UnaryResultType(e.Op, e.X.Type()); err != nil {
			v.errorf(e.Pos, "%v", err)
		} else {
			v.want(e, e.T, t)
		}
	case *Binary:
		v.expr(e.X)
		v.expr(e.Y)
		if t, err := BinaryResultType(e.Op, e.X.Type(), e.Y.Type()); err != nil {
			v.errorf(e.Pos, "%v", err)
		} else {
			v.want(e, e.T, t)
		}
		v.constRHS(e.Pos, e.Op, e.T, e.Y)
		if (e.Op == OpLogAnd || e.Op == OpLogOr) && HasCall(e.Y) {
			v.errorf(e.Pos, "%s with a call in its right operand must be lowered to if (Normalize)", e.Op)
		}
	case *Select:
		v.expr(e.False)
		v.expr(e.True)
		v.expr(e.Cond)
		ft, ct := e.False.Type(), e.Cond.Type()
		if !Identical(ft, e.True.Type()) {
			v.errorf(e.Pos, "select arms have types %v and %v", ft, e.True.Type())
		}
		if !(ct.Kind == KindBool || (ct.Kind == KindVec && ct.Elem.Kind == KindBool && ft.Kind == KindVec && ft.Len == ct.Len)) {
			v.errorf(e.Pos, "select condition has type %v for arms of %v", ct, ft)
		}
		if !ft.IsConstructible() || ft.Kind == KindMat {
			// WGSL #select-builtin takes scalars and vectors; a matrix
			// is selected column by column.
			v.errorf(e.Pos, "select of %v", ft)
		}
		v.want(e, e.T, ft)
	case *Call:
		v.call(e, false)
	case *BuiltinCall:
		ts := make([]*Type, len(e.Args))
		for i, a := range e.Args {
			v.expr(a)
			ts[i] = a.Type()
		}
		if e.Fn <= 0 || e.Fn >= numBuiltins {
			v.errorf(e.Pos, "unknown builtin %d", e.Fn)
			return
		}
		if t, err := BuiltinResultType(e.Fn, ts); err != nil {
			v.errorf(e.Pos, "%v", err)
		} else {
			v.want(e, e.T, t)
		}
	case *Construct:
		for _, a := range e.Args {
			v.expr(a)
		}
		if err := CheckConstruct(e.T, e.Args); err != nil {
			v.errorf(e.Pos, "%v", err)
		}
	case *Convert:
		v.expr(e.X)
		if err := CheckConvert(e.T, e.X.Type()); err != nil {
			v.errorf(e.Pos, "%v", err)
		}
	case *Bitcast:
		v.expr(e.X)
		xt := e.X.Type()
		// The same number of bits (WGSL #bitcast-builtin): the same width,
		// or f16 vectors against 32-bit scalars and vectors (vec2<f16> ↔
		// u32, i32, f32; vec4<f16> ↔ vec2<u32>, …).
		if xt.Width() == 0 || e.T.Width() == 0 || xt.Scalar().Kind == KindBool || e.T.Scalar().Kind == KindBool ||
			xt.Width()*ScalarSize(xt.Scalar()) != e.T.Width()*ScalarSize(e.T.Scalar()) {
			v.errorf(e.Pos, "bitcast from %v to %v", xt, e.T)
		}
	case *Index:
		v.expr(e.X)
		v.expr(e.Index)
		xt := e.X.Type()
		if xt.Kind != KindArray && xt.Kind != KindVec && xt.Kind != KindRuntimeArray && xt.Kind != KindMat {
			v.errorf(e.Pos, "index of non-array, non-vector, non-matrix %v", xt)
			return
		}
		if !e.Index.Type().IsInteger() {
			v.errorf(e.Pos, "index has type %v, want i32 or u32", e.Index.Type())
		}
		if lit, ok := e.Index.(*Lit); ok && xt.Kind == KindRuntimeArray && lit.Val.Int64() < 0 {
			v.errorf(e.Pos, "constant index %v out of bounds for %v", lit.Val, xt)
		}
		if lit, ok := e.Index.(*Lit); ok && xt.Kind != KindRuntimeArray && (lit.Val.Int64() < 0 || lit.Val.Int64() >= int64(xt.Len)) {
			v.errorf(e.Pos, "constant index %v out of bounds for %v", lit.Val, xt)
		}
		v.want(e, e.T, xt.Elem)
	case *Member:
		v.expr(e.X)
		xt := e.X.Type()
		if xt.Kind != KindStruct || e.Field < 0 || e.Field >= len(xt.Struct.Fields) {
			v.errorf(e.Pos, "member %d of %v", e.Field, xt)
			return
		}
		v.want(e, e.T, xt.Struct.Fields[e.Field].Type)
	case *Swizzle:
		v.expr(e.X)
		xt := e.X.Type()
		if xt.Kind != KindVec || len(e.Comps) < 1 || len(e.Comps) > 4 {
			v.errorf(e.Pos, "swizzle of %v", xt)
			return
		}
		for _, c := range e.Comps {
			if int(c) >= xt.Len {
				v.errorf(e.Pos, "swizzle component %d out of range for %v", c, xt)
			}
		}
		want := xt.Elem
		if len(e.Comps) > 1 {
			want = Vec(len(e.Comps), xt.Elem)
		}
		v.want(e, e.T, want)
	default:
		v.errorf(e.Position(), "unknown expression %T", e)
	}
}

func (v *verifier) value(pos Pos, val Value) {
	t := val.Type
	if t == nil {
		v.errorf(pos, "untyped constant")
		return
	}
	switch t.Kind {
	case KindBool:
		if val.Bits > 1 {
			v.errorf(pos, "bool constant with bits %d", val.Bits)
		}
	case KindVec, KindArray, KindMat:
		if len(val.Elems) != t.Len {
			v.errorf(pos, "constant of %v has %d components", t, len(val.Elems))
			return
		}
		for _, e := range val.Elems {
			if !Identical(e.Type, t.Elem) {
				v.errorf(pos, "constant of %v has a %v component", t, e.Type)
			}
			v.value(pos, e)
		}
	case KindStruct:
		if len(val.Elems) != len(t.Struct.Fields) {
			v.errorf(pos, "constant of %v has %d fields", t, len(val.Elems))
			return
		}
		for i, e := range val.Elems {
			if !Identical(e.Type, t.Struct.Fields[i].Type) {
				v.errorf(pos, "constant of %v: field %d is %v", t, i, e.Type)
			}
			v.value(pos, e)
		}
	case KindVoid:
		v.errorf(pos, "void constant")
	}
}

// CheckConstruct checks a value constructor T(args) (WGSL "Value
// Constructor Built-in Functions").
func CheckConstruct(t *Type, args []Expr) error {
	if len(args) == 0 {
		if !t.IsConstructible() {
			return fmt.Errorf("cannot construct %v", t)
		}
		return nil
	}
	switch t.Kind {
	case KindBool, KindI32, KindU32, KindF32, KindF16:
		if len(args) == 1 && Identical(args[0].Type(), t) {
			return nil
		}
		return fmt.Errorf("scalar constructor %v needs one %v (conversions are Convert)", t, t)
	case KindVec:
		if len(args) == 1 && Identical(args[0].Type(), t.Elem) {
			return nil // splat
		}
		n := 0
		for _, a := range args {
			at := a.Type()
			if !Identical(at.Scalar(), t.Elem) || at.Width() == 0 {
				return fmt.Errorf("%v constructor: argument of type %v", t, at)
			}
			n += at.Width()
		}
		if n != t.Len {
			return fmt.Errorf("%v constructor: arguments supply %d components", t, n)
		}
		return nil
	case KindArray, KindMat:
		// A matrix is constructed from its C columns in the IR (WGSL
		// #matrix-builtin's scalar form is lowered to column vectors by
		// the front end).
		if len(args) != t.Len {
			return fmt.Errorf("%v constructor: %d arguments", t, len(args))
		}
		for _, a := range args {
			if !Identical(a.Type(), t.Elem) {
				return fmt.Errorf("%v constructor: element of type %v", t, a.Type())
			}
		}
		return nil
	case KindStruct:
		fs := t.Struct.Fields
		if len(args) != len(fs) {
			return fmt.Errorf("%v constructor: %d arguments for %d members", t, len(args), len(fs))
		}
		for i, a := range args {
			if !Identical(a.Type(), fs[i].Type) {
				return fmt.Errorf("%v constructor: member %s given %v", t, fs[i].Name, a.Type())
			}
		}
		return nil
	}
	return fmt.Errorf("cannot construct %v", t)
}

// CheckConvert checks a value conversion T(x) between scalar or vector
// types of equal width (WGSL "Conversion" value constructors).
func CheckConvert(to, from *Type) error {
	if to.Width() == 0 || from.Width() == 0 || to.Width() != from.Width() || (to.Kind == KindVec) != (from.Kind == KindVec) {
		return fmt.Errorf("cannot convert %v to %v", from, to)
	}
	return nil
}

func anyScalarZero(v Value) bool {
	if v.Type.IsScalar() {
		return v.Bits == 0
	}
	for _, e := range v.Elems {
		if anyScalarZero(e) {
			return true
		}
	}
	return false
}

func anyScalarAtLeast(v Value, n uint32) bool {
	if v.Type.IsScalar() {
		return v.Bits >= n
	}
	for _, e := range v.Elems {
		if anyScalarAtLeast(e, n) {
			return true
		}
	}
	return false
}

// constRHS reports the WGSL shader-creation errors a runtime left operand
// does not excuse (WGSL #arithmetic-expr, #bit-expr), for x op y and for
// x op= y: a const-expression zero integer divisor, a const-expression
// shift count ≥ 32. t is the operation's result type.
func (v *verifier) constRHS(pos Pos, op BinaryOp, t *Type, y Expr) {
	lit, ok := y.(*Lit)
	if !ok {
		return
	}
	switch {
	case (op == OpDiv || op == OpRem) && t.Scalar().IsInteger() && anyScalarZero(lit.Val):
		v.errorf(pos, "constant zero divisor in %s (a WGSL shader-creation error)", op)
	case (op == OpShl || op == OpShr) && anyScalarAtLeast(lit.Val, 32):
		v.errorf(pos, "constant shift count ≥ 32 (a WGSL shader-creation error)")
	}
}
