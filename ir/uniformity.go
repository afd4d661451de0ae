package ir

import "fmt"

// Uniformity analysis (WGSL #uniformity), over the IR functions of a
// module, at workgroup scope and for the error severity only. It is the
// one analysis gpudiff has: the front end runs it on the module it built
// (compiler/wgsl), flatten on the twin of an entry point, to keep a
// barrier only where WGSL itself would accept it (flatten/entry.go).
//
// What is checked, following the spec's graph construction
// (#uniformity-function, #func-var-value-analysis, #uniformity-statements,
// #uniformity-function-calls, #uniformity-expressions):
//
//   - Collective operations: workgroupBarrier, storageBarrier and
//     textureBarrier require uniform control flow at their call site;
//     derivative builtins too, unless a global
//     `diagnostic(<not error>, derivative_uniformity)` directive lowers
//     the severity; subgroup builtins too (subgroup_uniformity, likewise),
//     and their results, like derivatives', may be non-uniform.
//   - Sources of non-uniformity: reads of private globals, of workgroup
//     and read_write storage memory, atomics, an entry point's invocation
//     builtins (all but workgroup_id and num_workgroups; a struct of
//     builtins too) and results of the builtins above; reads of uniform
//     and read-only storage buffers, arrayLength and workgroupUniformLoad
//     results are uniform; parameters are tracked symbolically.
//   - Function-space pointer parameters as aliases of local variables
//     (#pointer-desugar): their contents are tracked through the callee
//     (param_i_contents, Value_return_i_contents), so passing &v changes
//     v's uniformity only as the callee's stores do (the pointer parameter
//     tag PointerParameterMayBeNonUniform, the contents the pointee then
//     depends on, ParameterContentsRequiredToBeUniform).
//   - Control dependence through if, switch, loop, break-if and the left
//     operand of && and ||, with the spec's rule that control flow becomes
//     uniform again after a statement whose behavior is {Next}.
//   - Function-scope variables flow-sensitively (assignments join at the
//     end of if, switch and loop, with loop back edges); an assignment
//     through an index, member or swizzle is partial.
//   - Per function, the call-site tag (CallSiteRequiredToBeUniform), the
//     function tag (ReturnValueMayBeNonUniform) and per parameter the
//     parameter tag (ParameterRequiredToBeUniform) and parameter return
//     tag, used when analyzing callers.
//
// Not checked: functions outside the IR subset (textures, …), warning and
// info severities, diagnostic attributes on statements or functions
// (those make the function outside the subset), and the subgroup
// uniformity scope. Pointers into private, workgroup or storage memory
// are taken as pointing to non-uniform values (the conservative side).

// uniTags are the uniformity tags of a function.
type uniTags struct {
	callSite      bool // CallSiteRequiredToBeUniform.error
	callSiteWhy   string
	returnNonUnif bool   // ReturnValueMayBeNonUniform
	paramRequired []bool // ParameterRequiredToBeUniform.error
	paramWhy      []string
	paramReturn   []bool // ParameterReturnContentsRequiredToBeUniform
	// For each function-space pointer parameter i (WGSL
	// #pointer-desugar): ptrNonUnif[i] is PointerParameterMayBeNonUniform
	// (the pointee may be non-uniform after the call); ptrFrom[i] the
	// parameters whose value (param_j) or, for pointers, contents
	// (param_j_contents) the pointee's value after the call depends on
	// (Value_return_i_contents reaches them); contentsRequired[i] is
	// ParameterContentsRequiredToBeUniform.error.
	ptrNonUnif       []bool
	ptrFrom          [][]ptrDep
	contentsRequired []bool
	contentsWhy      []string
}

// ptrDep is a parameter a pointee's value after a call depends on: its
// value, or (contents) the contents of the memory view it points to.
type ptrDep struct {
	param    int
	contents bool
}

// uniGraph is one function's uniformity graph.
type uniGraph struct {
	edges [][]int32
	reqs  []uniReq
	beh   map[Stmt]Behavior
}

const (
	uniRequired = 0 // RequiredToBeUniform.error
	uniMayBeNon = 1 // MayBeNonUniform
	uniCFStart  = 2 // CF_start
)

// uniReq is an edge from RequiredToBeUniform.error with its explanation.
type uniReq struct {
	to  int32
	pos Pos
	msg string
	why string // what requires uniformity, for tags
}

func (g *uniGraph) node() int32 {
	g.edges = append(g.edges, nil)
	return int32(len(g.edges) - 1)
}

func (g *uniGraph) edge(from int32, to ...int32) {
	g.edges[from] = append(g.edges[from], to...)
}

// uniAnalysis holds the tags of analyzed functions.
type uniAnalysis struct {
	m           *Module
	tags        map[string]*uniTags
	derivErr    bool
	subgroupErr bool
	errs        ErrorList
}

// UniformityOptions configures Uniformity.
type UniformityOptions struct {
	// DerivativeError and SubgroupError: the derivative_uniformity and
	// subgroup_uniformity triggering rules are at error severity (no
	// global diagnostic directive lowers them).
	DerivativeError, SubgroupError bool
	// Pass names the pass in the errors ("check" when empty).
	Pass string
}

// UniformityResult is what Uniformity finds: the uniformity failures, at
// most one per function, positioned at what requires uniformity, and the
// tags of the functions analyzed.
type UniformityResult struct {
	Errors ErrorList
	u      *uniAnalysis
}

// ParamRequired reports whether parameter i of function fn has the tag
// ParameterRequiredToBeUniform.error, and what requires it.
func (r *UniformityResult) ParamRequired(fn string, i int) (bool, string) {
	t := r.u.tags[fn]
	if t == nil || i >= len(t.paramRequired) {
		return false, ""
	}
	return t.paramRequired[i], t.paramWhy[i]
}

// Uniformity is WGSL's uniformity analysis (#uniformity) of every
// function of m, callees first, at workgroup scope and for the error
// severity: the front end's check (compiler/wgsl) and flatten's check of
// a twin's barriers (flatten/entry.go) are this one analysis.
func Uniformity(m *Module, opts UniformityOptions) *UniformityResult {
	u := uniAnalyze(m, opts.DerivativeError, opts.SubgroupError)
	if opts.Pass != "" {
		for _, e := range u.errs {
			e.Pass = opts.Pass
		}
	}
	return &UniformityResult{Errors: u.errs, u: u}
}

// uniAnalyze analyzes every function of m, callees first, and returns the
// tags and the uniformity failures.
func uniAnalyze(m *Module, derivErr, subgroupErr bool) *uniAnalysis {
	u := &uniAnalysis{m: m, tags: map[string]*uniTags{}, derivErr: derivErr, subgroupErr: subgroupErr}
	if !uniHasCollective(m) {
		return u // nothing requires uniformity: no failure, no tags
	}
	done := map[string]bool{}
	for _, f := range m.Funcs {
		for _, g := range m.CallGraph(f.Name) {
			if !done[g.Name] {
				done[g.Name] = true
				u.fn(g)
			}
		}
	}
	u.errs.Sort()
	return u
}

// uniHasCollective reports whether any function of m calls a builtin that
// requires uniform control flow.
func uniHasCollective(m *Module) bool {
	for _, f := range m.Funcs {
		if Any(f.Body, func(n Node) bool {
			if t, ok := n.(*TextureCall); ok {
				return t.Op.ImplicitDerivatives()
			}
			b, ok := n.(*BuiltinCall)
			return ok && !b.Fn.Info().Pure()
		}) {
			return true
		}
	}
	return false
}

// uniState is the analysis state at a program point.
type uniState struct {
	cf   int32
	vars map[string]int32
}

func (s uniState) copyVars() map[string]int32 {
	m := make(map[string]int32, len(s.vars))
	for k, v := range s.vars {
		m[k] = v
	}
	return m
}

// uniFn analyzes one function.
type uniFn struct {
	u      *uniAnalysis
	g      *uniGraph
	f      *Func
	params map[string]int32
	lets   map[string]int32
	ret    int32
	// contents and retContents: param_i_contents and
	// Value_return_i_contents of each function-space pointer parameter,
	// by parameter name (WGSL #pointer-desugar).
	contents, retContents map[string]int32
	// loop/switch exits: variable states at breaks and continues of the
	// innermost loop (or breaks of the innermost switch).
	breaks    *[]map[string]int32
	continues *[]map[string]int32
}

func (u *uniAnalysis) fn(f *Func) {
	g := &uniGraph{beh: map[Stmt]Behavior{}}
	g.node() // RequiredToBeUniform.error
	g.node() // MayBeNonUniform
	g.node() // CF_start
	w := &uniFn{u: u, g: g, f: f, params: map[string]int32{}, lets: map[string]int32{}, ret: -1,
		contents: map[string]int32{}, retContents: map[string]int32{}}
	vars := map[string]int32{}
	for _, p := range f.Params {
		w.params[p.Name] = g.node()
		if p.Ptr == SpaceFunction {
			// The pointer is an alias of a local variable whose initial
			// value is param_i_contents (WGSL #pointer-desugar).
			w.contents[p.Name] = g.node()
			w.retContents[p.Name] = g.node()
			vars[p.Name] = w.contents[p.Name]
		}
		if f.Stage != StageNone && p.Builtin != "workgroup_id" && p.Builtin != "num_workgroups" && p.Builtin != "subgroup_size" && p.Builtin != "num_subgroups" {
			// An entry point's invocation builtins differ per invocation
			// (WGSL #uniformity-entry-points; a struct of builtins too);
			// subgroup_size and num_subgroups are uniform, as Tint's
			// analysis takes them.
			g.edge(w.params[p.Name], uniMayBeNon)
		}
	}
	if !f.Result.IsVoid() {
		w.ret = g.node()
	}
	end := w.block(f.Body, uniState{cf: uniCFStart, vars: vars})
	if w.beh(f.Body)&BehNext != 0 {
		w.returnContents(end) // falling off the end returns
	}

	n := len(f.Params)
	t := &uniTags{paramRequired: make([]bool, n), paramWhy: make([]string, n),
		paramReturn: make([]bool, n), ptrNonUnif: make([]bool, n), ptrFrom: make([][]ptrDep, n),
		contentsRequired: make([]bool, n), contentsWhy: make([]string, n)}
	// Nodes from which MayBeNonUniform is reachable.
	nonUnif := g.reachesNonUniform()
	failed := false
	for _, r := range g.reqs {
		if nonUnif[r.to] {
			u.errs = append(u.errs, &Error{File: u.m.File, Pos: r.pos, Pass: "check", Msg: r.msg})
			failed = true
			break
		}
	}
	if !failed {
		for _, r := range g.reqs {
			reach := g.reachable(r.to)
			if reach[uniCFStart] && !t.callSite {
				t.callSite, t.callSiteWhy = true, r.why
			}
			for i, p := range f.Params {
				if reach[w.params[p.Name]] && !t.paramRequired[i] {
					t.paramRequired[i], t.paramWhy[i] = true, r.why
				}
				if c, ok := w.contents[p.Name]; ok && reach[c] && !t.contentsRequired[i] {
					t.contentsRequired[i], t.contentsWhy[i] = true, r.why
				}
			}
		}
	}
	if w.ret >= 0 {
		reach := g.reachable(w.ret)
		t.returnNonUnif = reach[uniMayBeNon]
		for i, p := range f.Params {
			t.paramReturn[i] = reach[w.params[p.Name]]
		}
	}
	for i, p := range f.Params {
		vr, ok := w.retContents[p.Name]
		if !ok {
			continue
		}
		reach := g.reachable(vr)
		t.ptrNonUnif[i] = reach[uniMayBeNon]
		for j, q := range f.Params {
			if reach[w.params[q.Name]] {
				t.ptrFrom[i] = append(t.ptrFrom[i], ptrDep{param: j})
			}
			if c, ok := w.contents[q.Name]; ok && reach[c] {
				t.ptrFrom[i] = append(t.ptrFrom[i], ptrDep{param: j, contents: true})
			}
		}
	}
	u.tags[f.Name] = t
}

// returnContents adds, at a return (or the end of the body), the edges
// Value_return_i_contents -> the pointee's current value for every
// function-space pointer parameter (WGSL #uniformity-statements, return).
func (w *uniFn) returnContents(st uniState) {
	for name, vr := range w.retContents {
		if v, ok := st.vars[name]; ok {
			w.g.edge(vr, v)
		} else {
			w.g.edge(vr, uniMayBeNon)
		}
	}
}

// reachable returns the nodes reachable from n.
func (g *uniGraph) reachable(n int32) map[int32]bool {
	seen := map[int32]bool{n: true}
	stack := []int32{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, y := range g.edges[x] {
			if !seen[y] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	return seen
}

// reachesNonUniform returns the set of nodes from which MayBeNonUniform
// is reachable.
func (g *uniGraph) reachesNonUniform() []bool {
	rev := make([][]int32, len(g.edges))
	for from, tos := range g.edges {
		for _, to := range tos {
			rev[to] = append(rev[to], int32(from))
		}
	}
	out := make([]bool, len(g.edges))
	out[uniMayBeNon] = true
	stack := []int32{uniMayBeNon}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, y := range rev[x] {
			if !out[y] {
				out[y] = true
				stack = append(stack, y)
			}
		}
	}
	return out
}

func (w *uniFn) beh(s Stmt) Behavior {
	if b, ok := w.g.beh[s]; ok {
		return b
	}
	b, _ := BehaviorOf(s, func(b *Block) Behavior {
		return BehaviorSeq(b.Stmts, w.beh)
	})
	w.g.beh[s] = b
	return b
}

// join makes a node for the value of each variable after control flow
// merges from the given states.
func (w *uniFn) join(states []map[string]int32) map[string]int32 {
	n := 0
	if len(states) > 0 {
		n = len(states[0])
	}
	out := make(map[string]int32, n)
	for _, st := range states {
		for k, v := range st {
			if n, ok := out[k]; ok {
				if n != v {
					j := w.g.node()
					w.g.edge(j, n, v)
					out[k] = j
				}
			} else {
				out[k] = v
			}
		}
	}
	return out
}

func (w *uniFn) block(b *Block, st uniState) uniState {
	var declared []string
	for _, s := range b.Stmts {
		if d, ok := s.(*Decl); ok && d.Mutable {
			declared = append(declared, d.Name)
		}
		st = w.stmt(s, st)
		if w.beh(s)&BehNext == 0 {
			break
		}
	}
	// Names are unique after Normalize: a variable leaving scope can be
	// forgotten, which keeps the per-point state small.
	for _, n := range declared {
		delete(st.vars, n)
	}
	return st
}

func (w *uniFn) stmt(s Stmt, st uniState) uniState {
	g := w.g
	switch x := s.(type) {
	case *Block:
		return w.block(x, st)
	case *Decl:
		if x.Mutable {
			v := st.cf
			if x.Init != nil {
				v = w.expr(x.Init, st)
			}
			st.vars[x.Name] = v
		} else {
			w.lets[x.Name] = w.expr(x.Init, st)
		}
		return st
	case *Assign:
		w.assign(x, st)
		return st
	case *ExprStmt:
		w.expr(x.X, st)
		return st
	case *Return:
		if x.Value != nil {
			v := w.expr(x.Value, st)
			if w.ret >= 0 {
				g.edge(w.ret, v)
			}
		}
		w.returnContents(st)
		return st
	case *Break:
		if w.breaks != nil {
			*w.breaks = append(*w.breaks, st.copyVars())
		}
		return st
	case *Continue:
		if w.continues != nil {
			*w.continues = append(*w.continues, st.copyVars())
		}
		return st
	case *If:
		v := w.expr(x.Cond, st)
		s1 := w.block(x.Then, uniState{cf: v, vars: st.copyVars()})
		s2 := w.block(x.Else, uniState{cf: v, vars: st.copyVars()})
		var outs []map[string]int32
		if w.beh(x.Then)&BehNext != 0 {
			outs = append(outs, s1.vars)
		}
		if w.beh(x.Else)&BehNext != 0 {
			outs = append(outs, s2.vars)
		}
		res := uniState{cf: st.cf, vars: w.join(outs)}
		if w.beh(x) != BehNext {
			end := g.node()
			g.edge(end, s1.cf, s2.cf)
			res.cf = end
		}
		return res
	case *Switch:
		v := w.expr(x.Selector, st)
		var outs, breaks []map[string]int32
		saved := w.breaks
		w.breaks = &breaks
		var cfs []int32
		for _, cs := range x.Cases {
			sc := w.block(cs.Body, uniState{cf: v, vars: st.copyVars()})
			cfs = append(cfs, sc.cf)
			if w.beh(cs.Body)&BehNext != 0 {
				outs = append(outs, sc.vars)
			}
		}
		w.breaks = saved
		res := uniState{cf: st.cf, vars: w.join(append(outs, breaks...))}
		if w.beh(x) != BehNext {
			end := g.node()
			g.edge(end, cfs...)
			res.cf = end
		}
		return res
	case *Loop:
		return w.loop(x, st)
	}
	return st
}

func (w *uniFn) loop(x *Loop, st uniState) uniState {
	g := w.g
	b1 := w.beh(x.Body)
	var breaks, continues []map[string]int32
	savedB, savedC := w.breaks, w.continues
	w.breaks, w.continues = &breaks, &continues
	defer func() { w.breaks, w.continues = savedB, savedC }()

	loops := b1&(BehNext|BehContinue) != 0
	cfIn := st.cf
	var head map[string]int32
	if loops {
		// CF' and a placeholder node per variable at the loop head; back
		// edges are added once the continuing block is analyzed.
		cfIn = g.node()
		g.edge(cfIn, st.cf)
		head = map[string]int32{}
		for k, v := range st.vars {
			n := g.node()
			g.edge(n, v)
			head[k] = n
		}
	} else {
		head = st.copyVars()
	}
	s1 := w.block(x.Body, uniState{cf: cfIn, vars: head})
	var contIn []map[string]int32
	if b1&BehNext != 0 {
		contIn = append(contIn, s1.vars)
	}
	contIn = append(contIn, continues...)
	s2 := w.block(x.Continuing, uniState{cf: s1.cf, vars: w.join(contIn)})
	cfEnd := s2.cf
	if x.BreakIf != nil {
		v := w.expr(x.BreakIf, s2)
		end := g.node()
		g.edge(end, v)
		cfEnd = end
		breaks = append(breaks, s2.vars)
	}
	if loops {
		g.edge(cfIn, cfEnd)
		for k, n := range head {
			if v, ok := s2.vars[k]; ok {
				g.edge(n, v)
			}
		}
	}
	res := uniState{vars: w.join(breaks)}
	switch {
	case b1 == BehBreak:
		res.cf = st.cf
	case b1&(BehNext|BehContinue) == 0:
		res.cf = s1.cf
	case b1&BehReturn == 0:
		res.cf = st.cf
	default:
		res.cf = cfIn
	}
	if len(breaks) == 0 {
		res.vars = st.vars
	}
	return res
}

// assign applies an assignment's effect on a function-scope variable.
func (w *uniFn) assign(x *Assign, st uniState) {
	g := w.g
	root := RootIdent(x.LHS)
	rv := w.expr(x.RHS, st)
	// Index operands of the reference.
	var idx []int32
	for e := x.LHS; ; {
		switch r := e.(type) {
		case *Index:
			idx = append(idx, w.expr(r.Index, st))
			e = r.X
			continue
		case *Member:
			e = r.X
			continue
		case *Swizzle:
			e = r.X
			continue
		}
		break
	}
	if root == nil || (root.Ref != RefVar && !(root.Ref == RefPtr && w.contents[root.Name] != 0)) {
		return
	}
	n := g.node()
	g.edge(n, rv)
	g.edge(n, idx...)
	if _, full := x.LHS.(*Ident); !full || x.Op != OpNone {
		if prev, ok := st.vars[root.Name]; ok {
			g.edge(n, prev)
		}
	}
	st.vars[root.Name] = n
}

// expr returns the value node of e evaluated under st.cf.
func (w *uniFn) expr(e Expr, st uniState) int32 {
	g := w.g
	cf := st.cf
	result := func(from ...int32) int32 {
		n := g.node()
		g.edge(n, cf)
		g.edge(n, from...)
		return n
	}
	switch x := e.(type) {
	case *Lit:
		return cf
	case *Ident:
		switch x.Ref {
		case RefParam:
			return result(w.params[x.Name])
		case RefLet:
			if n, ok := w.lets[x.Name]; ok {
				return result(n)
			}
			return cf
		case RefVar:
			if n, ok := st.vars[x.Name]; ok {
				return result(n)
			}
			return cf
		case RefPtr:
			// A function-space pointer parameter is an alias of a local
			// variable (WGSL #pointer-desugar); the pointee of any other
			// (private, workgroup, storage memory) may be non-uniform.
			if n, ok := st.vars[x.Name]; ok {
				return result(n)
			}
			return uniMayBeNon
		case RefGlobal:
			return uniMayBeNon
		case RefShared:
			// WGSL #uniformity-function-calls: reads of read-only storage
			// and uniform variables are uniform; workgroup and read_write
			// storage memory may differ per invocation.
			if g := w.u.m.SharedVar(x.Name); g != nil && !g.Writable() {
				return cf
			}
			return uniMayBeNon
		}
	case *Atomic, *ArrayLength:
		for _, a := range ExprOperands(x, &Operands{}) {
			w.expr(a, st)
		}
		if _, ok := x.(*ArrayLength); ok {
			return cf
		}
		return uniMayBeNon
	case *Binary:
		v1 := w.expr(x.X, st)
		if x.Op == OpLogAnd || x.Op == OpLogOr {
			return w.expr(x.Y, uniState{cf: v1, vars: st.vars})
		}
		return result(v1, w.expr(x.Y, st))
	case *Unary:
		return result(w.expr(x.X, st))
	case *Member:
		return result(w.expr(x.X, st))
	case *Swizzle:
		return result(w.expr(x.X, st))
	case *Index:
		return result(w.expr(x.X, st), w.expr(x.Index, st))
	case *Convert:
		return result(w.expr(x.X, st))
	case *Bitcast:
		return result(w.expr(x.X, st))
	case *Select:
		return result(w.expr(x.False, st), w.expr(x.True, st), w.expr(x.Cond, st))
	case *Construct:
		var args []int32
		for _, a := range x.Args {
			args = append(args, w.expr(a, st))
		}
		return result(args...)
	case *BuiltinCall:
		return w.builtin(x, st)
	case *TextureCall:
		return w.texture(x, st)
	case *Call:
		return w.call(x, st)
	case *AddrOf:
		w.expr(x.X, st)
		return w.pointerValue(x.X, st)
	}
	return cf
}

// pointerValue returns the node of the value of the pointer &r: uniform
// where control flow is and every index of the chain r is, and, rooted at
// a pointer parameter, where that parameter is (WGSL #uniformity: the
// pointer an invocation forms names the same memory as another's only if
// its indices agree; workgroupUniformLoad requires that).
func (w *uniFn) pointerValue(r Expr, st uniState) int32 {
	g := w.g
	n := g.node()
	g.edge(n, st.cf)
	for r != nil {
		switch e := r.(type) {
		case *Index:
			g.edge(n, w.expr(e.Index, st))
			r = e.X
		case *Member:
			r = e.X
		case *Ident:
			if p, ok := w.params[e.Name]; ok && e.Ref == RefPtr {
				g.edge(n, p)
			}
			r = nil
		default:
			r = nil
		}
	}
	return n
}

func (w *uniFn) builtin(x *BuiltinCall, st uniState) int32 {
	g := w.g
	var args []int32
	for _, a := range x.Args {
		args = append(args, w.expr(a, st))
		if ad, ok := a.(*AddrOf); ok {
			// The callee may store a non-uniform value through the
			// pointer (conservative: the pointer rules are not followed).
			if root := RootIdent(ad.X); root != nil && root.Ref == RefVar && st.vars != nil {
				st.vars[root.Name] = uniMayBeNon
			}
		}
	}
	res := g.node()
	g.edge(res, st.cf)
	info := x.Fn.Info()
	required := false
	switch info.Class {
	case ClassBarrier:
		required = true
		if x.Fn == BWorkgroupUniformLoad {
			// The pointer must be a uniform value: every index of &R
			// and, through a pointer parameter, the pointer the caller
			// passed (ParameterRequiredToBeUniform; WGSL
			// #workgroupUniformLoad-builtin); the result is uniform.
			for r := x.Args[0]; r != nil; {
				switch e := r.(type) {
				case *Index:
					n := w.expr(e.Index, st)
					g.edge(uniRequired, n)
					g.reqs = append(g.reqs, uniReq{to: n, pos: e.Index.Position(),
						msg: "the pointer argument of workgroupUniformLoad must be a uniform value: this index may differ between invocations (WGSL #uniformity)",
						why: fmt.Sprintf("indexes the pointer of workgroupUniformLoad at %s", x.Pos)})
					r = e.X
				case *Member:
					r = e.X
				case *Ident:
					if p, ok := w.params[e.Name]; ok && e.Ref == RefPtr {
						g.edge(uniRequired, p)
						g.reqs = append(g.reqs, uniReq{to: p, pos: e.Pos,
							msg: "the pointer argument of workgroupUniformLoad must be a uniform value (WGSL #uniformity)",
							why: fmt.Sprintf("loads through it with workgroupUniformLoad at %s", x.Pos)})
					}
					r = nil
				default:
					r = nil
				}
			}
		}
	case ClassDerivative:
		required = w.u.derivErr
		g.edge(res, uniMayBeNon)
	case ClassSubgroup:
		required = w.u.subgroupErr
		g.edge(res, uniMayBeNon)
		switch x.Fn {
		case BSubgroupShuffleUp, BSubgroupShuffleDown, BSubgroupShuffleXor:
			// The delta or mask must be uniform (WGSL
			// #subgroupShuffleUp-builtin and its siblings), under the
			// subgroup_uniformity rule's severity as Tint checks it.
			if required && len(args) == 2 {
				g.edge(uniRequired, args[1])
				g.reqs = append(g.reqs, uniReq{to: args[1], pos: x.Args[1].Position(),
					msg: fmt.Sprintf("the second argument of %s must be a uniform value (WGSL #uniformity)", info.Name),
					why: fmt.Sprintf("passes it to %s at %s", info.Name, x.Pos)})
			}
		}
	default:
		g.edge(res, args...)
	}
	if required {
		g.edge(uniRequired, st.cf)
		g.reqs = append(g.reqs, uniReq{to: st.cf, pos: x.Pos,
			msg: fmt.Sprintf("%s must only be called from uniform control flow (WGSL #uniformity)", info.Name),
			why: fmt.Sprintf("calls %s at %s", info.Name, x.Pos)})
	}
	return res
}

func (w *uniFn) call(x *Call, st uniState) int32 {
	g := w.g
	var args []int32
	contents := make([]int32, len(x.Args)) // a pointer argument's pointee before the call
	t := w.u.tags[x.Func]
	for i, a := range x.Args {
		args = append(args, w.expr(a, st))
		contents[i] = -1
		if ad, ok := a.(*AddrOf); ok {
			if root := w.ptrRoot(ad); root != "" {
				if v, ok := st.vars[root]; ok {
					contents[i] = v
				}
			}
		}
	}
	res := g.node()
	g.edge(res, st.cf)
	// The pointees after the call (Vout(call), WGSL
	// #uniformity-function-calls): what the callee's tags say, and the
	// old value where the pointer views part of the variable.
	defer func() {
		for i, a := range x.Args {
			ad, ok := a.(*AddrOf)
			if !ok {
				continue
			}
			root := w.ptrRoot(ad)
			if root == "" || st.vars == nil {
				continue
			}
			out := g.node()
			g.edge(out, st.cf)
			if _, whole := ad.X.(*Ident); !whole && contents[i] >= 0 {
				g.edge(out, contents[i])
			}
			if t == nil || i >= len(t.ptrNonUnif) {
				g.edge(out, uniMayBeNon) // not analyzed: conservative
			} else {
				if t.ptrNonUnif[i] {
					g.edge(out, uniMayBeNon)
				}
				for _, d := range t.ptrFrom[i] {
					switch {
					case !d.contents:
						g.edge(out, args[d.param])
					case contents[d.param] >= 0:
						g.edge(out, contents[d.param])
					default:
						g.edge(out, uniMayBeNon)
					}
				}
			}
			st.vars[root] = out
		}
	}()
	if t == nil {
		return res
	}
	for i := range x.Args {
		if i < len(t.contentsRequired) && t.contentsRequired[i] && contents[i] >= 0 {
			g.edge(uniRequired, contents[i])
			g.reqs = append(g.reqs, uniReq{to: contents[i], pos: x.Args[i].Position(),
				msg: fmt.Sprintf("the value argument %d of %s points to must be uniform: %s (WGSL #uniformity)", i+1, x.Func, t.contentsWhy[i]),
				why: fmt.Sprintf("passes a pointer to it to %s at %s, which %s", x.Func, x.Pos, t.contentsWhy[i])})
		}
	}
	if t.callSite {
		g.edge(uniRequired, st.cf)
		g.reqs = append(g.reqs, uniReq{to: st.cf, pos: x.Pos,
			msg: fmt.Sprintf("%s must only be called from uniform control flow: it %s (WGSL #uniformity)", x.Func, t.callSiteWhy),
			why: fmt.Sprintf("calls %s at %s, which %s", x.Func, x.Pos, t.callSiteWhy)})
	}
	if t.returnNonUnif {
		g.edge(res, uniMayBeNon)
	}
	for i, a := range args {
		if i >= len(t.paramRequired) {
			break
		}
		if t.paramRequired[i] {
			g.edge(uniRequired, a)
			g.reqs = append(g.reqs, uniReq{to: a, pos: x.Args[i].Position(),
				msg: fmt.Sprintf("argument %d of %s must be a uniform value: %s (WGSL #uniformity)", i+1, x.Func, t.paramWhy[i]),
				why: fmt.Sprintf("passes it to %s at %s, which %s", x.Func, x.Pos, t.paramWhy[i])})
		}
		if t.paramReturn[i] {
			g.edge(res, a)
		}
	}
	return res
}

// ptrRoot returns the name of the function-scope variable (or
// function-space pointer parameter) a pointer argument &R views, or "".
func (w *uniFn) ptrRoot(ad *AddrOf) string {
	root := RootIdent(ad.X)
	if root == nil {
		return ""
	}
	if root.Ref == RefVar || (root.Ref == RefPtr && w.contents[root.Name] != 0) {
		return root.Name
	}
	return ""
}
