package wgsl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Parse parses and checks a WGSL module. file is used only in positions of
// errors and as the module's File.
//
// Every valid WGSL module parses: the whole grammar (WGSL #grammar,
// #parsing), with template lists found by the spec's discovery algorithm
// (WGSL #template-lists-sec). Declarations inside the gpudiff subset
// become IR (ir.StructDecl, ir.Global, ir.Func), with const-expressions
// evaluated (WGSL #const-expr) and concretized (WGSL #concretization),
// for and while lowered to the one loop form, and ir.Normalize applied.
// Everything else is kept as an ir.Opaque holding its exact source text,
// the reason it is outside the subset and where (see the package
// documentation). Module-scope const, alias and const_assert declarations
// are kept verbatim as Opaque too; their values are substituted where
// subset code uses them.
//
// Invalid WGSL is an error: an ir.ErrorList sorted by position, at most
// ten entries, each printed "file:line:col: parse: message" (syntax) or
// "file:line:col: check: message" (WGSL's static rules: names and scopes
// (#declaration-and-scope), types and overloads (#type-checking-section),
// const-expression shader-creation errors, statement behaviors
// (#behaviors), cycles and recursion, uniformity (#uniformity)). Line and
// column are 1-based, the column counted in bytes. Parse never panics: an
// internal failure is reported as an "internal error".
func Parse(file string, src []byte) (m *ir.Module, err error) {
	return parse(file, src, ParseOptions{})
}

func parse(file string, src []byte, opts ParseOptions) (m *ir.Module, err error) {
	diags := &diagList{file: file}
	defer func() {
		if r := recover(); r != nil {
			m = nil
			err = ir.ErrorList{&ir.Error{File: file, Pass: "check", Msg: fmt.Sprintf("internal error: %v", r)}}
		}
	}()
	decls, ok := parseSource(src, diags)
	if !ok || len(diags.list) > 0 {
		diags.list.Sort()
		return nil, diags.list.Err()
	}
	mc := &chkModule{file: file, src: src, diags: diags, byName: map[string]*chkDecl{},
		overrides: opts.Overrides, usedOverrides: map[string]bool{}}
	m = mc.run(decls)
	mc.unusedOverrides()
	if len(diags.list) > 0 {
		diags.list.Sort()
		return nil, diags.list
	}
	return m, nil
}

// chkModule checks one module.
type chkModule struct {
	file   string
	src    []byte
	diags  *diagList
	decls  []*chkDecl
	byName map[string]*chkDecl
	// f16 is set by `enable f16;`.
	f16 bool
	// derivSeverity and subgroupSeverity are the severities of the
	// derivative_uniformity and subgroup_uniformity rules set by global
	// diagnostic directives ("error" by default).
	derivSeverity, subgroupSeverity string
	// subgroups is set by `enable subgroups;` (a module without it may
	// still use subgroup builtins: Notes).
	subgroups bool
	// shadowed names a module-scope declaration that redeclares a
	// predeclared name the canonical printer relies on.
	shadowed string
	// matConv are the helper functions converting matrices
	// (matConvHelper), by "from->to", in the order made.
	matConv      map[string]*ir.Func
	matConvOrder []*ir.Func
	// overrides are the pipeline constants supplied (ParseOptions);
	// usedOverrides the keys an override declaration took.
	overrides     map[string]float64
	usedOverrides map[string]bool
}

// chkDecl is a module-scope declaration and what checking it produced.
type chkDecl struct {
	a *astDecl
	// defaulted is KEY=VALUE, the pipeline constant gpudiff supplied
	// (DefaultOverrideConstant) to an override that had no default and
	// none given.
	defaulted string
	// overrideKey is an override's pipeline-constant key as messages
	// show it ("7 (scale)" for @id(7) override scale).
	overrideKey string
	deps        []chkDep
	broken      bool // an error was reported in (or through) this declaration
	// outside is why the declaration is outside the subset ("" if
	// inside), at outsideOff.
	outside    string
	outsideOff int32
	// outsideCause and outsideVia: see chkOutside (set when the
	// declaration is outside because of what it uses).
	outsideCause string
	outsideVia   []string
	entry        bool

	t        *chkType // struct, alias
	c        *cVal    // const
	glob     *ir.Global
	shared   *ir.SharedVar
	tex      *ir.TextureVar // a texture or sampler binding (check_texture.go)
	fn       *ir.Func
	params   []*chkType
	result   *chkType
	alias    *chkAlias // a function's accesses for the alias analysis (alias.go)
	st       *ir.StructDecl
	checked  bool
	resolved bool
}

// chkDep is a reference from one declaration to another.
type chkDep struct {
	d    *chkDecl
	off  int32
	call bool
}

// errorf records a check error at off.
func (mc *chkModule) errorf(off int32, format string, args ...any) {
	mc.diags.add(off, "check", fmt.Sprintf(format, args...))
}

func (mc *chkModule) pos(off int32) ir.Pos { return mc.diags.pos(off) }

func (mc *chkModule) run(decls []*astDecl) *ir.Module {
	mc.derivSeverity, mc.subgroupSeverity = "error", "error"
	for _, a := range decls {
		d := &chkDecl{a: a}
		mc.decls = append(mc.decls, d)
		switch a.kind {
		case "enable":
			for i, n := range a.names {
				switch n {
				case "f16":
					mc.f16 = true
				case "subgroups":
					mc.subgroups = true
				}
				if !chkEnableExtensions[n] && !strings.HasPrefix(n, "chromium_") {
					mc.errorf(a.nameOffs[i], "unknown enable-extension '%s' (WGSL #enable-extensions-sec)", n)
				}
			}
		case "diagnostic":
			mc.globalDiagnostic(a)
		case "fn":
			for _, at := range a.attrs {
				if at.name == "compute" || at.name == "vertex" || at.name == "fragment" {
					d.entry = true
				}
			}
		}
		if a.name == "" {
			continue
		}
		if prev, dup := mc.byName[a.name]; dup {
			mc.errorf(a.nameOff, "redeclaration of '%s' (first declared at %s)", a.name, mc.pos(prev.a.nameOff))
			d.broken = true
			continue
		}
		mc.byName[a.name] = d
		if chkPrinterNames[a.name] && mc.shadowed == "" {
			mc.shadowed = a.name
		}
	}
	for _, d := range mc.decls {
		r := &chkResolver{mc: mc, cur: d}
		r.decl()
	}
	order := mc.sortDecls()
	for _, d := range order {
		mc.checkDecl(d)
		if mc.diags.full() {
			return nil
		}
	}
	for _, d := range mc.decls {
		if d.entry {
			mc.entryBindings(d)
		}
	}
	if len(mc.diags.list) > 0 {
		return nil
	}
	m := mc.assemble()
	mc.addMatConvHelpers(m)
	if mc.renderStages(m); len(mc.diags.list) > 0 {
		return nil
	}
	if err := ir.Normalize(m); err != nil {
		for _, e := range err.(ir.ErrorList) {
			mc.diags.list = append(mc.diags.list, &ir.Error{File: mc.file, Pos: e.Pos, Pass: "check",
				Msg: "internal error: normalized IR does not verify: " + e.Msg})
		}
		return nil
	}
	mc.nagaSubgroups(m)
	mc.checkUniformity(m)
	mc.textureStages(m)
	return m
}

// nagaSubgroups: a module that uses subgroup operations without `enable
// subgroups;` is written for naga, which checks no subgroup uniformity
// (it has no subgroup_uniformity rule: real shaders written for wgpu
// call subgroupExclusiveAdd under `if i < subgroup_size`). Such a module
// is checked as naga does — the rule off — and keeps that as its own
// global `diagnostic(off, subgroup_uniformity);` (an ir.Opaque the
// emitter writes), so Tint, which requires the directive and the rule,
// takes the emitted module, and the reference marks what depends on
// reconvergence. Notes says so.
func (mc *chkModule) nagaSubgroups(m *ir.Module) {
	if mc.subgroups || mc.subgroupSeverity != "error" {
		return
	}
	if first, _ := firstSubgroupUse(m); !first.IsValid() {
		return
	}
	mc.subgroupSeverity = "off"
	m.Opaque = append(m.Opaque, &ir.Opaque{Pos: ir.Pos{Line: 1, Col: 1}, Kind: "diagnostic", Text: "diagnostic(off, subgroup_uniformity);"})
}

// entryBindings refuses two resource variables with the same @group and
// @binding that one entry point uses (WGSL #resource-interface), through
// the declarations it references, transitively.
func (mc *chkModule) entryBindings(entry *chkDecl) {
	seen := map[*chkDecl]bool{}
	bound := map[[2]int]*chkDecl{}
	var vars []*chkDecl
	var visit func(d *chkDecl)
	visit = func(d *chkDecl) {
		if seen[d] {
			return
		}
		seen[d] = true
		if d.shared != nil && d.shared.Group >= 0 || d.tex != nil {
			vars = append(vars, d)
		}
		for _, dep := range d.deps {
			visit(dep.d)
		}
	}
	visit(entry)
	sort.Slice(vars, func(i, j int) bool { return vars[i].a.off < vars[j].a.off })
	for _, v := range vars {
		var k [2]int
		if v.tex != nil {
			k = [2]int{v.tex.Group, v.tex.Binding}
		} else {
			k = [2]int{v.shared.Group, v.shared.Binding}
		}
		if first := bound[k]; first != nil {
			mc.errorf(v.a.nameOff, "entry point '%s' uses '%s' and '%s' (declared at %s), which have the same @group(%d) @binding(%d)",
				entry.a.name, v.a.name, first.a.name, mc.pos(first.a.nameOff), k[0], k[1])
			continue
		}
		bound[k] = v
	}
}

// globalDiagnostic records a global diagnostic directive
// (WGSL #global-diagnostic-directive) for derivative_uniformity.
func (mc *chkModule) globalDiagnostic(a *astDecl) {
	if len(a.args) != 2 {
		mc.errorf(a.kwOff, "diagnostic directive expects a severity and a rule name")
		return
	}
	sev, ok := a.args[0].(*astIdentExpr)
	if !ok || sev.hasTmpl {
		mc.errorf(a.args[0].astOff(), "invalid diagnostic severity")
		return
	}
	switch sev.name {
	case "error", "warning", "info", "off":
	default:
		mc.errorf(sev.off, "unknown diagnostic severity '%s'", sev.name)
		return
	}
	if rule, ok := a.args[1].(*astIdentExpr); ok {
		switch rule.name {
		case "derivative_uniformity":
			mc.derivSeverity = sev.name
		case "subgroup_uniformity":
			mc.subgroupSeverity = sev.name
		}
	}
}

// sortDecls orders declarations so that each comes after those it
// references, reporting cycles (WGSL #declaration-and-scope: "no cycles
// can exist among the declarations"; recursion is such a cycle).
func (mc *chkModule) sortDecls() []*chkDecl {
	state := map[*chkDecl]int{}
	var stack []*chkDecl
	var order []*chkDecl
	var visit func(d *chkDecl)
	visit = func(d *chkDecl) {
		state[d] = 1
		stack = append(stack, d)
		for _, dep := range d.deps {
			switch state[dep.d] {
			case 0:
				visit(dep.d)
			case 1:
				i := len(stack) - 1
				for stack[i] != dep.d {
					i--
				}
				cyc := append(append([]*chkDecl{}, stack[i:]...), dep.d)
				names := make([]string, len(cyc))
				allCalls := true
				for j, c := range cyc {
					names[j] = c.a.name
					c.broken = true
					if j+1 < len(cyc) {
						isCall := false
						for _, e := range c.deps {
							if e.d == cyc[j+1] && e.call && c.a.kind == "fn" {
								isCall = true
							}
						}
						allCalls = allCalls && isCall
					}
				}
				if allCalls {
					mc.errorf(dep.off, "recursion is not allowed: %s", strings.Join(names, " -> "))
				} else {
					mc.errorf(dep.off, "cyclic dependency between module-scope declarations: %s", strings.Join(names, " -> "))
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[d] = 2
		order = append(order, d)
	}
	for _, d := range mc.decls {
		if state[d] == 0 {
			visit(d)
		}
	}
	return order
}

// assemble builds the ir module in source order.
func (mc *chkModule) assemble() *ir.Module {
	m := &ir.Module{File: mc.file}
	for _, d := range mc.decls {
		a := d.a
		switch {
		case d.st != nil:
			m.Structs = append(m.Structs, d.st)
		case d.glob != nil:
			m.Globals = append(m.Globals, d.glob)
		case d.shared != nil:
			m.Shared = append(m.Shared, d.shared)
		case d.tex != nil:
			m.Textures = append(m.Textures, d.tex)
		case d.fn != nil:
			m.Funcs = append(m.Funcs, d.fn)
		default:
			text := string(mc.src[a.off:a.end])
			if a.kind == "override" && d.c != nil {
				text = specializedOverride(a, d)
			}
			o := &ir.Opaque{Pos: mc.pos(a.off), Kind: a.kind, Name: a.name, Text: text, Supplied: d.defaulted,
				Reason: d.outside, ReasonPos: mc.pos(d.outsideOff), EntryPoint: d.entry}
			if o.Reason == "" {
				o.Reason = "module-scope " + a.kind + " (kept verbatim)"
				o.ReasonPos = o.Pos
			}
			m.Opaque = append(m.Opaque, o)
		}
	}
	return m
}

// ---- name resolution ----

// chkResolver resolves every identifier of one declaration (including
// those outside the subset): it reports undeclared identifiers and
// redeclarations in one scope, and records which module-scope
// declarations the declaration references.
type chkResolver struct {
	mc     *chkModule
	cur    *chkDecl
	scopes []map[string]int32
	seen   map[*chkDecl]bool
}

func (r *chkResolver) errorf(off int32, format string, args ...any) {
	r.mc.errorf(off, format, args...)
	r.cur.broken = true
}

func (r *chkResolver) push() { r.scopes = append(r.scopes, map[string]int32{}) }
func (r *chkResolver) pop()  { r.scopes = r.scopes[:len(r.scopes)-1] }

func (r *chkResolver) declare(name string, off int32) {
	top := r.scopes[len(r.scopes)-1]
	if prev, dup := top[name]; dup {
		r.errorf(off, "redeclaration of '%s' in the same scope (first declared at %s)", name, r.mc.pos(prev))
		return
	}
	top[name] = off
}

// use resolves a name (WGSL #declaration-and-scope: innermost local
// declaration, else module scope, else predeclared).
func (r *chkResolver) use(name string, off int32, call bool) {
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if _, ok := r.scopes[i][name]; ok {
			return
		}
	}
	if d, ok := r.mc.byName[name]; ok {
		if call && d.entry {
			r.errorf(off, "entry point '%s' cannot be called (WGSL #function-restriction)", name)
			return
		}
		if !r.seen[d] {
			if r.seen == nil {
				r.seen = map[*chkDecl]bool{}
			}
			r.seen[d] = true
			r.cur.deps = append(r.cur.deps, chkDep{d: d, off: off, call: call})
		}
		return
	}
	if !chkIsPredeclared(name) {
		if name == "subgroupBarrier" && call {
			r.errorf(off, "subgroupBarrier is naga's own builtin (behind its SUBGROUP feature), not WGSL: WGSL's subgroup extension has no subgroup barrier (WGSL #subgroup-builtin-functions), so Tint refuses it too")
			return
		}
		if hint := chkNotWGSL[name]; hint != "" {
			r.errorf(off, "undeclared identifier '%s': %s", name, hint)
			return
		}
		r.errorf(off, "undeclared identifier '%s'", name)
		return
	}
	// A subgroup or quad builtin without `enable subgroups;` is
	// accepted as naga accepts it (its SUBGROUP feature); Notes says
	// that WGSL requires the directive.
	if !r.mc.f16 && (name == "f16" || strings.HasSuffix(name, "h") && (chkIsMatrixName(name) || chkVecAliases[name].elem == "f16")) {
		r.errorf(off, "'%s' requires the f16 extension ('enable f16;')", name)
	}
}

// chkNotWGSL explains names that other shading languages' front ends
// (naga's extensions) predeclare but WGSL does not.
var chkNotWGSL = map[string]string{
	"f64":                    "64-bit floats are a naga extension, not WGSL (and outside gpudiff's subset)",
	"i64":                    "64-bit integers are a naga extension, not WGSL (and outside gpudiff's subset)",
	"u64":                    "64-bit integers are a naga extension, not WGSL (and outside gpudiff's subset)",
	"push_constant":          "the push_constant address space is a naga extension, not WGSL (and outside gpudiff's subset)",
	"acceleration_structure": "ray tracing types are a naga extension, not WGSL (and outside gpudiff's subset)",
	"ray_query":              "ray tracing types are a naga extension, not WGSL (and outside gpudiff's subset)",
}

func (r *chkResolver) typ(t *astIdentExpr) {
	if t != nil {
		r.expr(t)
	}
}

// chkAttributes are the attribute names of WGSL #attributes.
var chkAttributes = chkSet(`align binding blend_src builtin const diagnostic group id interpolate
invariant location must_use size workgroup_size vertex fragment compute subgroup_size`)

// chkEnableExtensions are the enable-extension names of WGSL
// #enable-extensions-sec (Tint's experimental chromium_* names are also
// accepted).
var chkEnableExtensions = chkSet(`f16 clip_distances dual_source_blending subgroups primitive_index
subgroup_size_control`)

// chkBuiltinValues are the builtin value names of WGSL #builtin-values
// (those of enable-extensions included).
var chkBuiltinValues = chkSet(`vertex_index instance_index clip_distances position front_facing
frag_depth primitive_index sample_index sample_mask local_invocation_id local_invocation_index
global_invocation_id workgroup_id num_workgroups subgroup_invocation_id subgroup_size subgroup_id
num_subgroups`)

// chkAttrArity is how many arguments each attribute takes (WGSL
// #attributes, whose grammar allows a trailing comma): min, max; 0, 0
// for an attribute written without parentheses.
var chkAttrArity = map[string][2]int{
	"align": {1, 1}, "binding": {1, 1}, "blend_src": {1, 1}, "builtin": {1, 1}, "const": {0, 0},
	"diagnostic": {2, 2}, "group": {1, 1}, "id": {1, 1}, "interpolate": {1, 2}, "invariant": {0, 0},
	"location": {1, 1}, "must_use": {0, 0}, "size": {1, 1}, "workgroup_size": {1, 3}, "vertex": {0, 0},
	"fragment": {0, 0}, "compute": {0, 0}, "subgroup_size": {1, 1},
}

// attrForm checks an attribute against its grammar rule (WGSL
// #attributes): its argument count, and the names that builtin_attr,
// interpolate_attr and diagnostic_attr take where others take
// expressions. Whether the attribute applies where it is written, and
// its expressions' values, are the checker's.
func (r *chkResolver) attrForm(a *astAttr) bool {
	ar := chkAttrArity[a.name]
	switch {
	case ar[1] == 0 && a.hasArgs:
		r.errorf(a.off, "attribute @%s takes no arguments", a.name)
		return false
	case ar[1] > 0 && !a.hasArgs:
		r.errorf(a.off, "attribute @%s needs arguments in parentheses", a.name)
		return false
	case len(a.args) > ar[1]:
		r.errorf(astExprStart(a.args[ar[1]]), "too many arguments for attribute @%s (at most %d)", a.name, ar[1])
		return false
	case len(a.args) < ar[0]:
		r.errorf(a.off, "attribute @%s needs %d argument(s), got %d", a.name, ar[0], len(a.args))
		return false
	}
	name := func(i int, what string, set map[string]bool) bool {
		id, ok := a.args[i].(*astIdentExpr)
		if !ok || id.hasTmpl {
			r.errorf(astExprStart(a.args[i]), "expected %s in attribute @%s", what, a.name)
			return false
		}
		if set != nil && !set[id.name] {
			r.errorf(id.off, "unknown %s '%s' in attribute @%s", what, id.name, a.name)
			return false
		}
		return true
	}
	switch a.name {
	case "builtin":
		return name(0, "builtin value name", chkBuiltinValues)
	case "interpolate":
		if !name(0, "interpolation type name", chkSet(`perspective linear flat`)) {
			return false
		}
		return len(a.args) < 2 || name(1, "interpolation sampling name", chkSet(`center centroid sample first either`))
	case "diagnostic":
		if !name(0, "diagnostic severity", chkSet(`error warning info off`)) {
			return false
		}
		// diagnostic_rule_name: ident or ident '.' ident.
		rule := a.args[1]
		if m, ok := rule.(*astMemberExpr); ok {
			rule = m.x
		}
		if id, ok := rule.(*astIdentExpr); !ok || id.hasTmpl {
			r.errorf(astExprStart(a.args[1]), "expected a diagnostic rule name in attribute @diagnostic")
			return false
		}
	}
	return true
}

func (r *chkResolver) attrs(as []*astAttr) {
	seen := map[string]bool{}
	for _, a := range as {
		if !chkAttributes[a.name] {
			r.errorf(a.off, "unknown attribute @%s", a.name)
			continue
		}
		if seen[a.name] && a.name != "diagnostic" {
			r.errorf(a.off, "duplicate attribute @%s (WGSL #attributes: at most once per object)", a.name)
			continue
		}
		seen[a.name] = true
		if !r.attrForm(a) {
			continue
		}
		switch a.name {
		case "builtin", "interpolate", "diagnostic":
			continue // context-dependent names, not identifiers
		}
		for _, e := range a.args {
			r.expr(e)
		}
	}
}

func (r *chkResolver) decl() {
	a := r.cur.a
	r.push()
	defer r.pop()
	r.attrs(a.attrs)
	switch a.kind {
	case "var", "const", "override":
		for _, e := range a.tmpl {
			r.expr(e)
		}
		r.typ(a.typ)
		if a.init != nil {
			r.expr(a.init)
		}
	case "alias":
		r.typ(a.typ)
	case "const_assert":
		r.expr(a.init)
	case "struct":
		seen := map[string]bool{}
		for _, m := range a.members {
			r.attrs(m.attrs)
			r.typ(m.typ)
			if seen[m.name] {
				r.errorf(m.off, "struct '%s' has two members named '%s'", a.name, m.name)
			}
			seen[m.name] = true
		}
	case "fn":
		for _, p := range a.params {
			r.attrs(p.attrs)
			r.typ(p.typ)
		}
		r.attrs(a.retAttrs)
		r.typ(a.ret)
		for _, p := range a.params {
			r.declare(p.name, p.off)
		}
		// Parameters and the body's top-level declarations share a scope.
		r.stmts(a.body.stmts)
	}
}

func (r *chkResolver) expr(e astExpr) {
	switch x := e.(type) {
	case *astIdentExpr:
		r.use(x.name, x.off, false)
		for _, t := range x.tmpl {
			r.expr(t)
		}
	case *astCallExpr:
		r.use(x.callee.name, x.callee.off, true)
		for _, t := range x.callee.tmpl {
			r.expr(t)
		}
		for _, a := range x.args {
			r.expr(a)
		}
	case *astLitExpr:
		if x.kind == lexFloatLit && strings.HasSuffix(x.text, "h") && !r.mc.f16 {
			r.errorf(x.off, "f16 literal %s requires the f16 extension ('enable f16;')", x.text)
		}
	case *astParenExpr:
		r.expr(x.x)
	case *astUnaryExpr:
		r.expr(x.x)
	case *astBinaryExpr:
		r.expr(x.x)
		r.expr(x.y)
	case *astIndexExpr:
		r.expr(x.x)
		r.expr(x.index)
	case *astMemberExpr:
		r.expr(x.x)
	}
}

func (r *chkResolver) block(b *astBlock) {
	r.attrs(b.attrs)
	r.push()
	r.stmts(b.stmts)
	r.pop()
}

func (r *chkResolver) stmts(ss []astStmt) {
	for _, s := range ss {
		r.stmt(s)
	}
}

func (r *chkResolver) stmt(s astStmt) {
	switch x := s.(type) {
	case *astBlock:
		r.block(x)
	case *astVarStmt:
		for _, e := range x.tmpl {
			r.expr(e)
		}
		r.typ(x.typ)
		if x.init != nil {
			r.expr(x.init)
		}
		r.declare(x.name, x.nameOff)
	case *astAssignStmt:
		if x.lhs != nil {
			r.expr(x.lhs)
		}
		r.expr(x.rhs)
	case *astIncDecStmt:
		r.expr(x.lhs)
	case *astCallStmt:
		r.expr(x.call)
	case *astIfStmt:
		r.attrs(x.attrs)
		r.expr(x.cond)
		r.block(x.then)
		if x.els != nil {
			r.stmt(x.els)
		}
	case *astSwitchStmt:
		r.attrs(x.attrs)
		r.expr(x.sel)
		r.attrs(x.bodyAttrs)
		for _, c := range x.clauses {
			for _, e := range c.sels {
				if e != nil {
					r.expr(e)
				}
			}
			r.block(c.body)
		}
	case *astLoopStmt:
		r.attrs(x.attrs)
		r.attrs(x.bodyAttrs)
		r.push()
		r.stmts(x.body)
		if x.cont != nil {
			r.attrs(x.cont.attrs)
			r.push()
			r.stmts(x.cont.stmts)
			if x.cont.breakIf != nil {
				r.expr(x.cont.breakIf)
			}
			r.pop()
		}
		r.pop()
	case *astForStmt:
		r.attrs(x.attrs)
		r.push()
		if x.init != nil {
			r.stmt(x.init)
		}
		if x.cond != nil {
			r.expr(x.cond)
		}
		if x.update != nil {
			r.stmt(x.update)
		}
		r.attrs(x.body.attrs)
		r.stmts(x.body.stmts) // the body shares the initializer's scope
		r.pop()
	case *astWhileStmt:
		r.attrs(x.attrs)
		r.expr(x.cond)
		r.block(x.body)
	case *astReturnStmt:
		if x.x != nil {
			r.expr(x.x)
		}
	case *astConstAssertStmt:
		r.expr(x.x)
	}
}

// sortedKeys returns the keys of a set, sorted (for stable messages).
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
