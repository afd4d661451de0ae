package flatten

import (
	"github.com/gpudiff/gpudiff/ir"
)

// lowerer is the predicated-lowering pass: it walks the original
// function (never modifying it) and emits the twin's straight-line body.
//
// State threaded down the body (daslang-flatten §8.2):
//
//   - the structural predicate S of the current frame: the conjunction of
//     the hoisted conditions of the enclosing ifs and switch cases (nil
//     means statically true);
//   - the live mask of the current frame, narrowed by return;
//   - for each enclosing loop, a break mask (persisting across the
//     unrolled copies) and a continue mask (fresh per copy), and for each
//     enclosing switch a break mask.
//
// Masks are SSA values: every narrowing binds a fresh let, so a mask is an
// expression (nil for statically true, the literal false for statically
// false). The effective predicate E of a statement is the conjunction of
// the masks in scope and S. A frame is the function being flattened or an
// inlined callee, whose live mask is seeded with the caller's E at the
// call: the callee never reads or narrows the caller's masks.
type lowerer struct {
	fault  string // FaultEnv's value (tests only)
	m      *ir.Module
	white  map[string]bool
	namer  *ir.Namer
	out    []ir.Stmt
	errs   ir.ErrorList
	fr     *frame
	bounds map[*ir.Loop]*ir.LoopBound
	// info records the kind of every name flatten introduced.
	info map[string]tempKind
	// consts maps twin names to the constant their reads may be replaced
	// with at this point: constant lets, parameter temporaries bound to a
	// literal, and loop counters inside an unrolled copy.
	consts map[string]ir.Value
	// kept records the names of the flattened function's own locals
	// already declared in the twin (the first declaration keeps its name,
	// later ones — unrolled copies — get fresh names).
	kept map[string]bool
	// excludes maps a mask value to the conjunct lists it was narrowed by
	// unconditionally (mask = old && !(c1 && … && cn) with the ci all the
	// other conjuncts at that point): wherever all of some list are
	// conjuncts again, the effective predicate is statically false.
	excludes map[ir.Expr]*exclusions
	// pred caches the let bound for the last effective predicate built
	// from more than one conjunct.
	predKey []ir.Expr
	predVal ir.Expr
	// entry: flattening a compute entry point (entry.go); seqs holds the
	// counter values of loops bounded by evaluation.
	entry bool
	// demoted is the twin's demote mask (demote.go): a fragment entry
	// point's twin whose call graph discards; nil otherwise.
	demoted *ir.Ident
	// fragment: the twin is a fragment entry point's, whose derivatives
	// stay where control is uniform whatever the whitelist says (as a
	// compute twin's barriers do).
	fragment bool
	seqs     map[*ir.Loop][]ir.Value
	// tagSwitches holds the tag sets of the tag switches the tag-set analysis
	// narrows (tagswitch.go).
	tagSwitches map[*ir.Switch]ir.TagSet
	// masked holds the loops precheck chose to keep (masked.go);
	// unbound those of them kept for want of a syntactic bound, which
	// an unrolled copy may still bound (boundInCopy) while room, the
	// copies left under MaxUnroll, allows.
	masked  map[*ir.Loop]bool
	unbound map[*ir.Loop]bool
	room    int64
	// loopStats records the kept loops; pending the barrier guards, whose
	// uniformity is checked once the twin is lowered (checkBarriers).
	loopStats []keptLoop
	unrolled  []ir.Pos
	pending   []pendingBarrier
	// probes are quadUniform's guards, removed once checked (quad.go).
	probes map[ir.Stmt]bool
	// keptStack holds the kept loops being lowered, innermost last;
	// pendingSG the subgroup operations lowered inside one, checked
	// against its kind once the twin is lowered (subgroup.go,
	// checkSubgroupLoops); discarded: a discard has been lowered.
	keptStack []*keptSlot
	pendingSG []pendingSubgroup
	discarded bool
	// deltas are the relative shuffles' deltas replaced by the first
	// active invocation's, given back where uniform (resolveDeltas).
	deltas []pendingDelta
}

// tempKind classifies flatten's temporaries for the cleanup passes.
type tempKind uint8

const (
	tempValue  tempKind = iota + 1 // hoisted conditions, predicates, return values, parameter and index temps
	tempMask                       // live, break and continue masks
	tempRet                        // a composite return variable
	tempShared                     // the value of an access to shared memory: a load or an atomic (entry.go); never moved or removed
)

type frame struct {
	fn       *ir.Func
	root     bool                 // the function being flattened (its names are kept)
	names    map[string]*ir.Ident // original parameter/local name → its twin identifier
	live     ir.Expr
	S        ir.Expr
	targets  []*target
	ret      ir.Expr // scalar/vector result: the current return value (nil: none yet)
	retVar   *ir.Ident
	returned bool // a return has been lowered
}

// target is an enclosing loop or switch: what break (and continue) narrow.
type target struct {
	loop bool
	brk  ir.Expr
	cont ir.Expr
	// late, only under the masked-break-late fault, collects the breaks
	// of a kept loop instead of brk (masked.go).
	late ir.Expr
}

func boolLit(pos ir.Pos, b bool) *ir.Lit { return &ir.Lit{Pos: pos, Val: ir.BoolVal(b)} }

// isFalse reports whether e is the literal false (a statically false mask).
func isFalse(e ir.Expr) bool { return e != nil && isBoolLit(e, false) }

// lowerFunc is the "lower" pass: the twin's body, unoptimized but correct.
func lowerFunc(l *lowerer, f *ir.Func) *ir.Block {
	fr := &frame{fn: f, root: true, names: map[string]*ir.Ident{}}
	for _, p := range f.Params {
		fr.names[p.Name] = &ir.Ident{Pos: p.Pos, Name: p.Name, T: p.T, Ref: ir.RefParam}
		l.kept[p.Name] = true
	}
	l.fr = fr
	l.fragment = f.Stage == ir.StageFragment
	l.beginDemote(f)
	l.beginFrame(f.Result, f.Pos)
	l.block(f.Body)
	l.endDemote(f)
	if !f.Result.IsVoid() {
		l.out = append(l.out, &ir.Return{Pos: f.Pos, Value: l.frameResult(f.Pos)})
	}
	return ir.NewBlock(f.Body.Pos, l.out...)
}

func (l *lowerer) beginFrame(result *ir.Type, pos ir.Pos) {
	if !result.IsVoid() && !result.Scalar().IsScalar() {
		name := l.fresh("ret", tempRet)
		l.emit(&ir.Decl{Pos: pos, Name: name, T: result, Mutable: true})
		l.fr.retVar = &ir.Ident{Pos: pos, Name: name, T: result, Ref: ir.RefVar}
	}
}

// frameResult is the value a finished frame returned.
func (l *lowerer) frameResult(pos ir.Pos) ir.Expr {
	if l.fr.retVar != nil {
		return l.fr.retVar
	}
	if l.fr.ret == nil { // every return was statically dead: cannot happen for a valid function
		return &ir.Lit{Pos: pos, Val: ir.Zero(l.fr.fn.Result)}
	}
	return l.fr.ret
}

func (l *lowerer) emit(s ir.Stmt) { l.out = append(l.out, s) }

func (l *lowerer) errorf(pos ir.Pos, format string, args ...any) {
	l.errs.Add(l.m.File, pos, "flatten", format, args...)
}

func (l *lowerer) fresh(base string, k tempKind) string {
	n := l.namer.Fresh(base)
	l.info[n] = k
	return n
}

// bind returns e bound to a fresh let named after base — or e itself
// when it is a literal or an immutable identifier, which need no binding.
func (l *lowerer) bind(base string, e ir.Expr, k tempKind) ir.Expr {
	if isLit(e) {
		return e
	}
	if id, ok := e.(*ir.Ident); ok && !id.Ref.Mutable() {
		return e
	}
	name := l.fresh(base, k)
	l.emit(&ir.Decl{Pos: e.Position(), Name: name, T: e.Type(), Init: e})
	return &ir.Ident{Pos: e.Position(), Name: name, T: e.Type(), Ref: ir.RefLet}
}
