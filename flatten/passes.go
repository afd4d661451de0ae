package flatten

import (
	"fmt"
	"os"

	"github.com/gpudiff/gpudiff/ir"
)

// The flatten pipeline (cf. cmd/compile/internal/ssa/compile.go): every
// step of flattening a function is a row of passes, in order, and
// passOrder states why each must come where it does; init checks the
// table against it. The rows marked cleanup repeat, in order, until a
// whole round changes nothing (at most maxRounds rounds). Each pass
// preserves the program order of the remaining effects: the only effects
// in a twin are stores, and no pass moves a read across a store to what it
// reads.
//
// A function that is already of the twin shape (isFlat) is its own twin:
// lower clones it, and neither cleanup, keepabi nor strict runs (the twin
// is the user's code as written).
var passes = []pass{
	{name: "precheck", run: precheckPass, doc: "refusals before any rewriting: recursion, unbounded loops, the unroll count, builtins outside the whitelist (check.go)"},
	{name: "lower", run: lowerPass, doc: "predicated lowering: ifs and switches to selects under hoisted conditions, returns to a live mask, calls inlined (a tag switch's candidates only where the tag-set analysis leaves them, tagswitch.go), bounded loops unrolled with break/continue masks, dynamic indexes on predicated paths guarded (lower*.go, loop.go)"},
	{name: "fold", cleanup: true, run: cleanupPass(foldPass), doc: "exact algebraic and Boolean identities and constant evaluation (fold.go, boolfold.go, consteval.go)"},
	{name: "maskprop", cleanup: true, run: cleanupPass(maskPropPass), doc: "mask constant propagation: a live/break/continue mask whose value is a constant is replaced by it at its uses"},
	{name: "constprop", cleanup: true, run: cleanupPass(constPropPass), doc: "constant propagation: locals whose current value is a literal (lets; vars between whole-value assignments)"},
	{name: "copyprop", cleanup: true, run: cleanupPass(copyPropPass), doc: "copy propagation: a local defined as a copy of another name is replaced by it, never across a (predicated or not) redefinition of either"},
	{name: "forward", cleanup: true, run: cleanupPass(forwardPass), doc: "a value read exactly once — a let of flatten's, or a whole-value store to a local var — is moved to its read, when nothing it reads is assigned in between (depth-capped)"},
	{name: "dse", cleanup: true, run: cleanupPass(dsePass), doc: "dead-store elimination: assignments and declarations whose value is never read; pure expression statements (dse.go)"},
	{name: "keepabi", run: keepABIPass, doc: "a phony read of every private global the original's call graph uses and the twin no longer mentions, so both have one kernel ABI"},
	{name: "finalcheck", run: finalCheckPass, doc: "the twin verifies (ir.VerifyFunc) and has the twin shape: no control flow, no call, one final return; a failure is internal"},
	{name: "strict", run: strictPass, doc: "with Options.Strict, no residual a fold would remove (residual.go)"},
}

// passOrder lists the ordering constraints of passes: a runs before b.
var passOrder = []struct{ a, b, why string }{
	{"precheck", "lower", "lowering assumes a bounded, non-recursive call graph of whitelisted builtins"},
	{"lower", "fold", "every later pass assumes a straight-line body"},
	{"fold", "maskprop", "constant conditions are literals before masks are propagated"},
	{"maskprop", "copyprop", "a constant is better than a copy"},
	{"constprop", "copyprop", "a constant is better than a copy"},
	{"copyprop", "forward", "forward only moves what the propagations left single-use"},
	{"forward", "dse", "dse removes the definitions forward made dead and the masks the folds made unread"},
	{"dse", "keepabi", "dse would remove keepabi's phony reads"},
	{"keepabi", "finalcheck", "the checked twin is the final one"},
	{"finalcheck", "strict", "residuals are judged only in a valid twin"},
}

func init() {
	if err := checkPassOrder(passes, passOrder); err != nil {
		panic(err)
	}
}

// checkPassOrder reports the first ordering constraint the table breaks,
// a constraint naming no pass, or cleanup rows that are not contiguous.
func checkPassOrder(ps []pass, order []struct{ a, b, why string }) error {
	at := map[string]int{}
	for i, p := range ps {
		if _, dup := at[p.name]; dup {
			return fmt.Errorf("flatten: pass %s listed twice", p.name)
		}
		at[p.name] = i
		if i > 0 && p.cleanup && !ps[i-1].cleanup {
			for _, q := range ps[:i] {
				if q.cleanup {
					return fmt.Errorf("flatten: cleanup pass %s is not contiguous with the other cleanup passes", p.name)
				}
			}
		}
	}
	for _, c := range order {
		i, ok1 := at[c.a]
		j, ok2 := at[c.b]
		if !ok1 || !ok2 {
			return fmt.Errorf("flatten: ordering constraint %s < %s names an unknown pass", c.a, c.b)
		}
		if i >= j {
			return fmt.Errorf("flatten: pass %s must run before %s: %s", c.a, c.b, c.why)
		}
	}
	return nil
}

// PassNames returns the names of flatten's passes, in pipeline order
// (Options.AfterPass receives these names).
func PassNames() []string {
	names := make([]string, len(passes))
	for i, p := range passes {
		names[i] = p.name
	}
	return names
}

const maxRounds = 64

// pass is one step of the pipeline. run reports whether it changed the
// twin, or fails with an *Error (a refusal, an internal error, residuals).
type pass struct {
	name    string
	doc     string
	cleanup bool
	run     func(*pipe) (bool, error)
}

func cleanupPass(f func(*pipe) bool) func(*pipe) (bool, error) {
	return func(p *pipe) (bool, error) { return f(p), nil }
}

// pipe is the state the passes share.
type pipe struct {
	m        *ir.Module
	f        *ir.Func // the original (never modified)
	opts     Options
	twinName string
	reserved []string
	bounds   map[*ir.Loop]*ir.LoopBound // precheck's loop bounds, for lower
	twin     *ir.Func
	identity bool                    // f was already flat: the twin is its clone
	entry    bool                    // f is a compute entry point (entry.go)
	seqs     map[*ir.Loop][]ir.Value // precheck's counter sequences of loops bounded by evaluation (entry points)
	masked   map[*ir.Loop]bool       // precheck's loops kept as loops (masked.go)
	// unbounded: those kept for want of a syntactic bound; room: the
	// copies left under MaxUnroll (loop.go, boundInCopy).
	unbounded map[*ir.Loop]bool
	room      int64
	// info classifies the names flatten introduced; names not in it are
	// the user's (renamed copies included).
	info map[string]tempKind
}

func (p *pipe) stmts() []ir.Stmt { return p.twin.Body.Stmts }

// verifyEveryPass makes every pipeline verify the twin after each pass, as
// Options.VerifyPasses does: set by GPUDIFF_VERIFY_PASSES=1 (make test
// sets it for every test binary, so every twin a test builds is checked
// pass by pass) and by flatten's own tests (verify_test.go).
var verifyEveryPass = os.Getenv("GPUDIFF_VERIFY_PASSES") == "1"

// runPipeline runs passes on f and returns its twin.
func runPipeline(p *pipe) (*ir.Func, error) {
	after := func(ps pass) error {
		if p.twin == nil {
			return nil
		}
		if p.opts.VerifyPasses || verifyEveryPass {
			if err := ir.VerifyFunc(p.m, p.twin); err != nil {
				return internalf(p.m, p.twin.Pos, "after pass %s: twin %s does not verify:\n%v", ps.name, p.twin.Name, err)
			}
			if msg := shapeViolation(p.twin, true); msg != "" && !p.identity {
				return internalf(p.m, p.twin.Pos, "after pass %s: twin %s breaks the twin contract: %s", ps.name, p.twin.Name, msg)
			}
		}
		if p.opts.AfterPass != nil {
			p.opts.AfterPass(ps.name, p.twin)
		}
		return nil
	}
	for i := 0; i < len(passes); i++ {
		ps := passes[i]
		if !ps.cleanup {
			changed, err := ps.run(p)
			if err != nil {
				return nil, err
			}
			if changed {
				if err := after(ps); err != nil {
					return nil, err
				}
			}
			continue
		}
		j := i
		for j < len(passes) && passes[j].cleanup {
			j++
		}
		if !p.identity {
			for round := 0; round < maxRounds; round++ {
				changed := false
				for _, cp := range passes[i:j] {
					c, err := cp.run(p)
					if err != nil {
						return nil, err
					}
					if c {
						changed = true
						if err := after(cp); err != nil {
							return nil, err
						}
					}
				}
				if !changed {
					break
				}
			}
		}
		i = j - 1
	}
	return p.twin, nil
}

func precheckPass(p *pipe) (bool, error) {
	errs, c := precheck(p.m, p.f, p.opts)
	if len(errs) > 0 {
		errs.Sort()
		return false, &Error{Kind: Refused, List: errs}
	}
	p.bounds, p.seqs, p.masked, p.unbounded = c.bounds, c.seqs, c.masked, c.unbounded
	p.room = int64(p.opts.MaxUnroll) - c.total
	return false, nil
}

func lowerPass(p *pipe) (bool, error) {
	m, f := p.m, p.f
	// An entry point is always lowered: its guards' conditions must be
	// checked (a barrier's for uniformity), which the clone would skip.
	if isFlat(f) && !p.entry {
		p.twin = ir.CloneFunc(f)
		p.twin.Name = p.twinName
		p.identity = true
		return true, nil
	}
	namer := newNamer(m)
	namer.Reserve(p.twinName)
	for _, r := range p.reserved {
		namer.Reserve(r)
	}
	white := map[string]bool{}
	for _, w := range p.opts.Whitelist {
		white[w] = true
	}
	flt := p.opts.Fault
	if flt == "" {
		flt = fault() // TODO(issue 13): callers set Options.Fault; drop the environment
	}
	l := &lowerer{
		m: m, namer: namer, white: white, fault: flt,
		info:     map[string]tempKind{},
		consts:   map[string]ir.Value{},
		excludes: map[ir.Expr]*exclusions{},
		kept:     map[string]bool{},
		bounds:   p.bounds,
		entry:    p.entry,
		seqs:     p.seqs,
		masked:   p.masked,
		unbound:  p.unbounded,
		room:     p.room,
	}
	narrowed, stats := narrowTagSwitches(m, f)
	l.tagSwitches = narrowed
	body := lowerFunc(l, f)
	twin := &ir.Func{Pos: f.Pos, Name: p.twinName, Result: f.Result, Body: body,
		Stage: f.Stage, StagePos: f.StagePos, WorkgroupSize: f.WorkgroupSize, ResultLocation: f.ResultLocation,
		ResultBuiltin: f.ResultBuiltin, ResultInterp: f.ResultInterp}
	for _, prm := range f.Params {
		q := *prm
		twin.Params = append(twin.Params, &q)
	}
	if len(l.errs) == 0 {
		l.errs = checkBarriers(m, twin, l.pending)
	}
	stripProbes(twin.Body, l.probes)
	if len(l.errs) == 0 {
		l.errs = checkSubgroupLoops(m, twin, l.pendingSG)
	}
	if len(l.errs) == 0 {
		resolveDeltas(m, twin, l.deltas)
	}
	if len(l.errs) > 0 {
		l.errs.Sort()
		return false, &Error{Kind: Refused, List: dedupe(l.errs)}
	}
	p.twin, p.info = twin, l.info
	if p.opts.OnLoop != nil {
		for _, pos := range l.unrolled {
			p.opts.OnLoop(pos, "unrolled")
		}
		for _, k := range l.loopStats {
			kind := "uniform"
			if !loopIsUniform(m, twin, k.loop) {
				kind = "masked"
			}
			p.opts.OnLoop(k.pos, kind)
		}
	}
	if p.opts.OnTagSwitch != nil {
		for _, st := range stats {
			p.opts.OnTagSwitch(st)
		}
	}
	return true, nil
}

func keepABIPass(p *pipe) (bool, error) {
	if p.identity {
		return false, nil
	}
	return keepABI(p.m, p.f, p.twin), nil
}

func finalCheckPass(p *pipe) (bool, error) {
	after := "cleanup"
	if p.identity {
		after = "clone"
	}
	return false, finalCheck(p.m, p.twin, after)
}

func strictPass(p *pipe) (bool, error) {
	if !p.opts.Strict || p.identity {
		return false, nil
	}
	if errs := residuals(p); len(errs) > 0 {
		return false, &Error{Kind: Residual, List: errs}
	}
	return false, nil
}

// keepABI makes the twin mention every private global the original's call
// graph uses, so both have the same kernel ABI (ir.NewKernelABI: "ret",
// then the globals used, in module order) and their outputs line up. A
// global the twin no longer mentions — it was only read, or written only
// where the cleanup proved it dead — keeps its initial value in both, so
// a phony read `_ = g;` before the final return is all it takes (before
// a fragment twin's demotion, which stays the last statement before
// that return). It reports whether it added any.
func keepABI(m *ir.Module, f, twin *ir.Func) bool {
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
		return false
	}
	// Before the twin's tail: its final return and, in a fragment twin,
	// the demotion before it (demotionAt), which must stay last.
	stmts := twin.Body.Stmts
	at := len(stmts)
	if i := demotionAt(twin); i >= 0 {
		at = i
	} else if at > 0 {
		if _, ok := stmts[at-1].(*ir.Return); ok {
			at--
		}
	}
	twin.Body.Stmts = append(append(append([]ir.Stmt(nil), stmts[:at]...), keep...), stmts[at:]...)
	return true
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
