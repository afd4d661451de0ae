package ir

import "sort"

// Module is a WGSL module: the declarations inside the gpudiff subset as
// IR, and everything else kept verbatim as Opaque declarations so that any
// valid WGSL module round-trips.
type Module struct {
	File    string // source file name for diagnostics (relative, never a machine's absolute path when saved)
	Structs []*StructDecl
	Globals []*Global
	Shared  []*SharedVar // var<workgroup>, var<storage>, var<uniform> (entry.go)
	// Textures are the texture and sampler bindings (texture.go).
	Textures []*TextureVar
	Funcs    []*Func
	Opaque   []*Opaque
}

// Global is a module-scope var<private> (WGSL §7.3): one copy per
// invocation, initialized from Init (a const-expression) or zero.
type Global struct {
	Pos  Pos
	Name string
	T    *Type
	Init Expr
}

// Param is a function parameter. Builtin names the builtin value
// (InvocationBuiltins, FragmentBuiltins, VertexBuiltins) an entry point's
// parameter receives, else "". HasLocation marks a user-defined input
// @location(Location) (WGSL #input-output-locations): a vertex attribute
// of a vertex entry point, a varying of a fragment entry point, whose
// Interp is its @interpolate (WGSL #interpolation; the zero value where
// none is written).
type Param struct {
	Pos         Pos
	Name        string
	T           *Type
	Builtin     string
	HasLocation bool
	Location    int
	Interp      Interpolation
	// Ptr is the address space of a pointer parameter
	// ptr<AS, T[, A]> (WGSL #ref-ptr-types), T being the pointee type;
	// 0 for a value parameter. The body uses it only as the memory view
	// *p (an Ident with Ref RefPtr); its argument is an AddrOf. In the
	// workgroup, storage and uniform spaces (SharesMemory) the view is
	// into memory other invocations share; DirectVariableAccess rewrites
	// such parameters away for the passes that need direct accesses.
	Ptr AddressSpace
	// PtrAccess is the access mode of a ptr<storage, T, A> parameter
	// (AccessRead, WGSL's default, or AccessReadWrite); 0 for every other
	// parameter (function, private and workgroup pointers are
	// read_write, uniform pointers read).
	PtrAccess Access
	// PtrPos is where a pointer parameter's type is written (refusals
	// of a pointer where the kernel ABI needs a value point at it).
	PtrPos Pos
}

// Func is a user function of the subset. Result is Void for functions
// without a return type. Stage is StageCompute for an @compute entry
// point, whose WorkgroupSize is its @workgroup_size (each ≥ 1) and whose
// parameters are builtin values (Param.Builtin, or a struct of them).
// Stage is StageFragment for a @fragment entry point, whose parameters
// are FragmentBuiltins values and whose Result is its output: a value
// with @location(ResultLocation), or a struct whose members each have a
// @location (Field.Location).
// Stage is StageVertex for a @vertex entry point (stage_io.go), whose
// parameters are VertexBuiltins values or @location attributes (or a
// struct of them) and whose Result is a bare @builtin(position)
// vec4<f32> (ResultBuiltin "position"), a bare @location(ResultLocation)
// varying (interpolated as ResultInterp), or a struct of such members.
type Func struct {
	Pos            Pos
	Name           string
	Params         []*Param
	Result         *Type
	Body           *Block
	Stage          Stage
	StagePos       Pos // the stage attribute (@compute, @fragment)
	WorkgroupSize  [3]uint32
	ResultLocation int
	// ResultBuiltin is the builtin a bare result is (WGSL
	// #builtin-values): "position" for a vertex entry point returning
	// @builtin(position) vec4<f32>; "" otherwise (then a bare result has
	// @location(ResultLocation)).
	ResultBuiltin string
	// ResultInterp is a bare @location result's @interpolate (WGSL
	// #interpolation): a vertex entry point's varying; zero otherwise.
	ResultInterp Interpolation
}

// Position returns the position of the fn keyword.
func (f *Func) Position() Pos { return f.Pos }

// Opaque is a module-scope declaration outside the subset (entry points,
// resource bindings, overrides, directives, functions using textures or
// pointers, …), kept as its source text. Kernels and the functions they
// call may not refer to opaque declarations.
type Opaque struct {
	Pos        Pos
	Kind       string // "fn", "var", "override", "enable", "requires", "diagnostic", "alias", "const_assert", "const", "struct"
	Name       string // the declared name, if any
	Text       string // exact source text
	Reason     string // why it is outside the subset, for error messages
	ReasonPos  Pos    // where the first construct outside the subset is
	EntryPoint bool   // an @compute/@vertex/@fragment function
	// Supplied is, for an override with neither a default value nor a
	// pipeline constant given, the constant gpudiff supplied as the
	// --override argument that gives it, KEY=VALUE ("o=1", "1234=1";
	// wgsl.DefaultOverrideConstant), which Text carries as its
	// initializer; "" otherwise.
	Supplied string
}

// Func returns the function named name, or nil.
func (m *Module) Func(name string) *Func {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Global returns the private global named name, or nil.
func (m *Module) Global(name string) *Global {
	for _, g := range m.Globals {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// Struct returns the struct named name, or nil.
func (m *Module) Struct(name string) *StructDecl {
	for _, s := range m.Structs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// OpaqueDecl returns the opaque declaration named name, or nil.
func (m *Module) OpaqueDecl(name string) *Opaque {
	for _, o := range m.Opaque {
		if o.Name != "" && o.Name == name {
			return o
		}
	}
	return nil
}

// AddFunc appends f, replacing any function of the same name.
func (m *Module) AddFunc(f *Func) {
	for i, g := range m.Funcs {
		if g.Name == f.Name {
			m.Funcs[i] = f
			return
		}
	}
	m.Funcs = append(m.Funcs, f)
}

// Callees returns the names of the user functions f calls, sorted, each once.
func Callees(f *Func) []string {
	seen := map[string]bool{}
	Inspect(f.Body, func(n Node) bool {
		if c, ok := n.(*Call); ok {
			seen[c.Func] = true
		}
		return true
	})
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Kernels returns the names of the functions no other function calls, in
// declaration order: the candidates for the kernel under test (opaque
// entry points are never candidates).
func (m *Module) Kernels() []string {
	called := map[string]bool{}
	for _, f := range m.Funcs {
		for _, c := range Callees(f) {
			if c != f.Name {
				called[c] = true
			}
		}
	}
	var out []string
	for _, f := range m.Funcs {
		if !called[f.Name] && f.Stage == StageNone {
			out = append(out, f.Name)
		}
	}
	return out
}

// CallGraph returns name and every function it reaches through calls, in
// an order where each callee comes before its callers (name last). Missing
// callees are skipped (Verify reports them). Recursion does not loop: a
// function already on the path is not revisited.
func (m *Module) CallGraph(name string) []*Func {
	var out []*Func
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(string)
	visit = func(n string) {
		if state[n] != 0 {
			return
		}
		f := m.Func(n)
		if f == nil {
			return
		}
		state[n] = 1
		for _, c := range Callees(f) {
			visit(c)
		}
		state[n] = 2
		out = append(out, f)
	}
	visit(name)
	return out
}

// FindCycle returns a call cycle reachable from name (the function names
// along it, first repeated at the end), or nil when there is none.
func (m *Module) FindCycle(name string) []string {
	var path []string
	onPath := map[string]bool{}
	done := map[string]bool{}
	var visit func(string) []string
	visit = func(n string) []string {
		if onPath[n] {
			i := 0
			for path[i] != n {
				i++
			}
			return append(append([]string{}, path[i:]...), n)
		}
		if done[n] {
			return nil
		}
		f := m.Func(n)
		if f == nil {
			return nil
		}
		onPath[n] = true
		path = append(path, n)
		for _, c := range Callees(f) {
			if cyc := visit(c); cyc != nil {
				return cyc
			}
		}
		path = path[:len(path)-1]
		onPath[n] = false
		done[n] = true
		return nil
	}
	return visit(name)
}

// SharedUsed returns the shared variables (workgroup, storage, uniform)
// that name's call graph refers to, in module order: for an entry point,
// its resource interface (WGSL #resource-interface: the bindings it
// statically accesses; others at the same @group/@binding belong to
// other entry points).
func (m *Module) SharedUsed(name string) []*SharedVar {
	used := map[string]bool{}
	for _, f := range m.CallGraph(name) {
		Inspect(f.Body, func(n Node) bool {
			if id, ok := n.(*Ident); ok && id.Ref == RefShared {
				used[id.Name] = true
			}
			return true
		})
	}
	var out []*SharedVar
	for _, v := range m.Shared {
		if used[v.Name] {
			out = append(out, v)
		}
	}
	return out
}

// GlobalsUsed returns the private globals that name's call graph reads or
// writes, in module order.
func (m *Module) GlobalsUsed(name string) []*Global {
	used := map[string]bool{}
	for _, f := range m.CallGraph(name) {
		Inspect(f.Body, func(n Node) bool {
			if id, ok := n.(*Ident); ok && id.Ref == RefGlobal {
				used[id.Name] = true
			}
			return true
		})
	}
	var out []*Global
	for _, g := range m.Globals {
		if used[g.Name] {
			out = append(out, g)
		}
	}
	return out
}
