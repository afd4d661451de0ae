package flatten

import (
	"github.com/gpudiff/gpudiff/ir"
)

// The flatten pipeline, in order (cf. cmd/compile/internal/ssa/compile.go).
//
//	lower      predicated lowering: ifs and switches to selects under
//	           hoisted conditions, returns to a live mask, calls inlined,
//	           bounded loops unrolled with break/continue masks, dynamic
//	           indexes on predicated paths guarded (lower.go, loop.go)
//
// then, repeated until a whole round changes nothing (at most maxRounds):
//
//	fold       exact algebraic identities and constant evaluation (fold.go)
//	maskprop   mask constant propagation: a live/break/continue mask whose
//	           value is a constant is replaced by it at its uses
//	constprop  constant propagation: locals whose current value is a
//	           literal (lets; vars between whole-value assignments)
//	copyprop   copy propagation: a local defined as a copy of another name
//	           is replaced by it, never across a (predicated or not)
//	           redefinition of either
//	forward    a value read exactly once — a let of flatten's, or a
//	           whole-value store to a local var — is moved to its read,
//	           when nothing it reads is assigned in between (depth-capped)
//	dse        dead-store elimination: assignments and declarations whose
//	           value is never read; pure expression statements
//
// and finally the shape check (no control flow, no call, one final
// return) and, with Options.Strict, the residual check (residual.go).
//
// Ordering constraints: lower is first and alone (every later pass
// assumes a straight-line body). fold runs before the propagations so
// constant conditions are already literals when masks are propagated;
// maskprop and constprop run before copyprop (a constant is better than a
// copy); forward runs after the propagations (it only moves what they left
// single-use) and before dse (which removes the definitions forward made
// dead and the masks folds made unread). Each pass preserves the program
// order of the remaining effects: the only effects in a twin are stores,
// and no pass moves a read across a store to what it reads.
var cleanup = []pass{
	{"fold", foldPass},
	{"maskprop", maskPropPass},
	{"constprop", constPropPass},
	{"copyprop", copyPropPass},
	{"forward", forwardPass},
	{"dse", dsePass},
}

const maxRounds = 64

// pass is one step of the pipeline; run reports whether it changed the
// twin.
type pass struct {
	name string
	run  func(*pipe) bool
}

// pipe is the state the passes share.
type pipe struct {
	m    *ir.Module
	twin *ir.Func
	// info classifies the names flatten introduced; names not in it are
	// the user's (renamed copies included).
	info map[string]tempKind
}

func (p *pipe) stmts() []ir.Stmt { return p.twin.Body.Stmts }

func runPipeline(m *ir.Module, f *ir.Func, twinName string, opts Options, bounds map[*ir.Loop]*ir.LoopBound, reserved []string) (*ir.Func, error) {
	namer := ir.NewNamer(m, m.Funcs...)
	namer.Reserve(twinName)
	for _, r := range reserved {
		namer.Reserve(r)
	}
	white := map[string]bool{}
	for _, w := range opts.Whitelist {
		white[w] = true
	}
	l := &lowerer{
		m: m, namer: namer, white: white, fault: fault(),
		info:     map[string]tempKind{},
		consts:   map[string]ir.Value{},
		excludes: map[ir.Expr]*exclusions{},
		kept:     map[string]bool{},
		bounds:   bounds,
	}
	body := lowerFunc(l, f)
	if len(l.errs) > 0 {
		l.errs.Sort()
		return nil, &Error{Kind: Refused, List: dedupe(l.errs)}
	}
	twin := &ir.Func{Pos: f.Pos, Name: twinName, Result: f.Result, Body: body}
	for _, prm := range f.Params {
		q := *prm
		twin.Params = append(twin.Params, &q)
	}
	p := &pipe{m: m, twin: twin, info: l.info}
	check := func(after string) error {
		if !opts.VerifyPasses {
			return nil
		}
		if err := ir.VerifyFunc(m, twin); err != nil {
			return internalf(m, twin.Pos, "after pass %s: twin %s does not verify:\n%v", after, twin.Name, err)
		}
		return nil
	}
	if err := check("lower"); err != nil {
		return nil, err
	}
	for round := 0; round < maxRounds; round++ {
		changed := false
		for _, ps := range cleanup {
			if ps.run(p) {
				changed = true
				if err := check(ps.name); err != nil {
					return nil, err
				}
			}
		}
		if !changed {
			break
		}
	}
	keepABI(m, f, twin)
	if err := finalCheck(m, twin, "cleanup"); err != nil {
		return nil, err
	}
	if opts.Strict {
		if errs := residuals(p); len(errs) > 0 {
			return nil, &Error{Kind: Residual, List: errs}
		}
	}
	return twin, nil
}

// keepABI makes the twin mention every private global the original's call
// graph uses, so both have the same kernel ABI (ir.NewKernelABI: "ret",
// then the globals used, in module order) and their outputs line up. A
// global the twin no longer mentions — it was only read, or written only
// where the cleanup proved it dead — keeps its initial value in both, so
// a phony read `_ = g;` before the final return is all it takes.
func keepABI(m *ir.Module, f, twin *ir.Func) {
	mentioned := map[string]bool{}
	ir.Inspect(twin.Body, func(n ir.Node) bool {
		if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefGlobal {
			mentioned[id.Name] = true
		}
		return true
	})
	var keep []ir.Stmt
	for _, g := range m.GlobalsUsed(f.Name) {
		if !mentioned[g.Name] {
			keep = append(keep, &ir.ExprStmt{Pos: f.Pos, X: &ir.Ident{Pos: f.Pos, Name: g.Name, T: g.T, Ref: ir.RefGlobal}})
		}
	}
	if len(keep) == 0 {
		return
	}
	stmts := twin.Body.Stmts
	n := len(stmts)
	if n > 0 {
		if r, ok := stmts[n-1].(*ir.Return); ok {
			twin.Body.Stmts = append(append(stmts[:n-1:n-1], keep...), r)
			return
		}
	}
	twin.Body.Stmts = append(stmts, keep...)
}

// dedupe drops repeated diagnostics (the same construct reached through
// several unrolled copies or inlined calls), keeping the first of each
// position and message.
func dedupe(errs ir.ErrorList) ir.ErrorList {
	seen := map[string]bool{}
	var out ir.ErrorList
	for _, e := range errs {
		if k := e.Error(); !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}
