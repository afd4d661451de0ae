package ir

import "fmt"

// Verification of entry points, shared variables, atomics and
// arrayLength (see entry.go and Verify).

// valueType reports a type a value (parameter, local) cannot have.
func (v *verifier) valueType(pos Pos, t *Type, what string) {
	if t != nil && (t.HasAtomic() || t.HasRuntimeArray()) {
		v.errorf(pos, "%s: type %v is only allowed in a storage or workgroup variable", what, t)
	}
}

// sharedRoot returns the SharedVar at the root of the reference chain e,
// or nil (reporting it) when e is not rooted at one. A chain rooted at a
// pointer parameter into shared memory (Param.SharesMemory) stands for
// the variable it will point to: the result then describes the
// parameter's space and access only (Name is the parameter's).
func (v *verifier) sharedRoot(e Expr, what string) *SharedVar {
	id := RootIdent(e)
	if id == nil || !IsReference(e) {
		v.errorf(e.Position(), "%s: operand is not a reference", what)
		return nil
	}
	if id.Ref == RefPtr {
		if q := v.ptrParam(id.Name); q != nil && q.SharesMemory() {
			acc := q.PtrAccess
			if q.Ptr != SpaceStorage {
				acc = AccessRead
			}
			return &SharedVar{Pos: q.Pos, Name: q.Name, T: q.T, Space: q.Ptr, Access: acc}
		}
	}
	if id.Ref != RefShared {
		v.errorf(e.Position(), "%s: %s is a %s, not a storage or workgroup variable", what, id.Name, id.Ref)
		return nil
	}
	return v.m.SharedVar(id.Name)
}

func (v *verifier) sharedExpr(e Expr) {
	switch e := e.(type) {
	case *Atomic:
		if len(e.Args) == 0 {
			v.errorf(e.Pos, "%s without a pointer operand", e.Op)
			return
		}
		for _, a := range e.Args {
			v.expr(a)
		}
		t := e.Ptr().Type()
		if t.Kind != KindAtomic {
			v.errorf(e.Pos, "%s of a reference of type %v, want atomic<i32> or atomic<u32>", e.Op, t)
			return
		}
		g := v.sharedRoot(e.Ptr(), e.Op.String())
		if g != nil && !(g.Space == SpaceWorkgroup || g.Space == SpaceStorage && g.Access == AccessReadWrite) {
			v.errorf(e.Pos, "%s of %s: atomics live in storage (read_write) or workgroup variables", e.Op, g.Name)
		}
		if len(e.Args)-1 != e.Op.Operands() {
			v.errorf(e.Pos, "%s expects %d operand(s) after the pointer, got %d", e.Op, e.Op.Operands(), len(e.Args)-1)
		}
		for _, a := range e.Args[1:] {
			if !Identical(a.Type(), t.Elem) {
				v.errorf(a.Position(), "%s operand has type %v, want %v", e.Op, a.Type(), t.Elem)
			}
		}
		v.want(e, e.T, AtomicResultType(e.Op, t.Elem))
	case *ArrayLength:
		v.expr(e.X)
		if e.X.Type().Kind != KindRuntimeArray {
			v.errorf(e.Pos, "arrayLength of %v, want a runtime-sized array", e.X.Type())
			return
		}
		if g := v.sharedRoot(e.X, "arrayLength"); g != nil && g.Space != SpaceStorage {
			v.errorf(e.Pos, "arrayLength of %s, a %s variable", g.Name, g.Space)
		}
	}
}

// entries checks shared variables and entry points.
func (v *verifier) entries() {
	for _, g := range v.m.Shared {
		v.checkType(g.Pos, g.T)
		switch g.Space {
		case SpaceWorkgroup:
			if g.T.HasRuntimeArray() {
				v.errorf(g.Pos, "var<workgroup> %s: runtime-sized array", g.Name)
			}
		case SpaceStorage:
			if g.T.HasAtomic() && g.Access != AccessReadWrite {
				v.errorf(g.Pos, "var<storage, read> %s holds atomics (they need read_write)", g.Name)
			}
		case SpaceUniform:
			if g.T.HasAtomic() || g.T.HasRuntimeArray() {
				v.errorf(g.Pos, "var<uniform> %s: type %v is not allowed in uniform", g.Name, g.T)
			}
		default:
			v.errorf(g.Pos, "shared var %s has no address space", g.Name)
		}
		if g.Space != SpaceWorkgroup && (g.Group < 0 || g.Binding < 0) {
			v.errorf(g.Pos, "%s needs @group and @binding", g.Name)
		}
	}
	hasEntry := false
	reach := map[string]bool{}
	for _, f := range v.m.Funcs {
		if f.Stage == StageNone {
			continue
		}
		if f.Stage == StageFragment {
			v.fragmentEntry(f)
			continue
		}
		if f.Stage == StageVertex {
			v.vertexEntry(f)
			continue
		}
		hasEntry = true
		for _, c := range v.m.CallGraph(f.Name) {
			reach[c.Name] = true
		}
		if !f.Result.IsVoid() {
			v.errorf(f.Pos, "compute entry point %s returns a value", f.Name)
		}
		for i, n := range f.WorkgroupSize {
			if n < 1 {
				v.errorf(f.Pos, "entry point %s: workgroup size %d is %d, want ≥ 1", f.Name, i, n)
			}
		}
		for _, p := range f.Params {
			if p.Builtin != "" {
				if want, ok := InvocationBuiltins[p.Builtin]; !ok || !Identical(want, p.T) {
					v.errorf(p.Pos, "entry point %s: parameter %s: builtin %s of type %v", f.Name, p.Name, p.Builtin, p.T)
				}
				continue
			}
			if p.T.Kind != KindStruct {
				v.errorf(p.Pos, "entry point %s: parameter %s is not a builtin value", f.Name, p.Name)
				continue
			}
			for _, fl := range p.T.Struct.Fields {
				if want, ok := InvocationBuiltins[fl.Builtin]; !ok || !Identical(want, fl.Type) {
					v.errorf(p.Pos, "entry point %s: parameter %s: member %s is not a builtin value of its type", f.Name, p.Name, fl.Name)
				}
			}
		}
	}
	// discard only in the fragment stage (WGSL #discard-statement): no
	// compute or vertex entry point may reach one.
	nonFragment := map[string]string{}
	for _, f := range v.m.Funcs {
		if f.Stage == StageCompute || f.Stage == StageVertex {
			for _, c := range v.m.CallGraph(f.Name) {
				if _, ok := nonFragment[c.Name]; !ok {
					nonFragment[c.Name] = f.Name
				}
			}
		}
	}
	for _, f := range v.m.Funcs {
		Inspect(f.Body, func(n Node) bool {
			switch x := n.(type) {
			case *Discard:
				if ep, ok := nonFragment[f.Name]; ok {
					v.errorf(x.Pos, "in %s: discard in a function the %s entry point %s reaches (fragment stage only)", f.Name, v.m.Func(ep).Stage, ep)
				}
			case *Call:
				if g := v.m.Func(x.Func); g != nil && g.Stage != StageNone {
					v.errorf(x.Pos, "in %s: call of entry point %s", f.Name, x.Func)
				}
			case *BuiltinCall:
				if hasEntry && x.Fn.Info().Class == ClassBarrier && !reach[f.Name] {
					v.errorf(x.Pos, "in %s: %s in a function no compute entry point calls", f.Name, x.Fn.Info().Name)
				}
			}
			return true
		})
	}
}

// fragmentEntry checks a fragment entry point: parameters that are
// FragmentBuiltins values of their types or @location varyings (ioInputs),
// a result that is a value or a struct of values, each with a distinct
// @location (ResultLocation, Field.Location), never negative. (What
// gpudiff can run of them, the front end's FragmentEntry checks.)
func (v *verifier) fragmentEntry(f *Func) {
	v.ioInputs(f, FragmentBuiltins)
	if f.WorkgroupSize != [3]uint32{} {
		v.errorf(f.Pos, "fragment entry point %s has a workgroup size", f.Name)
	}
	if f.ResultBuiltin != "" {
		v.errorf(f.Pos, "fragment entry point %s: result @builtin(%s)", f.Name, f.ResultBuiltin)
	}
	switch {
	case f.Result.IsVoid():
	case f.Result.Kind == KindStruct:
		seen := map[int]bool{}
		for _, fl := range f.Result.Struct.Fields {
			if !fl.HasLocation || fl.Location < 0 || seen[fl.Location] {
				v.errorf(f.Pos, "fragment entry point %s: result member %s needs a @location of its own", f.Name, fl.Name)
			}
			seen[fl.Location] = true
		}
	case f.ResultLocation < 0:
		v.errorf(f.Pos, "fragment entry point %s: result @location(%d)", f.Name, f.ResultLocation)
	}
}

// vertexEntry checks a vertex entry point (WGSL #entry-point-decl,
// #stage-inputs-outputs): VertexBuiltins or @location attribute inputs
// (ioInputs; an attribute's @interpolate is kept and means nothing), and a result that holds
// exactly one @builtin(position) vec4<f32> — bare (ResultBuiltin) or a
// struct member — beside @location varyings of IO types with distinct
// locations.
func (v *verifier) vertexEntry(f *Func) {
	v.ioInputs(f, VertexBuiltins)
	if f.WorkgroupSize != [3]uint32{} {
		v.errorf(f.Pos, "vertex entry point %s has a workgroup size", f.Name)
	}
	switch {
	case f.Result.IsVoid():
		v.errorf(f.Pos, "vertex entry point %s returns no position", f.Name)
	case f.Result.Kind == KindStruct:
		if f.ResultBuiltin != "" {
			v.errorf(f.Pos, "vertex entry point %s: a struct result is no @builtin(%s)", f.Name, f.ResultBuiltin)
		}
		positions := 0
		seen := map[int]bool{}
		for _, fl := range f.Result.Struct.Fields {
			switch {
			case fl.Builtin != "":
				if want, ok := VertexOutputBuiltins[fl.Builtin]; !ok || !Identical(want, fl.Type) || fl.HasLocation {
					v.errorf(f.Pos, "vertex entry point %s: result member %s is not a vertex output builtin of its type", f.Name, fl.Name)
				}
				positions++
			case fl.HasLocation:
				if fl.Location < 0 || seen[fl.Location] {
					v.errorf(f.Pos, "vertex entry point %s: result member %s needs a @location of its own", f.Name, fl.Name)
				}
				seen[fl.Location] = true
				v.varying(f, fl.Name, fl.Type, fl.Interp)
			default:
				v.errorf(f.Pos, "vertex entry point %s: result member %s has neither @builtin nor @location", f.Name, fl.Name)
			}
		}
		if positions != 1 {
			v.errorf(f.Pos, "vertex entry point %s: result has %d @builtin(position) members, want 1", f.Name, positions)
		}
	case f.ResultBuiltin != "":
		if want, ok := VertexOutputBuiltins[f.ResultBuiltin]; !ok || !Identical(want, f.Result) {
			v.errorf(f.Pos, "vertex entry point %s: result @builtin(%s) of type %v", f.Name, f.ResultBuiltin, f.Result)
		}
		if !f.ResultInterp.IsZero() {
			v.errorf(f.Pos, "vertex entry point %s: a builtin result has an @interpolate", f.Name)
		}
	default:
		v.errorf(f.Pos, "vertex entry point %s: result @location(%d) without a @builtin(position)", f.Name, f.ResultLocation)
	}
}

// ioInputs checks a render entry point's inputs: each parameter (or
// member of a struct parameter) is a builtin of builtins, of its type, or
// a @location(n ≥ 0) of an IO type, the locations distinct.
func (v *verifier) ioInputs(f *Func, builtins map[string]*Type) {
	seen := map[int]bool{}
	check := func(pos Pos, what, builtin string, hasLoc bool, loc int, t *Type, in Interpolation) {
		// A vertex attribute may carry an @interpolate (WGSL allows it on
		// any user-defined IO; it interpolates nothing there, and the SPIR-V
		// emitter decorates no vertex input).
		switch {
		case builtin != "":
			if want, ok := builtins[builtin]; !ok || !Identical(want, t) || hasLoc {
				v.errorf(pos, "%s entry point %s: %s is not a %s builtin value of its type", f.Stage, f.Name, what, f.Stage)
			}
			if !in.IsZero() {
				v.errorf(pos, "%s entry point %s: builtin %s has an @interpolate", f.Stage, f.Name, what)
			}
		case hasLoc:
			if loc < 0 || seen[loc] {
				v.errorf(pos, "%s entry point %s: %s needs a @location of its own", f.Stage, f.Name, what)
			}
			seen[loc] = true
			if f.Stage == StageVertex {
				if !IOType(t) {
					v.errorf(pos, "vertex entry point %s: attribute %s has type %v, want an i32, u32 or f32 scalar or vector", f.Name, what, t)
				}
				return
			}
			v.varying(f, what, t, in)
		default:
			v.errorf(pos, "%s entry point %s: %s has neither @builtin nor @location", f.Stage, f.Name, what)
		}
	}
	for _, p := range f.Params {
		if p.Builtin == "" && !p.HasLocation && p.T.Kind == KindStruct {
			for _, fl := range p.T.Struct.Fields {
				check(p.Pos, "parameter "+p.Name+" member "+fl.Name, fl.Builtin, fl.HasLocation, fl.Location, fl.Type, fl.Interp)
			}
			continue
		}
		check(p.Pos, "parameter "+p.Name, p.Builtin, p.HasLocation, p.Location, p.T, p.Interp)
	}
}

// varying checks a vertex output or fragment input: an IO type (IOType),
// an integer one @interpolate(flat[, …]) (WGSL #interpolation: integer
// vertex outputs and fragment inputs must be written flat), a sampling
// only beside a type, first and either only for flat, center not for
// flat.
func (v *verifier) varying(f *Func, what string, t *Type, in Interpolation) {
	if !IOType(t) {
		v.errorf(f.Pos, "%s entry point %s: %s has type %v, want an i32, u32 or f32 scalar or vector", f.Stage, f.Name, what, t)
		return
	}
	if t.Scalar().IsInteger() && in.Type != InterpFlat {
		v.errorf(f.Pos, "%s entry point %s: integer %s needs @interpolate(flat)", f.Stage, f.Name, what)
	}
	if in.Type == InterpDefault && in.Sampling != SamplingDefault {
		v.errorf(f.Pos, "%s entry point %s: %s has a sampling without a type", f.Stage, f.Name, what)
	}
	switch in.Sampling {
	case SamplingFirst, SamplingEither:
		if in.Type != InterpFlat {
			v.errorf(f.Pos, "%s entry point %s: %s: sampling %s is for flat", f.Stage, f.Name, what, in.Sampling)
		}
	case SamplingCenter:
		if in.Type == InterpFlat {
			v.errorf(f.Pos, "%s entry point %s: %s: flat takes first or either, not center", f.Stage, f.Name, what)
		}
	}
}

var _ = fmt.Sprintf
