package wgsl

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Checking module-scope declarations and resolving types.

// chkAbort unwinds the checking of one declaration after an error was
// recorded. It never escapes the package.
type chkAbort struct{}

// chkOutside unwinds the checking of one declaration that uses a
// construct outside the subset.
type chkOutside struct {
	off    int32
	reason string
	// cause and via, when the declaration is outside the subset because
	// what it uses is: the first construct found outside the subset, and
	// the uses that reach it ("calls g1", "uses const C"), outermost
	// first.
	cause string
	via   []string
}

// chkLocal is a function-scope name.
type chkLocal struct {
	ref  ir.RefKind // RefParam, RefLet or RefVar; 0 for a const
	t    *chkType
	c    *cVal // const value
	name string
	// ptr is set for a let holding a pointer (outside the subset; see
	// pointerUse) and for a pointer parameter (ref RefPtr).
	ptr *chkPtr
}

// chkCtx checks one declaration: its expressions, and for a function its
// statements, lowering them to IR.
type chkCtx struct {
	mc     *chkModule
	d      *chkDecl
	scopes []map[string]*chkLocal
	result *chkType // function result type; nil at module scope
	// flow is the stack of enclosing breakable constructs: 'l' loop,
	// 's' switch, 'c' continuing block.
	flow []byte
	// noEval > 0 while checking an operand that is not evaluated (the
	// right side of a short-circuited const && or ||): const-evaluation
	// errors there are not errors (WGSL #const-expr).
	noEval int
	// pending is the first construct outside the subset that the
	// declaration is refused for once checked through (deferOutside).
	pending *chkOutside
}

// errorf records an error and abandons the declaration.
func (c *chkCtx) errorf(off int32, format string, args ...any) {
	c.mc.errorf(off, format, args...)
	panic(chkAbort{})
}

// outsidef abandons the declaration as outside the subset.
func (c *chkCtx) outsidef(off int32, format string, args ...any) {
	panic(chkOutside{off: off, reason: fmt.Sprintf(format, args...)})
}

// outsideThrough abandons the declaration as outside the subset because
// of a use (what: "calls g", "uses const C") of declaration d, itself
// outside it. One use reads "calls g, which is outside the subset: why";
// a chain of them leads with the cause and names the chain, bounded: "why
// (reached through calls g1 → calls g2 → … (2995 more) → calls g3000)";
// the position stays at the use in this declaration (the chain's first).
func (c *chkCtx) outsideThrough(off int32, what string, d *chkDecl) {
	cause := d.outsideCause
	if cause == "" {
		cause = d.outside
	}
	via := append([]string{what}, d.outsideVia...)
	reason := what + ", which is outside the subset: " + cause
	if len(via) > 1 {
		shown := via
		if len(via) > 6 {
			shown = append(append(append([]string{}, via[:3]...), fmt.Sprintf("… (%d more)", len(via)-5)), via[len(via)-2:]...)
		}
		reason = cause + " (reached through " + strings.Join(shown, " → ") + ")"
	}
	panic(chkOutside{off: off, reason: reason, cause: cause, via: via})
}

func (c *chkCtx) pos(off int32) ir.Pos { return c.mc.pos(off) }

func (c *chkCtx) push() { c.scopes = append(c.scopes, map[string]*chkLocal{}) }
func (c *chkCtx) pop()  { c.scopes = c.scopes[:len(c.scopes)-1] }

func (c *chkCtx) declare(name string, l *chkLocal) {
	l.name = name
	c.scopes[len(c.scopes)-1][name] = l
}

func (c *chkCtx) local(name string) *chkLocal {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if l, ok := c.scopes[i][name]; ok {
			return l
		}
	}
	return nil
}

// checkDecl checks one declaration whose dependencies were checked.
func (mc *chkModule) checkDecl(d *chkDecl) {
	if d.broken {
		return
	}
	for _, dep := range d.deps {
		if dep.d.broken {
			d.broken = true // its error is already reported
			return
		}
	}
	c := &chkCtx{mc: mc, d: d}
	defer func() {
		r := recover()
		if _, outside := r.(chkOutside); (r == nil || outside) && c.pending != nil {
			r = *c.pending // an error abandons it; else its first outside construct is why
		}
		switch r := r.(type) {
		case nil:
		case chkAbort:
			d.broken = true
		case chkOutside:
			d.outside, d.outsideOff = r.reason, r.off
			d.outsideCause, d.outsideVia = r.cause, r.via
			d.st, d.glob, d.fn, d.shared, d.tex = nil, nil, nil, nil, nil
		default:
			panic(r)
		}
		if d.outside == "" && mc.shadowed != "" && (d.st != nil || d.glob != nil || d.fn != nil || d.shared != nil || d.tex != nil) {
			d.outside = fmt.Sprintf("the module redeclares '%s', which the canonical printer uses", mc.shadowed)
			d.outsideOff = d.a.off
			d.st, d.glob, d.fn, d.shared, d.tex = nil, nil, nil, nil, nil
		}
	}()
	a := d.a
	switch a.kind {
	case "fn":
		c.attrsApply(a.attrs, chkFuncAttrs, "a function")
		c.attrsApply(a.retAttrs, chkIOAttrs, "a function's return type")
	case "var":
		c.attrsApply(a.attrs, chkSet(`group binding`), "a module-scope variable")
	case "override":
		c.attrsApply(a.attrs, chkSet(`id`), "an override declaration")
	}
	for _, m := range a.members {
		c.attrsApply(m.attrs, chkMemberAttrs, "a structure member")
	}
	for _, p := range a.params {
		c.attrsApply(p.attrs, chkParamAttrs, "a function parameter")
	}
	c.attrValues(a.attrs)
	c.attrValues(a.retAttrs)
	for _, m := range a.members {
		c.attrValues(m.attrs)
	}
	for _, p := range a.params {
		c.attrValues(p.attrs)
	}
	switch a.kind {
	case "struct":
		c.structDecl()
	case "alias":
		d.t = c.resolveType(a.typ)
	case "const":
		op := c.expr(a.init)
		if op.c == nil {
			c.errorf(astExprStart(a.init), "the initializer of const '%s' must be a const-expression", a.name)
		}
		if a.typ != nil {
			op = c.to(op, c.resolveType(a.typ), "initializer of const '"+a.name+"'")
		}
		d.c = op.c
	case "override":
		c.overrideDecl()
	case "var":
		c.globalVar()
	case "const_assert":
		c.constAssert(a.init)
	case "fn":
		c.function()
	}
}

// The attributes that apply to each kind of object (WGSL #attributes);
// any other there is an error, never a construct outside the subset.
var (
	chkFuncAttrs   = chkSet(`compute vertex fragment workgroup_size must_use diagnostic`)
	chkIOAttrs     = chkSet(`builtin location interpolate invariant blend_src`)
	chkParamAttrs  = chkSet(`builtin location interpolate invariant`)
	chkMemberAttrs = chkSet(`align size builtin location interpolate invariant blend_src`)
)

// attrsApply refuses an attribute that does not apply to what it is
// written on.
func (c *chkCtx) attrsApply(as []*astAttr, allowed map[string]bool, on string) {
	for _, at := range as {
		if !allowed[at.name] {
			c.errorf(at.off, "attribute @%s does not apply to %s (WGSL #attributes)", at.name, on)
		}
	}
}

// attrValues checks the arguments of the attributes that take an integer
// const-expression (WGSL #attributes) before any attribute makes the
// declaration outside the subset: @location, @id, @blend_src, @group and
// @binding take a non-negative one, @size a positive one and @align a
// positive power of two. Grammar and arity are the resolver's
// (attrForm); @workgroup_size, which may take override-expressions, is
// entryAttrs'.
func (c *chkCtx) attrValues(as []*astAttr) {
	for _, at := range as {
		switch at.name {
		case "location", "id", "blend_src", "group", "binding", "size", "align":
		default:
			continue
		}
		e := at.args[0]
		op := c.expr(e)
		if op.c == nil || !op.t.isScalar() || !op.t.isInt() {
			c.errorf(astExprStart(e), "@%s needs an integer const-expression, not %v", at.name, op.t)
		}
		v := op.c.i
		switch {
		case at.name == "size" && v < 1:
			c.errorf(astExprStart(e), "@size needs a positive value, got %d", v)
		case at.name == "align" && (v < 1 || v&(v-1) != 0):
			c.errorf(astExprStart(e), "@align needs a positive power of two, got %d", v)
		case v < 0:
			c.errorf(astExprStart(e), "@%s needs a non-negative value, got %d", at.name, v)
		}
	}
}

func (c *chkCtx) structDecl() {
	a := c.d.a
	st := &ir.StructDecl{Pos: c.pos(a.nameOff), Name: a.name}
	for i, m := range a.members {
		io := noIO()
		var align, size *astAttr
		for _, at := range m.attrs {
			switch at.name {
			case "align":
				align = at
			case "size":
				size = at
			default:
				c.memberAttr(at, &io)
			}
		}
		t := c.resolveType(m.typ)
		if t.k == ckRuntimeArray && i != len(a.members)-1 {
			c.errorf(m.typ.off, "a runtime-sized array must be the last member of a struct")
		}
		if !io.interp.IsZero() && io.loc < 0 {
			c.errorf(io.off, "@interpolate on member %s without @location (WGSL #interpolation)", m.name)
		}
		f := ir.Field{Pos: c.pos(m.off), Name: m.name, Type: t.toIR(), Builtin: io.builtin, HasLocation: io.loc >= 0, Location: max(io.loc, 0), Interp: io.interp}
		c.layoutAttrs(&f, align, size)
		st.Fields = append(st.Fields, f)
	}
	t := &chkType{k: ckStruct, st: st}
	if n := t.components(); n > chkMaxTypeComponents {
		c.outsidef(a.nameOff, "struct of %d scalar components: more than %d bytes, WebGPU's maxStorageBufferBindingSize (WebGPU §3.6.2 Limits), the largest memory a shader can use", n, maxStorageBufferBindingSize)
	}
	c.d.t = t
	c.d.st = st
}

// layoutAttrs records a member's @align(n) and @size(n) (attrValues has
// checked n: a positive power of two, a positive integer) in f (WGSL
// #structure-member-layout). @size must be at least the byte size of the
// member's type, which must have a fixed footprint (not a runtime-sized
// array). Whether @align is a multiple of the alignment an address space
// requires is checked where a buffer holds the struct (hostLayout).
func (c *chkCtx) layoutAttrs(f *ir.Field, align, size *astAttr) {
	if align != nil {
		f.Align = int(c.expr(align.args[0]).c.i)
	}
	if size == nil {
		return
	}
	n := int(c.expr(size.args[0]).c.i)
	if f.Type.HasRuntimeArray() {
		c.errorf(size.off, "@size cannot be applied to a member of runtime-sized type %v (WGSL #structure-member-layout)", f.Type)
	}
	if min := ir.SizeOf(f.Type); n < min {
		c.errorf(astExprStart(size.args[0]), "@size(%d) is smaller than the size of %v (%d bytes) (WGSL #structure-member-layout)", n, f.Type, min)
	}
	f.Size = n
}

// hostLayout checks the @align attributes of the structs t holds, the
// store type of a var<storage> or var<uniform>: each must be a multiple
// of the member type's required alignment in the address space (WGSL
// #address-space-layout-constraints: RequiredAlignOf, which rounds a
// struct's or array's alignment up to 16 in the uniform address space).
func (c *chkCtx) hostLayout(t *ir.Type, uniform bool, off int32) {
	switch t.Kind {
	case ir.KindArray, ir.KindRuntimeArray:
		c.hostLayout(t.Elem, uniform, off)
	case ir.KindStruct:
		for _, f := range t.Struct.Fields {
			need := ir.AlignOf(f.Type)
			if k := f.Type.Kind; uniform && (k == ir.KindStruct || k == ir.KindArray) {
				need = max(need, 16)
			}
			if f.Align > 0 && f.Align%need != 0 {
				c.errorf(off, "struct %s member %s: @align(%d) is not a multiple of %d, the alignment %v requires in this address space (WGSL #address-space-layout-constraints)", t.Struct.Name, f.Name, f.Align, need, f.Type)
			}
			c.hostLayout(f.Type, uniform, off)
		}
	}
}

func (c *chkCtx) globalVar() {
	a := c.d.a
	if !a.hasTmpl {
		if a.typ != nil {
			if t := c.resolveType(a.typ); t.k == ckHandle {
				c.textureVar(t)
				return
			}
		}
		c.errorf(a.kwOff, "module-scope var '%s' must specify an address space", a.name)
	}
	as, ok := a.tmpl[0].(*astIdentExpr)
	if !ok || as.hasTmpl {
		c.errorf(a.tmpl[0].astOff(), "expected an address space")
	}
	switch as.name {
	case "private":
	case "function":
		c.errorf(as.off, "module-scope var '%s' cannot be in the function address space", a.name)
	case "workgroup", "uniform", "storage":
		c.sharedVar(as.name)
		return
	case "handle", "immediate":
		c.outsidef(as.off, "var<%s>", as.name)
	default:
		c.errorf(as.off, "unknown address space '%s'", as.name)
	}
	if len(a.tmpl) > 1 {
		c.errorf(a.tmpl[1].astOff(), "an access mode may not be given for the private address space")
	}
	if len(a.attrs) > 0 {
		c.outsidef(a.attrs[0].off, "variable attribute @%s", a.attrs[0].name)
	}
	var t *chkType
	if a.typ != nil {
		t = c.resolveType(a.typ)
	}
	g := &ir.Global{Pos: c.pos(a.nameOff), Name: a.name}
	if a.init != nil {
		op := c.expr(a.init)
		if op.c == nil {
			c.errorf(astExprStart(a.init), "the initializer of module-scope var '%s' must be a const-expression", a.name)
		}
		if t == nil {
			t = op.t.concretize()
		}
		op = c.to(op, t, "initializer of '"+a.name+"'")
		g.Init = c.irOf(op)
	} else if t == nil {
		c.errorf(a.nameOff, "var '%s' needs a type or an initializer", a.name)
	}
	c.constructible(t, a.nameOff, "var<private> '"+a.name+"'")
	c.valueLimit(t, a.nameOff, "var<private> '"+a.name+"'")
	g.T = t.toIR()
	c.d.glob = g
}

func (c *chkCtx) constAssert(e astExpr) {
	op := c.expr(e)
	if op.c == nil || op.t.k != ckBool {
		c.errorf(astExprStart(e), "const_assert needs a bool const-expression, got %v", op.t)
	}
	if !op.c.b {
		c.errorf(astExprStart(e), "const assertion failed")
	}
}

func (c *chkCtx) function() {
	a := c.d.a
	f := &ir.Func{Pos: c.pos(a.kwOff), Name: a.name, Result: ir.Void}
	c.entryAttrs(f)
	inputs := map[string]bool{}
	locations := map[int]bool{}
	c.push()
	for _, p := range a.params {
		io := noIO()
		for _, at := range p.attrs {
			c.paramAttr(f, at, &io)
		}
		builtin := io.builtin
		if p.typ.name == "ptr" && c.local("ptr") == nil && c.mc.byName["ptr"] == nil {
			if f.Stage != ir.StageNone {
				c.outsidef(p.typ.off, "pointer parameter")
			}
			space, access, t := c.ptrParamType(p.typ)
			c.d.params = append(c.d.params, t)
			prm := &ir.Param{Pos: c.pos(p.off), Name: p.name, T: t.toIR(), Ptr: space, PtrAccess: access, PtrPos: c.pos(p.typ.off)}
			f.Params = append(f.Params, prm)
			mode := "read_write"
			if !prm.PtrWritable() {
				mode = "read"
			}
			c.declare(p.name, &chkLocal{ref: ir.RefPtr, t: t, ptr: &chkPtr{param: true, space: space, readOnly: !prm.PtrWritable(),
				what: fmt.Sprintf("pointer parameter '%s' (ptr<%v, %v, %s>)", p.name, space, t, mode)}})
			continue
		}
		t := c.valueType(p.typ, "a parameter")
		if f.Stage != ir.StageNone {
			ins, locs := c.entryParam(f, p, io, t)
			for _, b := range ins {
				if inputs[b] {
					c.errorf(p.off, "@builtin(%s) appears more than once among the entry point's inputs (WGSL #builtin-inputs-outputs)", b)
				}
				inputs[b] = true
			}
			for _, l := range locs {
				if locations[l] {
					c.errorf(p.off, "@location(%d) appears more than once among the entry point's inputs (WGSL #input-output-locations)", l)
				}
				locations[l] = true
			}
		}
		c.d.params = append(c.d.params, t)
		f.Params = append(f.Params, &ir.Param{Pos: c.pos(p.off), Name: p.name, T: t.toIR(), Builtin: builtin,
			HasLocation: io.loc >= 0, Location: max(io.loc, 0), Interp: io.interp})
		c.declare(p.name, &chkLocal{ref: ir.RefParam, t: t})
	}
	c.result = chkVoid
	if a.ret != nil {
		c.result = c.valueType(a.ret, "a function result")
		f.Result = c.result.toIR()
	}
	c.resultAttrs(f, a)
	f.Body = &ir.Block{Pos: c.pos(a.body.off), Stmts: c.stmtList(a.body.stmts)}
	c.pop()
	c.behaviors(f, a.body.end)
	c.d.result = c.result
	c.d.alias = c.aliasSummary(f)
	c.d.fn = f
}

// ptrParamType resolves a pointer parameter's type ptr<AS, T[, AM]>
// (WGSL #ref-ptr-types): the function and private address spaces are in
// the subset, whose access mode is always read_write and is not written
// (WGSL #address-space: only storage pointers name one); workgroup,
// storage and uniform pointer parameters are outside it.
func (c *chkCtx) ptrParamType(t *astIdentExpr) (ir.AddressSpace, ir.Access, *chkType) {
	if len(t.tmpl) < 2 || len(t.tmpl) > 3 {
		c.errorf(t.off, "ptr needs an address space, a store type and an optional access mode")
	}
	as, ok := t.tmpl[0].(*astIdentExpr)
	if !ok || as.hasTmpl {
		c.errorf(t.tmpl[0].astOff(), "the first template argument of ptr must be an address space")
	}
	var space ir.AddressSpace
	switch as.name {
	case "function":
		space = ir.SpaceFunction
	case "private":
		space = ir.SpacePrivate
	case "workgroup":
		space = ir.SpaceWorkgroup
	case "storage":
		space = ir.SpaceStorage
	case "uniform":
		space = ir.SpaceUniform
	case "handle":
		c.errorf(as.off, "address space 'handle' cannot be used in WGSL source")
	default:
		c.errorf(as.off, "unknown address space '%s'", as.name)
	}
	var access ir.Access
	if space == ir.SpaceStorage {
		access = ir.AccessRead
	}
	if len(t.tmpl) == 3 {
		if space != ir.SpaceStorage {
			c.errorf(t.tmpl[2].astOff(), "only pointers in the storage address space may specify an access mode (WGSL #address-space)")
		}
		am, ok := t.tmpl[2].(*astIdentExpr)
		switch {
		case !ok || am.hasTmpl:
			c.errorf(t.tmpl[2].astOff(), "the third template argument of ptr must be an access mode")
		case am.name == "read":
		case am.name == "read_write":
			access = ir.AccessReadWrite
		case am.name == "write":
			c.errorf(am.off, "access mode 'write' is not allowed for the storage address space (WGSL #address-space)")
		default:
			c.errorf(am.off, "unknown access mode '%s'", am.name)
		}
	}
	if space == ir.SpaceWorkgroup || space == ir.SpaceStorage || space == ir.SpaceUniform {
		st := c.resolveType(c.typeArg(t.tmpl[1]))
		if space == ir.SpaceUniform && (st.toIRMaybe() == nil || st.toIRMaybe().HasAtomic() || st.toIRMaybe().HasRuntimeArray()) {
			c.errorf(t.tmpl[1].astOff(), "ptr<uniform, %v>: the store type of a uniform pointer must be constructible and host-shareable (WGSL #address-space)", st)
		}
		if space == ir.SpaceWorkgroup && st.toIRMaybe() != nil && st.toIRMaybe().HasRuntimeArray() {
			c.errorf(t.tmpl[1].astOff(), "ptr<workgroup, %v>: a runtime-sized array lives only in storage (WGSL #address-space)", st)
		}
		if space == ir.SpaceStorage && access == ir.AccessRead && st.toIRMaybe() != nil && st.toIRMaybe().HasAtomic() {
			c.errorf(t.tmpl[1].astOff(), "ptr<storage, %v, read>: atomics need read_write (WGSL #atomic-types)", st)
		}
		return space, access, st
	}
	return space, access, c.valueType(c.typeArg(t.tmpl[1]), "a pointer parameter's store type")
}

// resolveType resolves a type specifier (WGSL #type-specifiers). A type
// outside the subset abandons the declaration as outside the subset.
func (c *chkCtx) resolveType(t *astIdentExpr) *chkType {
	name := t.name
	if c.local(name) != nil {
		c.errorf(t.off, "'%s' is not a type", name)
	}
	if d, ok := c.mc.byName[name]; ok {
		switch d.a.kind {
		case "struct", "alias":
			if t.hasTmpl {
				c.errorf(t.off, "type '%s' does not take template arguments", name)
			}
			if d.outside != "" {
				c.outsideThrough(t.off, "uses "+d.a.kind+" "+name, d)
			}
			if d.t == nil {
				panic(chkAbort{})
			}
			return d.t
		}
		c.errorf(t.off, "'%s' is not a type", name)
	}
	if s, ok := chkScalarByName[name]; ok {
		if t.hasTmpl {
			c.errorf(t.off, "type '%s' does not take template arguments", name)
		}
		return s
	}
	if h := c.handleType(t); h != nil {
		return h
	}
	if reason := chkOutsideTypeReason(name); reason != "" {
		c.outsidef(t.off, "%s", reason)
	}
	if a, ok := chkVecAliases[name]; ok {
		if t.hasTmpl {
			c.errorf(t.off, "type '%s' does not take template arguments", name)
		}
		return chkVec(a.n, chkScalarByName[a.elem])
	}
	if chkIsMatrixName(name) {
		return c.matrixType(t)
	}
	switch name {
	case "atomic":
		if len(t.tmpl) != 1 {
			c.errorf(t.off, "atomic needs one template argument, i32 or u32")
		}
		elem := c.resolveType(c.typeArg(t.tmpl[0]))
		if elem.k != ckI32 && elem.k != ckU32 {
			c.errorf(t.tmpl[0].astOff(), "atomic<%v>: atomics hold i32 or u32 (WGSL #atomic-types)", elem)
		}
		return &chkType{k: ckAtomic, elem: elem}
	case "vec2", "vec3", "vec4":
		if len(t.tmpl) != 1 {
			c.errorf(t.off, "%s needs one template argument, the component type", name)
		}
		elem := c.resolveType(c.typeArg(t.tmpl[0]))
		if !elem.isScalar() {
			c.errorf(t.tmpl[0].astOff(), "vector components must be scalars, not %v", elem)
		}
		return chkVec(int(name[3]-'0'), elem)
	case "array":
		switch len(t.tmpl) {
		case 1:
			elem := c.resolveType(c.typeArg(t.tmpl[0]))
			if elem.k == ckRuntimeArray {
				c.errorf(t.tmpl[0].astOff(), "array element type cannot be a runtime-sized array")
			}
			return &chkType{k: ckRuntimeArray, elem: elem}
		case 2:
		default:
			c.errorf(t.off, "array needs an element type and an element count")
		}
		elem := c.resolveType(c.typeArg(t.tmpl[0]))
		if elem.k == ckRuntimeArray {
			c.errorf(t.tmpl[0].astOff(), "array element type cannot be a runtime-sized array")
		}
		n := c.expr(t.tmpl[1])
		if n.c == nil || !n.t.isInt() || !n.t.isScalar() {
			c.errorf(t.tmpl[1].astOff(), "array element count must be an integer const-expression")
		}
		if n.c.i <= 0 {
			c.errorf(t.tmpl[1].astOff(), "array element count must be greater than 0, got %d", n.c.i)
		}
		if n.c.i > chkMaxTypeComponents || int64(elem.components())*n.c.i > chkMaxTypeComponents {
			c.outsidef(t.off, "array of %d elements of %v: more than %d bytes, WebGPU's maxStorageBufferBindingSize (WebGPU §3.6.2 Limits), the largest memory a shader can use", n.c.i, elem, maxStorageBufferBindingSize)
		}
		return chkArray(elem, int(n.c.i))
	}
	if chkIsPredeclared(name) {
		c.errorf(t.off, "'%s' is not a type", name)
	}
	panic(chkAbort{}) // undeclared: reported by the resolver
}

// valueType resolves the type of a parameter, result, let or function-
// scope var: runtime-sized arrays are only allowed in storage buffers
// (WGSL #array-types), so one here is an error, not a construct outside
// the subset.
func (c *chkCtx) valueType(t *astIdentExpr, what string) *chkType {
	if t.name == "array" && len(t.tmpl) == 1 && c.local("array") == nil && c.mc.byName["array"] == nil {
		c.errorf(t.off, "%s cannot have a runtime-sized array type", what)
	}
	r := c.resolveType(t)
	c.constructible(r, t.off, what)
	c.valueLimit(r, t.off, what)
	return r
}

// valueLimit refuses, as outside the subset, a value type of more than
// chkMaxComponents scalar components (what: "a parameter", "var<private>
// 'x'"): the reference makes one per invocation.
func (c *chkCtx) valueLimit(t *chkType, off int32, what string) {
	if t == nil {
		return
	}
	if n := t.components(); n > chkMaxComponents {
		c.outsidef(off, "%s of type %v, %d scalar components: more than gpudiff's limit of %d for a value the reference makes per invocation (a binding may be as large as WebGPU's limits allow)", what, t, n, chkMaxComponents)
	}
}

// bindingLimit refuses, as outside the subset, a var<storage>,
// var<uniform> or var<workgroup> of type t larger than WebGPU's default
// limit for it (WebGPU §3.6.2 "Limits": maxStorageBufferBindingSize,
// maxUniformBufferBindingSize, maxComputeWorkgroupStorageSize; a
// runtime-sized array counts its fixed part): a pipeline using it fails
// on a device with the default limits.
func (c *chkCtx) bindingLimit(space string, t *ir.Type, off int32) {
	limit, name := maxStorageBufferBindingSize, "maxStorageBufferBindingSize"
	switch space {
	case "uniform":
		limit, name = maxUniformBufferBindingSize, "maxUniformBufferBindingSize"
	case "workgroup":
		limit, name = maxComputeWorkgroupStorageSize, "maxComputeWorkgroupStorageSize"
	}
	if n := ir.SizeOf(t); n > limit {
		c.outsidef(off, "var<%s> of %d bytes, more than WebGPU's %s, %d bytes (WebGPU §3.6.2 Limits)", space, n, name, limit)
	}
}

// constructible rejects a type values cannot have: one holding an atomic
// or a runtime-sized array (WGSL #constructible-types).
func (c *chkCtx) constructible(t *chkType, off int32, what string) {
	if t != nil && t.k == ckHandle {
		c.outsidef(off, "%s of type %v (the subset uses a texture or sampler only as a texture builtin's argument)", what, t)
	}
	if ir := t.toIRMaybe(); ir != nil && !ir.IsConstructible() {
		c.errorf(off, "%s cannot have type %v: atomics and runtime-sized arrays live only in storage and workgroup variables", what, t)
	}
}

// typeArg returns a template argument that must name a type.
func (c *chkCtx) typeArg(e astExpr) *astIdentExpr {
	id, ok := e.(*astIdentExpr)
	if !ok {
		c.errorf(e.astOff(), "expected a type")
	}
	return id
}

// matrixType resolves matCxR<f32>, matCxR<f16> or their aliases matCxRf
// and matCxRh (WGSL #matrix-types; f16 needs `enable f16;`, which the
// resolver checks); other component types are errors.
func (c *chkCtx) matrixType(t *astIdentExpr) *chkType {
	name := t.name
	cols, rows := int(name[3]-'0'), int(name[5]-'0')
	if len(name) == 7 {
		if t.hasTmpl {
			c.errorf(t.off, "type '%s' does not take template arguments", name)
		}
		if name[6] == 'h' {
			return chkMatOf(cols, rows, chkF16)
		}
		return chkMat(cols, rows)
	}
	if len(t.tmpl) != 1 {
		c.errorf(t.off, "%s needs one template argument, the component type f32 or f16", name)
	}
	elem := c.resolveType(c.typeArg(t.tmpl[0]))
	if elem.k != ckF32 && elem.k != ckF16 {
		c.errorf(t.tmpl[0].astOff(), "matrix components must be floating point (f32 or f16), not %v (WGSL #matrix-types)", elem)
	}
	return chkMatOf(cols, rows, elem)
}

// overrideDecl checks an override declaration (WGSL #override-decls).
// An override's value is the pipeline constant supplied for it
// (ParseOptions.Overrides, WebGPU GPUProgrammableStage.constants), else
// its default, else DefaultOverrideConstant: the value is substituted at
// every use, as a const's value is (the declaration is kept in the
// module's text with the value as its initializer), so the emitted
// modules carry it and their pipelines need no constants. The initializer may use
// other overrides (their values) and consts.
func (c *chkCtx) overrideDecl() {
	d, a := c.d, c.d.a
	key := overrideKey(c, a)
	d.overrideKey = key
	if key != a.name {
		d.overrideKey = key + " (" + a.name + ")"
	}
	if a.typ != nil {
		if v, ok := c.overrideValue(key, c.resolveType(a.typ)); ok {
			if a.init != nil {
				c.expr(a.init) // still checked
			}
			d.c = v.c
			return
		}
	}
	if a.init == nil {
		c.errorf(a.kwOff, "override '%s' needs a type or an initializer (WGSL #override-decls)", a.name)
	}
	op := c.expr(a.init)
	if op.c == nil {
		c.errorf(astExprStart(a.init), "the initializer of override '%s' must be an override-expression of constants and overrides", a.name)
	}
	if a.typ != nil {
		op = c.to(op, c.resolveType(a.typ), "initializer of override '"+a.name+"'")
	} else {
		op = c.concrete(op)
	}
	if !op.t.isScalar() {
		c.errorf(astExprStart(a.init), "override '%s' has type %v; an override is a bool, i32, u32, f32 or f16 scalar (WGSL #override-decls)", a.name, op.t)
	}
	if a.typ == nil {
		if v, ok := c.overrideValue(key, op.t); ok {
			op = v
		}
	}
	d.c = op.c
}

// overrideKey is the pipeline-constant key of override declaration a:
// its @id when it has one, else its name.
func overrideKey(c *chkCtx, a *astDecl) string {
	for _, at := range a.attrs {
		if at.name == "id" && len(at.args) == 1 {
			if op := c.expr(at.args[0]); op.c != nil {
				return fmt.Sprint(op.c.i)
			}
		}
	}
	return a.name
}
