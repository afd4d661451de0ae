package wgsl

import (
	"github.com/gpudiff/gpudiff/ir"
)

// Checking what entry points as written need (ARCHITECTURE.md "Entry
// points as written (compute)"): @compute @workgroup_size entry points
// and their @builtin parameters, var<workgroup>, var<storage> and
// var<uniform> with @group/@binding, atomics and arrayLength.

// sharedVar checks a module-scope var in the workgroup, storage or
// uniform address space (WGSL #var-and-value, #address-spaces,
// #resource-interface).
func (c *chkCtx) sharedVar(space string) {
	a := c.d.a
	g := &ir.SharedVar{Pos: c.pos(a.nameOff), Name: a.name, Group: -1, Binding: -1, Access: ir.AccessRead}
	switch space {
	case "workgroup":
		g.Space = ir.SpaceWorkgroup
	case "storage":
		g.Space = ir.SpaceStorage
	case "uniform":
		g.Space = ir.SpaceUniform
	}
	if len(a.tmpl) > 2 {
		c.errorf(a.tmpl[2].astOff(), "too many template arguments for var")
	}
	if len(a.tmpl) == 2 {
		am, ok := a.tmpl[1].(*astIdentExpr)
		if !ok || am.hasTmpl {
			c.errorf(a.tmpl[1].astOff(), "expected an access mode")
		}
		if space != "storage" {
			c.errorf(am.off, "an access mode may only be given for the storage address space")
		}
		switch am.name {
		case "read":
		case "read_write":
			g.Access = ir.AccessReadWrite
		case "write":
			c.errorf(am.off, "the storage address space does not allow the access mode 'write' (read or read_write)")
		default:
			c.errorf(am.off, "unknown access mode '%s'", am.name)
		}
	}
	var groupOff int32 = -1
	for _, at := range a.attrs {
		switch at.name {
		case "group", "binding":
			if len(at.args) != 1 {
				c.errorf(at.off, "@%s needs one argument", at.name)
			}
			op := c.expr(at.args[0])
			if op.c == nil || !op.t.isInt() || !op.t.isScalar() || op.c.i < 0 {
				c.errorf(astExprStart(at.args[0]), "@%s needs a non-negative integer const-expression", at.name)
			}
			if at.name == "group" {
				g.Group, groupOff = int(op.c.i), at.off
			} else {
				g.Binding = int(op.c.i)
			}
		default:
			c.outsidef(at.off, "variable attribute @%s", at.name)
		}
	}
	if space == "workgroup" && (g.Group >= 0 || g.Binding >= 0) {
		c.errorf(a.attrs[0].off, "a var<workgroup> cannot have @group or @binding")
	}
	if space != "workgroup" && (g.Group < 0 || g.Binding < 0) {
		c.errorf(a.nameOff, "resource variable '%s' needs @group and @binding", a.name)
	}
	_ = groupOff
	if a.init != nil {
		c.errorf(astExprStart(a.init), "a var<%s> cannot have an initializer", space)
	}
	if a.typ == nil {
		c.errorf(a.nameOff, "var<%s> '%s' needs a type", space, a.name)
	}
	t := c.resolveType(a.typ)
	it := t.toIR()
	switch {
	case space == "uniform" && (it.HasAtomic() || it.HasRuntimeArray()):
		c.errorf(a.typ.off, "var<uniform> '%s' cannot hold %v (atomics and runtime-sized arrays are storage only)", a.name, t)
	case space == "workgroup" && it.HasRuntimeArray():
		c.errorf(a.typ.off, "var<workgroup> '%s' cannot hold a runtime-sized array", a.name)
	case space == "storage" && it.HasAtomic() && g.Access != ir.AccessReadWrite:
		c.errorf(a.typ.off, "atomics in var<storage> '%s' need the read_write access mode", a.name)
	}
	if space != "workgroup" {
		c.hostLayout(it, space == "uniform", a.typ.off)
	}
	c.bindingLimit(space, it, a.typ.off)
	if space != "workgroup" && hasBool(it) {
		c.errorf(a.typ.off, "var<%s> '%s': bool is not host-shareable", space, a.name)
	}
	g.T = it
	c.d.shared = g
}

func hasBool(t *ir.Type) bool {
	switch t.Kind {
	case ir.KindBool:
		return true
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray:
		return hasBool(t.Elem)
	case ir.KindStruct:
		for _, f := range t.Struct.Fields {
			if hasBool(f.Type) {
				return true
			}
		}
	}
	return false
}

// builtinAttr returns the builtin value a @builtin attribute names: the
// compute invocation builtins, the vertex and fragment ones of the subset
// (ir.VertexBuiltins, ir.VertexOutputBuiltins, ir.FragmentBuiltins); the
// render builtins v1 leaves out (sample_index, sample_mask, frag_depth,
// clip_distances, primitive_index) and the subgroup ones are outside the
// subset.
func (c *chkCtx) builtinAttr(at *astAttr) string {
	if len(at.args) != 1 {
		c.errorf(at.off, "@builtin needs one argument")
	}
	id, ok := at.args[0].(*astIdentExpr)
	if !ok {
		c.errorf(at.args[0].astOff(), "expected a builtin value name")
	}
	_, compute := ir.InvocationBuiltins[id.name]
	_, fragment := ir.FragmentBuiltins[id.name]
	_, vertex := ir.VertexBuiltins[id.name]
	_, vertexOut := ir.VertexOutputBuiltins[id.name]
	switch {
	case compute || fragment || vertex || vertexOut:
	case id.name == "sample_index" || id.name == "sample_mask":
		c.outsidef(id.off, "builtin value %s (gpudiff's v1 render pipelines draw one sample per pixel: no MSAA)", id.name)
	case id.name == "frag_depth":
		c.outsidef(id.off, "builtin value frag_depth (gpudiff's v1 render pipelines have no depth attachment)")
	case id.name == "clip_distances":
		c.outsidef(id.off, "builtin value clip_distances (gpudiff's v1 render pipelines clip only to the clip volume)")
	default:
		c.outsidef(id.off, "builtin value %s", id.name)
	}
	return id.name
}

// entryAttrs checks a function's attributes: @compute with
// @workgroup_size make it a compute entry point, @fragment a fragment
// entry point; anything else is outside the subset.
func (c *chkCtx) entryAttrs(f *ir.Func) {
	a := c.d.a
	var wg *astAttr
	for _, at := range a.attrs {
		switch at.name {
		case "compute":
			f.Stage, f.StagePos = ir.StageCompute, c.pos(at.off)
		case "fragment":
			f.Stage, f.StagePos = ir.StageFragment, c.pos(at.off)
		case "vertex":
			f.Stage, f.StagePos = ir.StageVertex, c.pos(at.off)
		case "workgroup_size":
			wg = at
		default:
			c.outsidef(at.off, "function attribute @%s", at.name)
		}
	}
	if f.Stage != ir.StageCompute {
		if wg != nil {
			c.errorf(wg.off, "@workgroup_size is only allowed on a compute entry point")
		}
		return
	}
	if wg == nil {
		c.errorf(a.kwOff, "compute entry point '%s' needs @workgroup_size", a.name)
	}
	if len(wg.args) < 1 || len(wg.args) > 3 {
		c.errorf(wg.off, "@workgroup_size takes 1 to 3 arguments")
	}
	f.WorkgroupSize = [3]uint32{1, 1, 1}
	total := int64(1)
	for i, e := range wg.args {
		op := c.expr(e)
		if op.c == nil || !op.t.isInt() || !op.t.isScalar() {
			c.errorf(astExprStart(e), "@workgroup_size arguments must be integer const-expressions")
		}
		if op.c.i < 1 {
			c.errorf(astExprStart(e), "@workgroup_size argument must be at least 1, got %d", op.c.i)
		}
		if op.c.i > 1024 {
			// WGSL bounds it only at pipeline creation (the device's
			// maxComputeWorkgroupSize limits), not in the shader.
			c.outsidef(astExprStart(e), "@workgroup_size argument %d (gpudiff's reference allows at most 1024)", op.c.i)
		}
		f.WorkgroupSize[i] = uint32(op.c.i)
		total *= op.c.i
	}
	if total > 1024 {
		c.outsidef(wg.off, "workgroup of %d invocations (gpudiff's reference allows at most 1024)", total)
	}
}

// entryParam checks an entry point's parameter: of a compute entry
// point, a builtin value (ir.InvocationBuiltins) of its type, or a struct
// whose members all are; of a vertex or fragment entry point,
// renderParam's. It returns the parameter's builtins and locations.
func (c *chkCtx) entryParam(f *ir.Func, p *astParam, io ioAttrs, t *chkType) ([]string, []int) {
	if f.Stage.IsRenderStage() {
		return c.renderParam(f, p, io, t)
	}
	builtin := io.builtin
	if builtin != "" {
		want, ok := ir.InvocationBuiltins[builtin]
		if !ok {
			c.errorf(p.off, "@builtin(%s) is not an input of a compute entry point (WGSL #builtin-values)", builtin)
		}
		if !ir.Identical(want, t.toIR()) {
			c.errorf(p.typ.off, "@builtin(%s) has type %v, not %v", builtin, want, t)
		}
		return []string{builtin}, nil
	}
	if t.k != ckStruct {
		c.errorf(p.off, "entry point parameter '%s' needs a @builtin attribute", p.name)
	}
	var ins []string
	for _, f := range t.st.Fields {
		if f.Builtin == "" {
			c.errorf(p.off, "entry point parameter '%s': member %s of %s has no @builtin attribute", p.name, f.Name, t.st.Name)
		}
		if want, ok := ir.InvocationBuiltins[f.Builtin]; !ok || !ir.Identical(want, f.Type) {
			if !ok {
				c.errorf(p.off, "entry point parameter '%s': @builtin(%s) member %s is not an input of a compute entry point (WGSL #builtin-values)", p.name, f.Builtin, f.Name)
			}
			c.errorf(p.off, "entry point parameter '%s': @builtin(%s) member %s has type %v, not %v", p.name, f.Builtin, f.Name, f.Type, want)
		}
		ins = append(ins, f.Builtin)
	}
	return ins, nil
}

// sharedCall checks the atomic builtins and arrayLength, whose first
// argument is &reference; ok is false for any other callee.
func (c *chkCtx) sharedCall(x *astCallExpr, stmt bool) (chkOp, bool) {
	id := x.callee
	name := id.name
	if name == "arrayLength" {
		if len(x.args) != 1 {
			c.errorf(id.off, "arrayLength expects 1 argument, got %d", len(x.args))
		}
		p := c.addrOf(x.args[0], name)
		if p.t.k != ckRuntimeArray {
			c.errorf(astExprStart(x.args[0]), "arrayLength needs a pointer to a runtime-sized array, not to %v", p.t)
		}
		return c.mustUse(chkOp{t: chkU32, e: &ir.ArrayLength{Pos: c.pos(id.off), X: p.e}, off: id.off}, stmt, name), true
	}
	if name == "workgroupUniformLoad" && c.mc.byName[name] == nil {
		return c.workgroupUniformLoad(x, stmt), true
	}
	op, ok := ir.LookupAtomic(name)
	if !ok {
		return chkOp{}, false
	}
	if len(x.args) != 1+op.Operands() {
		c.errorf(id.off, "%s expects %d arguments, got %d", name, 1+op.Operands(), len(x.args))
	}
	p := c.addrOf(x.args[0], name)
	if p.t.k != ckAtomic {
		c.errorf(astExprStart(x.args[0]), "%s needs a pointer to an atomic, not to %v", name, p.t)
	}
	if root := ir.RootIdent(p.e); root != nil {
		if g := c.mc.byName[root.Name]; root.Ref == ir.RefShared && g != nil && g.shared != nil && !g.shared.Writable() {
			c.errorf(astExprStart(x.args[0]), "%s of %s, which is read-only", name, root.Name)
		}
		if l := c.local(root.Name); root.Ref == ir.RefPtr && l != nil && l.ptr != nil && l.ptr.readOnly {
			c.errorf(astExprStart(x.args[0]), "%s through %s, which is read-only", name, l.ptr.what)
		}
	}
	args := []ir.Expr{p.e}
	for i, e := range x.args[1:] {
		v := c.to(c.value(e), p.t.elem, "argument "+string(rune('2'+i))+" of "+name)
		args = append(args, c.irOf(v))
	}
	rt := ir.AtomicResultType(op, p.t.elem.toIR())
	if rt.IsVoid() && !stmt {
		c.errorf(id.off, "builtin '%s' does not return a value", name)
	}
	t := chkVoid
	if !rt.IsVoid() {
		t = chkFromIR(rt)
	}
	return chkOp{t: t, e: &ir.Atomic{Pos: c.pos(id.off), Op: op, Args: args, T: rt}, off: id.off}, true
}

// workgroupUniformLoad checks workgroupUniformLoad(&R) (WGSL
// #workgroupUniformLoad-builtin): R rooted at a var<workgroup> of a
// constructible type or an atomic<T> (that overload returns T), anywhere in a function a compute entry point calls
// (a barrier anywhere else is an ir.Verify error): the reference inlines
// the calls that reach one (ir.InlineBarriers) and runs it as barrier,
// load, barrier, as flatten and the emitters do. Its uniformity rules (a
// uniform pointer, uniform control flow, a uniform result) are
// check_uniformity's.
func (c *chkCtx) workgroupUniformLoad(x *astCallExpr, stmt bool) chkOp {
	id := x.callee
	const name = "workgroupUniformLoad"
	if len(x.args) != 1 {
		c.errorf(id.off, "%s expects 1 argument, got %d", name, len(x.args))
	}
	p := c.addrOf(x.args[0], name)
	root := ir.RootIdent(p.e)
	if c.sharedPtrParam(root) {
		// A ptr<workgroup, T> parameter: every stage sees the access the
		// caller's argument designates (ir.DirectVariableAccess).
		if l := c.local(root.Name); l.ptr.space != ir.SpaceWorkgroup {
			c.errorf(astExprStart(x.args[0]), "%s needs a pointer into workgroup memory (ptr<workgroup, T>), not ptr<%s, …>", name, l.ptr.space)
		}
	} else if g := c.mc.byName[root.Name]; g == nil || g.shared == nil || g.shared.Space != ir.SpaceWorkgroup {
		c.errorf(astExprStart(x.args[0]), "%s needs a pointer into workgroup memory (ptr<workgroup, T>)", name)
	}
	rt := p.t
	if p.t.k == ckAtomic {
		rt = p.t.elem // the overload for ptr<workgroup, atomic<T>> returns T
	} else {
		c.constructible(p.t, astExprStart(x.args[0]), "the pointee of "+name)
	}
	t := rt.toIR()
	return c.mustUse(chkOp{t: rt, e: &ir.BuiltinCall{Pos: c.pos(id.off), Fn: ir.BWorkgroupUniformLoad, Args: []ir.Expr{p.e}, T: t}, off: id.off}, stmt, name)
}

// addrOf checks &e, the pointer argument of an atomic builtin or
// arrayLength: e must be a memory view rooted at a storage or workgroup
// variable. It returns e's operand (the reference).
func (c *chkCtx) addrOf(e astExpr, fn string) chkOp {
	e = chkUnparen(e)
	if id, ok := e.(*astIdentExpr); ok {
		if p := c.pointer(id); p != nil && fn == "workgroupUniformLoad" && !p.param && stableWorkgroupView(p) {
			return p.view // a let of a stable workgroup pointer (localDecl)
		}
		if p := c.pointerUse(id); p != nil {
			return p.view // a let holding a pointer: outside the subset
		}
	}
	u, ok := e.(*astUnaryExpr)
	if !ok || u.op != lexAnd {
		c.errorf(astExprStart(e), "the first argument of %s must be a pointer (&variable)", fn)
	}
	if inner := c.pointer(u.x); inner != nil {
		c.errorf(u.off, "cannot take the address of %s", inner.what)
	}
	op := c.expr(u.x)
	if op.e == nil || !ir.IsReference(op.e) || op.vcomp {
		c.errorf(u.off, "cannot take the address of this expression")
	}
	if root := ir.RootIdent(op.e); root == nil || root.Ref != ir.RefShared && !c.sharedPtrParam(root) {
		c.outsidef(u.off, "pointer (address-of operator '&') to a %s", root.Ref)
	}
	return op
}

// sharedPtrParam reports whether id names a pointer parameter into
// shared memory (ptr<workgroup|storage|uniform, T>).
func (c *chkCtx) sharedPtrParam(id *ir.Ident) bool {
	if id.Ref != ir.RefPtr {
		return false
	}
	l := c.local(id.Name)
	return l != nil && l.ptr != nil && l.ptr.param && l.ptr.space.Shared()
}
