package wgsl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/compiler/emitmode"
	"github.com/gpudiff/gpudiff/ir"
)

// Mode is the emission mode, shared with compiler/spirv (emitmode.Mode;
// ARCHITECTURE.md "Emission modes").
type Mode = emitmode.Mode

const (
	// Portable spells out WGSL's runtime rules with guards: integer
	// division and remainder (WGSL #arithmetic-expr), shift counts masked
	// to 0..31 (#bit-expr), float→int conversion clamped first
	// (#floating-point-conversion), i32 abs, clamp as min(max()),
	// extractBits/insertBits operand clamping, and run-time indices
	// clamped into bounds. A disagreement in this mode is a flatten,
	// interpreter, compiler or driver bug, not a spec gap.
	Portable = emitmode.Portable
	// Raw emits operators as written: the stack under test must implement
	// WGSL's rules itself (conformance and vendor comparison).
	Raw = emitmode.Raw
)

// ParseMode parses "portable" or "raw" ("" means Portable): emitmode.Parse.
func ParseMode(s string) (Mode, error) { return emitmode.Parse(s) }

// EmitOptions configures Emit.
type EmitOptions struct {
	Mode Mode // "" means Portable
	// Fragment emits the kernel ABI's wrapper as a @fragment entry point
	// instead of the @compute one (see Emit).
	Fragment bool
	// OmitSubgroupsEnable leaves `enable subgroups;` out of a module that
	// uses a subgroup builtin or builtin value (emit_directives.go), for a
	// stack that takes them without the directive (naga behind its
	// SUBGROUP feature) or refuses it. The default emits it, as WGSL
	// requires (#extension-subgroups). `enable f16;` is always emitted
	// where the module uses f16.
	OmitSubgroupsEnable bool
}

// Emit returns a WGSL module that runs kernel under the kernel ABI
// (ir.KernelABI, ARCHITECTURE.md "Kernel ABI"), and the name of its compute
// entry point. The module holds the structs, private globals and functions
// of kernel's call graph (opaque declarations are left out), the helper
// functions portable mode needs, the ABI record structs, the two storage
// buffers (@group(0) @binding(0) inputs, read; @binding(1) outputs,
// read_write) and a @compute @workgroup_size(64) entry point: invocation
// i = global_invocation_id.x reads its arguments from input record i (bool
// as u32 0/1), calls the kernel, and writes the result ("ret") and each
// private global to output record i; invocations past the output array's
// length do nothing. Every literal is typed (1i, 2u, 1.0f). Errors: an
// unknown kernel.
//
// With opts.Fragment the wrapper is a @fragment entry point instead, drawn
// over the target harness.FragmentTarget sizes (ARCHITECTURE.md "Kernel
// ABI", the fragment stage): its invocation i = u32(position.y) *
// ir.FragmentRowPitch + u32(position.x), @builtin(position) being the
// pixel centre; it does what the compute wrapper does for i and returns
// the marker @location(0) u32 1, or 0 at once for i past the output
// array's length. The two storage buffers are the same (in WebGPU a
// read_write storage buffer in the fragment stage needs the adapter's
// support: wgpu's FRAGMENT_WRITABLE_STORAGE).
func Emit(m *ir.Module, kernel string, opts EmitOptions) (src string, entryPoint string, err error) {
	if m.Func(kernel) == nil {
		return "", "", fmt.Errorf("emit: no function %q in module", kernel)
	}
	mode := opts.Mode
	if mode == "" {
		mode = Portable
	}
	if mode != Portable && mode != Raw {
		return "", "", fmt.Errorf("emit: unknown mode %q", mode)
	}
	e := newEmitter(m, kernel, mode)
	e.fragment = opts.Fragment
	e.omitSubgroups = opts.OmitSubgroupsEnable
	return e.emit()
}

// EmitFunctions returns the WGSL text of kernel's call graph (structs,
// private globals and functions, portable helpers included) without the
// ABI wrapper — what `gpudiff emit` shows and what the round-trip
// property is stated on.
func EmitFunctions(m *ir.Module, kernel string, opts EmitOptions) (string, error) {
	if m.Func(kernel) == nil {
		return "", fmt.Errorf("emit: no function %q in module", kernel)
	}
	mode := opts.Mode
	if mode == "" {
		mode = Portable
	}
	dirs, body := emitFunctions(m, kernel, mode, opts)
	return dirs + body, nil
}

// emitFunctions is EmitFunctions' text split into its enable directives
// and the rest, for callers that put declarations of their own between
// them (EmitFragment).
func emitFunctions(m *ir.Module, kernel string, mode Mode, opts EmitOptions) (dirs, body string) {
	e := newEmitter(m, kernel, mode)
	e.omitSubgroups = opts.OmitSubgroupsEnable
	e.prepare()
	return e.directives(), e.body.String()
}

type emitter struct {
	m       *ir.Module
	kernel  string
	mode    Mode
	namer   *ir.Namer
	funcs   []*ir.Func // call graph, callees first (clones when rewritten)
	structs []*ir.StructDecl
	globals []*ir.Global

	helpers     map[string]string // key → helper function name
	helperText  []string
	hostStructs map[string]string // struct name → host mirror name
	convFuncs   map[string]string // key → conversion function name
	convText    []string

	body strings.Builder

	fragment bool // the kernel ABI's wrapper in the fragment stage
	// omitSubgroups leaves `enable subgroups;` out
	// (EmitOptions.OmitSubgroupsEnable).
	omitSubgroups bool
}

func newEmitter(m *ir.Module, kernel string, mode Mode) *emitter {
	// naga 0.19.2 (wgpu 0.19.4) lacks WGSL's unrestricted_pointer_parameters
	// language extension (WGSL #language-extensions-sec): it refuses a
	// ptr<workgroup|storage|uniform, T> parameter. Those become their
	// index operands and direct accesses, in both modes (a front-end
	// workaround, like the value-array index helper below).
	m = ir.DirectVariableAccess(m)
	e := &emitter{m: m, kernel: kernel, mode: mode, helpers: map[string]string{},
		hostStructs: map[string]string{}, convFuncs: map[string]string{}}
	e.funcs = m.CallGraph(kernel)
	e.globals = m.GlobalsUsed(kernel)
	e.structs = usedStructs(m, e.funcs, e.globals)
	// Reserve only what is emitted, so re-emitting a parsed emission picks
	// the same wrapper names.
	e.namer = ir.NewNamer(nil, e.funcs...)
	for _, s := range e.structs {
		e.namer.Reserve(s.Name)
	}
	for _, g := range e.globals {
		e.namer.Reserve(g.Name)
	}
	return e
}

// usedStructs returns the structs the functions and globals mention,
// including through other structs, in module order.
func usedStructs(m *ir.Module, fs []*ir.Func, gs []*ir.Global, extra ...*ir.Type) []*ir.StructDecl {
	used := map[string]bool{}
	var addType func(t *ir.Type)
	addType = func(t *ir.Type) {
		if t == nil {
			return
		}
		switch t.Kind {
		case ir.KindVec, ir.KindArray, ir.KindRuntimeArray, ir.KindAtomic:
			addType(t.Elem)
		case ir.KindStruct:
			if used[t.Struct.Name] {
				return
			}
			used[t.Struct.Name] = true
			for _, f := range t.Struct.Fields {
				addType(f.Type)
			}
		}
	}
	visit := func(n ir.Node) {
		ir.Inspect(n, func(x ir.Node) bool {
			switch x := x.(type) {
			case ir.Expr:
				addType(x.Type())
			case *ir.Decl:
				addType(x.T)
			}
			return true
		})
	}
	for _, f := range fs {
		for _, p := range f.Params {
			addType(p.T)
		}
		addType(f.Result)
		visit(f.Body)
	}
	for _, g := range gs {
		addType(g.T)
		if g.Init != nil {
			visit(g.Init)
		}
	}
	for _, t := range extra {
		addType(t)
	}
	var out []*ir.StructDecl
	for _, s := range m.Structs {
		if used[s.Name] {
			out = append(out, s)
		}
	}
	return out
}

// prepare writes the structs, globals, helpers and functions into body.
func (e *emitter) prepare() {
	for i, f := range e.funcs {
		g := ir.CloneFunc(f)
		ir.PruneUnreachable(g.Body) // naga rejects statements after e.g. `{ return; }`
		e.rewriteFunc(g)
		e.funcs[i] = g
	}
	var parts []string
	for _, s := range e.structs {
		parts = append(parts, printStruct(s))
	}
	if len(e.globals) > 0 {
		var b strings.Builder
		for _, g := range e.globals {
			if g.T.Kind == ir.KindStruct && ir.IsPredeclaredStruct(g.T.Struct) && g.Init != nil {
				b.WriteString("var<private> " + g.Name) // modf's, frexp's result: no WGSL spelling
			} else {
				b.WriteString("var<private> " + g.Name + ": " + g.T.String())
			}
			if g.Init != nil {
				b.WriteString(" = " + ir.PrintExpr(g.Init))
			}
			b.WriteString(";\n")
		}
		parts = append(parts, b.String())
	}
	parts = append(parts, e.helperText...)
	for _, f := range e.funcs {
		parts = append(parts, ir.PrintFunc(f))
	}
	e.body.WriteString(strings.Join(parts, "\n"))
}

// printStruct prints s with its members' @builtin, @location and
// @interpolate attributes (an entry point's IO; WGSL ignores them elsewhere) and their
// @align and @size (the layout of the struct in a buffer).
func printStruct(s *ir.StructDecl) string {
	var b strings.Builder
	b.WriteString("struct " + s.Name + " {\n")
	for _, f := range s.Fields {
		b.WriteString("  ")
		if f.Builtin != "" {
			b.WriteString("@builtin(" + f.Builtin + ") ")
		}
		if f.HasLocation {
			fmt.Fprintf(&b, "@location(%d) ", f.Location)
		}
		if a := f.Interp.Attr(); a != "" {
			b.WriteString(a + " ")
		}
		if f.Align > 0 {
			fmt.Fprintf(&b, "@align(%d) ", f.Align)
		}
		if f.Size > 0 {
			fmt.Fprintf(&b, "@size(%d) ", f.Size)
		}
		b.WriteString(f.Name + ": " + f.Type.String() + ",\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func (e *emitter) emit() (string, string, error) {
	e.prepare()
	abi, err := ir.NewKernelABI(e.m, e.kernel)
	if err != nil {
		return "", "", err
	}
	inName := e.namer.Fresh("gpudiff_In")
	outName := e.namer.Fresh("gpudiff_Out")
	inVar := e.namer.Fresh("gpudiff_in")
	outVar := e.namer.Fresh("gpudiff_out")
	entry := e.namer.Fresh("gpudiff_main")
	gid := e.namer.Fresh("gpudiff_gid")
	idx := e.namer.Fresh("gpudiff_i")
	res := e.namer.Fresh("gpudiff_r")

	var w strings.Builder
	record := func(name string, fields []ir.ABIField) {
		w.WriteString("struct " + name + " {\n")
		if len(fields) == 0 {
			w.WriteString("  pad: u32,\n")
		}
		for _, f := range fields {
			w.WriteString("  " + f.Name + ": " + e.hostType(f.T) + ",\n")
		}
		w.WriteString("}\n\n")
	}
	record(inName, abi.Inputs)
	record(outName, abi.Outputs)
	fmt.Fprintf(&w, "@group(0) @binding(%d) var<storage, read> %s: array<%s>;\n", ir.InputBinding, inVar, inName)
	fmt.Fprintf(&w, "@group(0) @binding(%d) var<storage, read_write> %s: array<%s>;\n\n", ir.OutputBinding, outVar, outName)
	done, skip := "", ""
	if e.fragment {
		pos := e.namer.Fresh("gpudiff_pos")
		fmt.Fprintf(&w, "@fragment\n")
		fmt.Fprintf(&w, "fn %s(@builtin(position) %s: vec4<f32>) -> @location(%d) u32 {\n", entry, pos, ir.FragmentMarkerLocation)
		fmt.Fprintf(&w, "  let %s: u32 = u32(%s.y) * %du + u32(%s.x);\n", idx, pos, ir.FragmentRowPitch, pos)
		done, skip = " 1u", " 0u"
	} else {
		fmt.Fprintf(&w, "@compute @workgroup_size(%d)\n", ir.WorkgroupSize)
		fmt.Fprintf(&w, "fn %s(@builtin(global_invocation_id) %s: vec3<u32>) {\n", entry, gid)
		fmt.Fprintf(&w, "  let %s: u32 = %s.x;\n", idx, gid)
	}
	fmt.Fprintf(&w, "  if (%s >= arrayLength(&%s)) {\n    return%s;\n  }\n", idx, outVar, skip)
	args := make([]string, len(abi.Inputs))
	for i, f := range abi.Inputs {
		args[i] = e.fromHost(fmt.Sprintf("%s[%s].%s", inVar, idx, f.Name), f.T)
	}
	call := e.kernel + "(" + strings.Join(args, ", ") + ")"
	if abi.Result.IsVoid() {
		fmt.Fprintf(&w, "  %s;\n", call)
	} else {
		fmt.Fprintf(&w, "  let %s: %s = %s;\n", res, abi.Result, call)
	}
	for _, f := range abi.Outputs {
		src := f.Name
		if !f.Global {
			src = res
		}
		fmt.Fprintf(&w, "  %s[%s].%s = %s;\n", outVar, idx, f.Name, e.toHost(src, f.T))
	}
	if done != "" {
		fmt.Fprintf(&w, "  return%s;\n", done)
	}
	w.WriteString("}\n")

	var out strings.Builder
	n := e.needs()
	dirs := n.text(e.omitSubgroups)
	diags := e.diagnostics()
	if n.subgroups && !e.omitSubgroups && !strings.Contains(diags, "subgroup_uniformity") {
		// The wrapper's early return (invocations past the output
		// array's length) makes the kernel's control flow non-uniform,
		// so WGSL's analysis refuses a subgroup builtin in it at the
		// rule's default severity (WGSL #uniformity-function-calls);
		// the kernel, checked on its own, had uniform control flow.
		// (Where the directive is left out for naga, so is this: naga
		// does not check subgroup uniformity.)
		diags = "diagnostic(off, subgroup_uniformity);\n" + diags
		if !strings.HasSuffix(diags, "\n\n") {
			diags += "\n"
		}
	}
	out.WriteString(strings.TrimSuffix(dirs, "\n") + diags)
	out.WriteString(e.body.String())
	for _, s := range e.hostStructOrder() {
		out.WriteString("\n" + s)
	}
	for _, c := range e.convText {
		out.WriteString("\n" + c)
	}
	out.WriteString("\n" + w.String())
	return out.String(), entry, nil
}

// ---- bool ↔ u32 host mirrors ----

func (e *emitter) hostStructOrder() []string {
	names := make([]string, 0, len(e.hostStructs))
	for n := range e.hostStructs {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		s := e.m.Struct(n)
		var b strings.Builder
		b.WriteString("struct " + e.hostStructs[n] + " {\n")
		for _, f := range s.Fields {
			b.WriteString("  " + f.Name + ": " + e.hostType(f.Type) + ",\n")
		}
		b.WriteString("}\n")
		out = append(out, b.String())
	}
	return out
}

// hostType returns the host-shareable spelling of t: bool → u32,
// vecN<bool> → vecN<u32>, structs and arrays containing bool → mirrors.
func (e *emitter) hostType(t *ir.Type) string {
	if !ir.HasBool(t) {
		return t.String()
	}
	switch t.Kind {
	case ir.KindBool:
		return "u32"
	case ir.KindVec:
		return fmt.Sprintf("vec%d<u32>", t.Len)
	case ir.KindArray:
		return fmt.Sprintf("array<%s, %d>", e.hostType(t.Elem), t.Len)
	case ir.KindStruct:
		name, ok := e.hostStructs[t.Struct.Name]
		if !ok {
			name = e.namer.Fresh("gpudiff_host_" + t.Struct.Name)
			e.hostStructs[t.Struct.Name] = name
			for _, f := range t.Struct.Fields {
				e.hostType(f.Type)
			}
		}
		return name
	}
	return t.String()
}

// toHost returns a WGSL expression converting expr of type t to hostType(t).
func (e *emitter) toHost(expr string, t *ir.Type) string {
	if !ir.HasBool(t) {
		return expr
	}
	switch t.Kind {
	case ir.KindBool:
		return "select(0u, 1u, " + expr + ")"
	case ir.KindVec:
		return fmt.Sprintf("select(vec%d<u32>(0u), vec%d<u32>(1u), %s)", t.Len, t.Len, expr)
	}
	return e.convFunc("to", t) + "(" + expr + ")"
}

// fromHost converts expr of hostType(t) back to t.
func (e *emitter) fromHost(expr string, t *ir.Type) string {
	if !ir.HasBool(t) {
		return expr
	}
	switch t.Kind {
	case ir.KindBool:
		return "(" + expr + " != 0u)"
	case ir.KindVec:
		return fmt.Sprintf("(%s != vec%d<u32>(0u))", expr, t.Len)
	}
	return e.convFunc("from", t) + "(" + expr + ")"
}

// convFunc returns (creating on first use) a function converting a struct
// or array containing bool to or from its host mirror.
func (e *emitter) convFunc(dir string, t *ir.Type) string {
	key := dir + ":" + t.String()
	if n, ok := e.convFuncs[key]; ok {
		return n
	}
	base := "gpudiff_" + dir + "_host"
	name := e.namer.Fresh(base)
	e.convFuncs[key] = name
	host := e.hostType(t)
	var from, to string
	conv := e.toHost
	if dir == "to" {
		from, to = t.String(), host
	} else {
		from, to = host, t.String()
		conv = e.fromHost
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fn %s(gpudiff_v: %s) -> %s {\n", name, from, to)
	switch t.Kind {
	case ir.KindStruct:
		args := make([]string, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			args[i] = conv("gpudiff_v."+f.Name, f.Type)
		}
		fmt.Fprintf(&b, "  return %s(%s);\n", to, strings.Join(args, ", "))
	case ir.KindArray:
		fmt.Fprintf(&b, "  var gpudiff_a: %s = gpudiff_v;\n  var gpudiff_r: %s;\n", from, to)
		fmt.Fprintf(&b, "  for (var gpudiff_j: u32 = 0u; gpudiff_j < %du; gpudiff_j += 1u) {\n    gpudiff_r[gpudiff_j] = %s;\n  }\n  return gpudiff_r;\n",
			t.Len, conv("gpudiff_a[gpudiff_j]", t.Elem))
	}
	b.WriteString("}\n")
	e.convText = append(e.convText, b.String())
	return name
}
