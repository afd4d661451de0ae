package spirv

import (
	"github.com/gpudiff/gpudiff/ir"
)

// fnEmitter emits one SPIR-V function: its OpVariables (all in the first
// block, SPIR-V §2.16.1 — "all OpVariable instructions in a function must
// be the first instructions in the first block") and its blocks in
// structured order (SPIR-V §2.11, "Structured Control Flow").
type fnEmitter struct {
	e    *emitter
	b    *builder
	vars []uint32 // OpVariable instructions of the first block
	code []uint32 // everything after them
	cur  uint32   // label of the open block; 0 once it is terminated
	// labelEnd is len(code) just after the open block's OpLabel: the
	// block is still empty when len(code) == labelEnd.
	labelEnd int

	result  *ir.Type
	vals    map[string]binding // names are unique per function (ir.Verify)
	targets []jumpTarget
	demoted map[string]bool // lets that need a variable (see demotedLets)
	named   map[uint32]bool // values a parameter or let already stands for
	reached map[uint32]bool // labels some emitted branch targets
}

// binding is what a name stands for: a value (parameters, lets) or a
// pointer to load from and store to (vars, globals, demoted lets).
type binding struct {
	id    uint32
	ptr   bool
	class uint32 // storage class of a pointer binding
}

// jumpTarget is an enclosing breakable construct: a loop (break → its
// merge block, continue → its continue target) or a switch (break → its
// merge block).
type jumpTarget struct {
	brk, cont uint32
	loop      bool
}

func (e *emitter) newFn(result *ir.Type) *fnEmitter {
	return &fnEmitter{e: e, b: e.b, result: result, vals: map[string]binding{}, named: map[uint32]bool{}, reached: map[uint32]bool{}}
}

// op emits "%r = op typ operands…" into the current block and returns %r.
func (f *fnEmitter) op(op opcode, typ uint32, operands ...uint32) uint32 {
	r := f.b.id()
	f.code = append(f.code, uint32(len(operands)+3)<<16|uint32(op), typ, r)
	f.code = append(f.code, operands...)
	return r
}

// inst emits an instruction without result id.
func (f *fnEmitter) inst(op opcode, operands ...uint32) { emit(&f.code, op, operands...) }

// label opens block id.
func (f *fnEmitter) label(id uint32) {
	emit(&f.code, opLabel, id)
	f.cur = id
	f.labelEnd = len(f.code)
}

// branch ends the open block with OpBranch target, if a block is open.
func (f *fnEmitter) branch(target uint32) {
	if f.cur != 0 {
		f.inst(opBranch, target)
		f.reached[target] = true
		f.cur = 0
	}
}

// branchCond ends the open block with OpBranchConditional.
func (f *fnEmitter) branchCond(cond, t, e uint32) {
	f.reached[t], f.reached[e] = true, true
	f.terminate(opBranchConditional, cond, t, e)
}

// mergeBlock opens the merge block of a construct. When no branch reaches
// it (every path through the construct jumped elsewhere), it is emitted as
// a dead end (deadEnd), and the code after the construct is dead: block
// skips it, so unreachable code never holds constructs of its own
// (spirv-val cannot place unreachable constructs in their enclosing loop,
// SPIR-V §2.11).
func (f *fnEmitter) mergeBlock(merge uint32) {
	f.label(merge)
	if !f.reached[merge] {
		f.deadEnd()
	}
}

// deadEnd terminates a block that no branch reaches: with a return (of a
// null value in a non-void function; workarounds.noUnreachable), else
// with OpUnreachable.
func (f *fnEmitter) deadEnd() {
	switch {
	case !f.e.work.noUnreachable:
		f.terminate(opUnreachable)
	case f.result.IsVoid():
		f.terminate(opReturn)
	default:
		f.terminate(opReturnValue, f.b.constNull(f.e.typeOf(f.result)))
	}
}

// terminate ends the open block with an instruction such as OpReturn.
func (f *fnEmitter) terminate(op opcode, operands ...uint32) {
	f.inst(op, operands...)
	f.cur = 0
}

// newVar declares a Function-storage variable of type t in the first block.
func (f *fnEmitter) newVar(t *ir.Type, name string) uint32 {
	id := f.b.id()
	emit(&f.vars, opVariable, f.b.typePointer(storageClassFunction, f.e.typeOf(t)), id, storageClassFunction)
	f.b.name(id, name)
	return id
}

// glsl emits a GLSL.std.450 extended instruction.
func (f *fnEmitter) glsl(inst uint32, typ uint32, args ...uint32) uint32 {
	return f.op(opExtInst, typ, append([]uint32{f.b.glslSet(), inst}, args...)...)
}

// load emits OpLoad of a pointer to a value of type t.
func (f *fnEmitter) load(t *ir.Type, ptr uint32) uint32 { return f.op(opLoad, f.e.typeOf(t), ptr) }

// store emits OpStore.
func (f *fnEmitter) store(ptr, v uint32) { f.inst(opStore, ptr, v) }

// finish wraps the function's code into OpFunction … OpFunctionEnd and
// appends it to the module. header holds OpFunction and its parameters;
// entry is the first block's label.
func (f *fnEmitter) finish(header []uint32, entry uint32) {
	if f.cur != 0 {
		if f.result.IsVoid() {
			f.terminate(opReturn)
		} else {
			// Falling off the end of a non-void function is unreachable
			// (ir.Verify, WGSL "Statement Behavior Analysis").
			f.terminate(opUnreachable)
		}
	}
	out := &f.b.functions
	*out = append(*out, header...)
	emit(out, opLabel, entry)
	*out = append(*out, f.vars...)
	*out = append(*out, f.code...)
	emit(out, opFunctionEnd)
}

// function emits the user function fn.
func (e *emitter) function(fn *ir.Func) {
	fi := e.funcs[fn.Name]
	f := e.newFn(fn.Result)
	f.demoted = demotedLets(fn)
	var header []uint32
	emit(&header, opFunction, fi.result, fi.id, functionControlNone, fi.typ)
	for i, p := range fn.Params {
		id := e.b.id()
		emit(&header, opFunctionParameter, fi.params[i], id)
		e.b.name(id, p.Name)
		f.vals[p.Name] = binding{id: id}
		if p.Ptr != 0 {
			f.vals[p.Name] = binding{id: id, ptr: true, class: ptrClass(p.Ptr)}
		}
		f.named[id] = true
	}
	entry := e.b.id()
	f.cur = entry
	f.block(fn.Body)
	f.finish(header, entry)
}

// demotedLets returns the lets that are declared at the top level of a
// loop body and used in its continuing block or break-if. Such a let is
// kept in a Function variable: a continue before its declaration reaches
// the continue target without passing it, so its value would not dominate
// the use (SPIR-V §2.16, "Universal Validation Rules": definitions
// dominate uses).
func demotedLets(fn *ir.Func) map[string]bool {
	var out map[string]bool
	ir.Inspect(fn.Body, func(n ir.Node) bool {
		l, ok := n.(*ir.Loop)
		if !ok {
			return true
		}
		lets := map[string]bool{}
		for _, s := range l.Body.Stmts {
			if d, ok := s.(*ir.Decl); ok && !d.Mutable {
				lets[d.Name] = true
			}
		}
		if len(lets) == 0 {
			return true
		}
		mark := func(n ir.Node) bool {
			if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefLet && lets[id.Name] {
				if out == nil {
					out = map[string]bool{}
				}
				out[id.Name] = true
			}
			return true
		}
		ir.Inspect(l.Continuing, mark)
		if l.BreakIf != nil {
			ir.Inspect(l.BreakIf, mark)
		}
		return true
	})
	return out
}

// block emits the statements of b. Statements after the open block has
// been terminated (dead code after a nested block that always jumps) are
// not emitted.
func (f *fnEmitter) block(b *ir.Block) {
	for _, s := range b.Stmts {
		if f.cur == 0 {
			return
		}
		f.stmt(s)
	}
}

func (f *fnEmitter) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Block:
		f.block(s)
	case *ir.Decl:
		f.decl(s)
	case *ir.Assign:
		f.assign(s)
	case *ir.ExprStmt:
		if ir.IsReference(s.X) && !ir.Any(s.X, hasEffect) {
			// A discarded load (`_ = v`) has no effect; emitting it would
			// copy v into a value, one OpCompositeConstruct operand per
			// element (more than an instruction's 65535 words for a large
			// binding, SPIR-V §2.3).
			return
		}
		f.expr(s.X)
	case *ir.If:
		f.ifStmt(s)
	case *ir.Loop:
		f.loop(s)
	case *ir.Switch:
		f.switchStmt(s)
	case *ir.Break:
		f.branch(f.targets[len(f.targets)-1].brk)
	case *ir.Continue:
		for i := len(f.targets) - 1; i >= 0; i-- {
			if f.targets[i].loop {
				f.branch(f.targets[i].cont)
				return
			}
		}
	case *ir.Discard:
		f.discard(s) // render.go
	case *ir.Return:
		if s.Value == nil {
			f.terminate(opReturn)
		} else {
			f.terminate(opReturnValue, f.expr(s.Value))
		}
	default:
		f.e.errorf(s.Position(), "unsupported statement %T", s)
	}
}

// decl emits a let (a value, or a variable when demoted) or a var (a
// Function variable, stored at the declaration each time it executes:
// its initializer or the zero value, WGSL "Variable Declarations").
func (f *fnEmitter) decl(d *ir.Decl) {
	if !d.Mutable && !f.demoted[d.Name] {
		v := f.expr(d.Init)
		if f.isFresh(v) {
			f.b.name(v, d.Name)
		}
		f.named[v] = true
		f.vals[d.Name] = binding{id: v}
		return
	}
	id := f.newVar(d.T, d.Name)
	f.vals[d.Name] = binding{id: id, ptr: true, class: storageClassFunction}
	var v uint32
	if d.Init != nil {
		v = f.expr(d.Init)
	} else {
		v = f.b.constNull(f.e.typeOf(d.T))
	}
	f.store(id, v)
}

// isFresh reports whether v is a result of this function's code that no
// name refers to yet (so OpName on it names only this let).
func (f *fnEmitter) isFresh(v uint32) bool {
	return f.b.debugNames && !f.b.moduleScope[v] && !f.named[v]
}

// assign emits a simple or compound assignment: the reference first, then
// (for op=) a load through it, then the right-hand side, then the store
// (WGSL "Simple Assignment", "Compound Assignment": the reference is
// evaluated once).
func (f *fnEmitter) assign(s *ir.Assign) {
	ptr, class, pointee := f.refp(s.LHS)
	lt := s.LHS.Type()
	if s.Op == ir.OpNone {
		f.storeTo(ptr, class, pointee, f.expr(s.RHS), lt)
		return
	}
	old := f.op(opLoad, pointee, ptr)
	if hostClass(class) {
		old = f.fromHost(old, lt)
	}
	rhs := f.expr(s.RHS)
	f.storeTo(ptr, class, pointee, f.binary(s.Pos, s.Op, old, lt, rhs, s.RHS.Type(), lt), lt)
}

// ifStmt emits a selection construct: OpSelectionMerge, then
// OpBranchConditional to the then block and to the else block (or to the
// merge block when Else is empty).
func (f *fnEmitter) ifStmt(s *ir.If) {
	cond := f.expr(s.Cond)
	then, merge := f.b.id(), f.b.id()
	els := merge
	if len(s.Else.Stmts) > 0 {
		els = f.b.id()
	}
	f.inst(opSelectionMerge, merge, selectionControlNone)
	f.branchCond(cond, then, els)
	f.label(then)
	f.block(s.Then)
	f.branch(merge)
	if els != merge {
		f.label(els)
		f.block(s.Else)
		f.branch(merge)
	}
	f.mergeBlock(merge)
}

// loop emits a loop construct (SPIR-V §2.11): a header block holding only
// OpLoopMerge merge continue, the body, the continue construct (the
// continuing block; its last block is the back-edge block, ending with
// OpBranchConditional breakIf merge header when there is a break-if), and
// the merge block. The continue target and the merge block exist even when
// nothing reaches them.
func (f *fnEmitter) loop(s *ir.Loop) {
	header, body, cont, merge := f.b.id(), f.b.id(), f.b.id(), f.b.id()
	f.branch(header)
	f.label(header)
	f.inst(opLoopMerge, merge, cont, loopControlNone)
	f.terminate(opBranch, body)
	f.label(body)
	f.targets = append(f.targets, jumpTarget{brk: merge, cont: cont, loop: true})
	f.block(s.Body)
	f.targets = f.targets[:len(f.targets)-1]
	f.branch(cont)
	f.label(cont)
	if !f.reached[cont] {
		// Nothing continues: the continue target only closes the loop.
		f.branch(header)
		f.mergeBlock(merge)
		return
	}
	f.block(s.Continuing)
	if f.cur != 0 {
		if s.BreakIf != nil {
			f.branchCond(f.expr(s.BreakIf), merge, header)
		} else {
			f.branch(header)
		}
	}
	f.mergeBlock(merge)
}

// switchStmt emits a switch construct: OpSelectionMerge, then OpSwitch
// with one target block per case clause, each falling out to the merge
// block. The clause holding default is the default target; its values are
// not listed (every value not listed reaches the default target, and
// wgpu's SPIR-V front end mishandles literals that target the default
// block: workarounds.noDefaultLiterals).
func (f *fnEmitter) switchStmt(s *ir.Switch) {
	sel := f.expr(s.Selector)
	merge := f.b.id()
	labels := make([]uint32, len(s.Cases))
	var def uint32
	operands := []uint32{sel, 0}
	for i, c := range s.Cases {
		labels[i] = f.b.id()
		if c.Default {
			def = labels[i]
		}
		if c.Default && f.e.work.noDefaultLiterals {
			continue // its values reach the default target anyway
		}
		for _, v := range c.Values {
			operands = append(operands, v.Bits, labels[i])
		}
	}
	operands[1] = def
	f.inst(opSelectionMerge, merge, selectionControlNone)
	f.terminate(opSwitch, operands...)
	for _, l := range labels {
		f.reached[l] = true
	}
	f.targets = append(f.targets, jumpTarget{brk: merge})
	for i, c := range s.Cases {
		f.label(labels[i])
		f.block(c.Body)
		f.branch(merge)
	}
	f.targets = f.targets[:len(f.targets)-1]
	f.mergeBlock(merge)
}

// hasEffect reports whether n is a call, an atomic or a builtin that is
// not pure (an expression node with an effect beyond its value).
func hasEffect(n ir.Node) bool {
	switch x := n.(type) {
	case *ir.Call, *ir.Atomic:
		return true
	case *ir.BuiltinCall:
		return !x.Fn.Info().Pure()
	}
	return false
}
