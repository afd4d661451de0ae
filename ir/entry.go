package ir

import "fmt"

// Entry points as written (ARCHITECTURE.md "Entry points as written
// (compute)"): @compute functions with their builtin inputs, the
// module-scope variables invocations share (var<workgroup>,
// var<storage>, var<uniform>), atomics and arrayLength. Barriers are
// BuiltinCalls of BWorkgroupBarrier and BStorageBarrier in an ExprStmt.

// Stage is the shader stage of an entry point; StageNone marks an
// ordinary function.
type Stage uint8

const (
	StageNone     Stage = iota
	StageCompute        // @compute (WGSL #entry-point-decl)
	StageFragment       // @fragment (WGSL #entry-point-decl)
	StageVertex         // @vertex (WGSL #entry-point-decl); stage_io.go
)

func (s Stage) String() string {
	switch s {
	case StageCompute:
		return "compute"
	case StageFragment:
		return "fragment"
	case StageVertex:
		return "vertex"
	}
	return "none"
}

// FragmentBuiltins are the builtin values a fragment entry point may take
// as parameters or struct members (WGSL #builtin-values), with their
// types: the framebuffer position (x + 0.5, y + 0.5 at a pixel centre,
// the fragment's depth z, 1/w) and whether the primitive is front-facing.
// (sample_index and sample_mask are outside the subset: the front end
// refuses them.)
var FragmentBuiltins = map[string]*Type{
	"position":     Vec(4, F32),
	"front_facing": Bool,
}

// AddressSpace is where a shared module-scope variable lives
// (WGSL #address-spaces).
type AddressSpace uint8

const (
	SpaceWorkgroup AddressSpace = iota + 1 // var<workgroup>: one copy per workgroup
	SpaceStorage                           // var<storage, read|read_write>: one buffer per dispatch
	SpaceUniform                           // var<uniform>: one read-only buffer per dispatch
	SpaceFunction                          // ptr<function, T>: a pointer parameter's space only
	SpacePrivate                           // ptr<private, T>: a pointer parameter's space only
)

func (s AddressSpace) String() string {
	switch s {
	case SpaceWorkgroup:
		return "workgroup"
	case SpaceStorage:
		return "storage"
	case SpaceUniform:
		return "uniform"
	case SpaceFunction:
		return "function"
	case SpacePrivate:
		return "private"
	}
	return "?"
}

// Access is a storage variable's access mode (WGSL #access-mode).
type Access uint8

const (
	AccessRead      Access = iota + 1 // read (the default of var<storage>)
	AccessReadWrite                   // read_write
)

// SharedVar is a module-scope variable shared between invocations: a
// var<workgroup> (Group and Binding are -1) or a resource binding
// var<storage, A> / var<uniform> with @group(Group) @binding(Binding).
// Its type is host-shareable for storage and uniform (a runtime-sized
// array is allowed as the whole type or the last member of a struct, for
// storage only) and may contain atomics in storage (read_write) and
// workgroup. Idents naming it have Ref RefShared.
type SharedVar struct {
	Pos            Pos
	Name           string
	T              *Type
	Space          AddressSpace
	Access         Access // SpaceStorage only (AccessRead for uniform and workgroup)
	Group, Binding int
}

// Writable reports whether invocations may store to v.
func (v *SharedVar) Writable() bool {
	return v.Space == SpaceWorkgroup || v.Space == SpaceStorage && v.Access == AccessReadWrite
}

// Decl returns v's WGSL declaration ("@group(0) @binding(1) var<storage, read_write> out: array<u32>;").
func (v *SharedVar) Decl() string {
	switch v.Space {
	case SpaceWorkgroup:
		return fmt.Sprintf("var<workgroup> %s: %s;", v.Name, v.T)
	case SpaceUniform:
		return fmt.Sprintf("@group(%d) @binding(%d) var<uniform> %s: %s;", v.Group, v.Binding, v.Name, v.T)
	}
	acc := "read"
	if v.Access == AccessReadWrite {
		acc = "read_write"
	}
	return fmt.Sprintf("@group(%d) @binding(%d) var<storage, %s> %s: %s;", v.Group, v.Binding, acc, v.Name, v.T)
}

// SharedVar returns the shared variable named name, or nil.
func (m *Module) SharedVar(name string) *SharedVar {
	for _, v := range m.Shared {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// EntryPoints returns the module's entry points, in declaration order.
func (m *Module) EntryPoints() []*Func {
	var out []*Func
	for _, f := range m.Funcs {
		if f.Stage != StageNone {
			out = append(out, f)
		}
	}
	return out
}

// InvocationBuiltins are the builtin values a compute entry point may
// take as parameters or struct members (WGSL #builtin-values), with their
// types. subgroup_invocation_id and subgroup_size need `enable subgroups;`
// (WGSL #subgroup-builtin-values; naga accepts them without it): the
// invocation's id within its subgroup, in [0, subgroup_size), and the
// subgroup size, a power of two in [4, 128] uniform in the dispatch.
var InvocationBuiltins = map[string]*Type{
	"local_invocation_id":    Vec(3, U32),
	"local_invocation_index": U32,
	"global_invocation_id":   Vec(3, U32),
	"workgroup_id":           Vec(3, U32),
	"num_workgroups":         Vec(3, U32),
	"subgroup_invocation_id": U32,
	"subgroup_size":          U32,
	// subgroup_id is the invocation's subgroup's index within its
	// workgroup, in [0, num_subgroups); num_subgroups the workgroup's
	// number of subgroups (WGSL #subgroup-id-builtin-value, behind the
	// subgroup_id language extension; Tint and naga take them).
	"subgroup_id":   U32,
	"num_subgroups": U32,
}

// SubgroupBuiltin reports whether the builtin value named name is one of
// the subgroup ones (subgroup_invocation_id, subgroup_size, subgroup_id,
// num_subgroups).
func SubgroupBuiltin(name string) bool {
	for _, b := range subgroupBuiltins {
		if name == b {
			return true
		}
	}
	return false
}

// subgroupBuiltins are the subgroup builtin values (SubgroupBuiltin).
var subgroupBuiltins = []string{"subgroup_invocation_id", "subgroup_size", "subgroup_id", "num_subgroups"}

// AtomicOp is an atomic builtin (WGSL #atomic-builtin-functions).
type AtomicOp uint8

const (
	AtomicLoad AtomicOp = iota + 1
	AtomicStore
	AtomicAdd
	AtomicSub
	AtomicMax
	AtomicMin
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicExchange
	AtomicCompareExchangeWeak
)

var atomicNames = [...]string{
	AtomicLoad: "atomicLoad", AtomicStore: "atomicStore", AtomicAdd: "atomicAdd", AtomicSub: "atomicSub",
	AtomicMax: "atomicMax", AtomicMin: "atomicMin", AtomicAnd: "atomicAnd", AtomicOr: "atomicOr",
	AtomicXor: "atomicXor", AtomicExchange: "atomicExchange", AtomicCompareExchangeWeak: "atomicCompareExchangeWeak",
}

func (o AtomicOp) String() string {
	if int(o) < len(atomicNames) && atomicNames[o] != "" {
		return atomicNames[o]
	}
	return "atomic?"
}

// LookupAtomic returns the atomic builtin named name.
func LookupAtomic(name string) (AtomicOp, bool) {
	for i, n := range atomicNames {
		if n == name && n != "" {
			return AtomicOp(i), true
		}
	}
	return 0, false
}

// Operands is the number of value operands after the pointer: 0 for
// atomicLoad, 2 for atomicCompareExchangeWeak (compare, value), else 1.
func (o AtomicOp) Operands() int {
	switch o {
	case AtomicLoad:
		return 0
	case AtomicCompareExchangeWeak:
		return 2
	}
	return 1
}

// AtomicResultType is the result type of o on an atomic<elem>: void for
// atomicStore, the predeclared __atomic_compare_exchange_result<elem>
// struct for atomicCompareExchangeWeak, else elem.
func AtomicResultType(o AtomicOp, elem *Type) *Type {
	switch o {
	case AtomicStore:
		return Void
	case AtomicCompareExchangeWeak:
		return CmpXchgResult(elem)
	}
	return elem
}

var cmpXchgI32 = &StructDecl{Name: "__atomic_compare_exchange_result_i32",
	Fields: []Field{{Name: "old_value", Type: I32}, {Name: "exchanged", Type: Bool}}}
var cmpXchgU32 = &StructDecl{Name: "__atomic_compare_exchange_result_u32",
	Fields: []Field{{Name: "old_value", Type: U32}, {Name: "exchanged", Type: Bool}}}

// CmpXchgResult returns the predeclared result struct of
// atomicCompareExchangeWeak on atomic<elem> (WGSL
// #atomic-compare-exchange-weak): members old_value (elem) and exchanged
// (bool). It is not declared in any module and cannot be spelled in WGSL;
// IsPredeclaredStruct reports it.
func CmpXchgResult(elem *Type) *Type {
	if elem.Kind == KindI32 {
		return StructType(cmpXchgI32)
	}
	return StructType(cmpXchgU32)
}

// IsPredeclaredStruct reports whether s is a predeclared result struct
// (atomicCompareExchangeWeak's) rather than a module's declaration.
func IsPredeclaredStruct(s *StructDecl) bool {
	return s == cmpXchgI32 || s == cmpXchgU32 || splitResults[s.Name] == s
}

// splitResults holds the predeclared result structs of modf and frexp by
// name, made once so that each is one *StructDecl.
var splitResults = map[string]*StructDecl{}

func init() {
	for _, t := range []*Type{F32, Vec(2, F32), Vec(3, F32), Vec(4, F32), F16, Vec(2, F16), Vec(3, F16), Vec(4, F16)} {
		suffix, it := splitSuffix(t), I32
		if t.Kind == KindVec {
			it = Vec(t.Len, I32)
		}
		m := &StructDecl{Name: "__modf_result_" + suffix, Fields: []Field{{Name: "fract", Type: t}, {Name: "whole", Type: t}}}
		f := &StructDecl{Name: "__frexp_result_" + suffix, Fields: []Field{{Name: "fract", Type: t}, {Name: "exp", Type: it}}}
		splitResults[m.Name], splitResults[f.Name] = m, f
	}
}

// ModfResult returns the predeclared result struct of modf(T) (WGSL
// #modf-builtin): __modf_result_f32 or __modf_result_vecN_f32 (f16:
// __modf_result_f16, __modf_result_vecN_f16), members fract and whole of
// type T. Like CmpXchgResult it is declared in no
// module and cannot be spelled in WGSL.
func ModfResult(t *Type) *Type { return StructType(splitResults["__modf_result_"+splitSuffix(t)]) }

// FrexpResult returns the predeclared result struct of frexp(T) (WGSL
// #frexp-builtin): __frexp_result_f32 or __frexp_result_vecN_f32, members
// fract (T) and exp (i32 or vecN<i32>).
func FrexpResult(t *Type) *Type { return StructType(splitResults["__frexp_result_"+splitSuffix(t)]) }

func splitSuffix(t *Type) string {
	if t.Kind == KindVec {
		return fmt.Sprintf("vec%d_%s", t.Len, t.Elem)
	}
	return t.String()
}

// Atomic is an atomic builtin call (WGSL #atomic-builtin-functions):
// Args[0] is the pointer operand, a reference (an Ident/Index/Member
// chain rooted at a storage read_write or workgroup SharedVar) of type
// atomic<T>, written &Args[0] in WGSL; Args[1:] are its value operands
// (see AtomicOp.Operands), of type T. T is AtomicResultType(Op, T).
// Atomic operations are sequentially consistent in the reference and
// never race with each other.
type Atomic struct {
	Pos  Pos
	Op   AtomicOp
	Args []Expr
	T    *Type
}

// Ptr returns the pointer operand (the reference to the atomic).
func (e *Atomic) Ptr() Expr { return e.Args[0] }

// UniformLoadValue returns the load between the two barriers of
// workgroupUniformLoad(&R) b (BWorkgroupUniformLoad, WGSL
// #workgroupUniformLoad-builtin): R itself, or atomicLoad(&R) when R is an
// atomic<T> (the overload returning T; its load is atomic, as Tint lowers
// it). The reference and the SPIR-V emitter evaluate it between their
// barriers.
func UniformLoadValue(b *BuiltinCall) Expr {
	r := b.Args[0]
	if r.Type().Kind != KindAtomic {
		return r
	}
	return &Atomic{Pos: b.Pos, Op: AtomicLoad, Args: []Expr{r}, T: b.T}
}

// ArrayLength is arrayLength(&X) (WGSL #arrayLength-builtin): X is a
// reference to a runtime-sized array (a storage SharedVar of that type,
// or the last member of one); the result is a u32.
type ArrayLength struct {
	Pos Pos
	X   Expr
}

func (e *Atomic) Position() Pos      { return e.Pos }
func (e *ArrayLength) Position() Pos { return e.Pos }
func (e *Atomic) Type() *Type        { return e.T }
func (e *ArrayLength) Type() *Type   { return U32 }
func (*Atomic) exprNode()            {}
func (*ArrayLength) exprNode()       {}

// AtomicOf returns atomic<elem>; elem must be i32 or u32.
func AtomicOf(elem *Type) *Type {
	if !elem.IsInteger() {
		panic(fmt.Sprintf("ir.AtomicOf(%v): atomics hold i32 or u32", elem))
	}
	return &Type{Kind: KindAtomic, Elem: elem}
}

// RuntimeArrayOf returns array<elem> (runtime-sized).
func RuntimeArrayOf(elem *Type) *Type { return &Type{Kind: KindRuntimeArray, Elem: elem} }

// HasRuntimeArray reports whether t is a runtime-sized array or a struct
// whose last member is one.
func (t *Type) HasRuntimeArray() bool {
	switch {
	case t == nil:
		return false
	case t.Kind == KindRuntimeArray:
		return true
	case t.Kind == KindStruct && len(t.Struct.Fields) > 0:
		return t.Struct.Fields[len(t.Struct.Fields)-1].Type.Kind == KindRuntimeArray
	}
	return false
}

// HasAtomic reports whether t is or contains an atomic type.
func (t *Type) HasAtomic() bool {
	switch {
	case t == nil:
		return false
	case t.Kind == KindAtomic:
		return true
	case t.Kind == KindArray || t.Kind == KindRuntimeArray:
		return t.Elem.HasAtomic()
	case t.Kind == KindStruct:
		for _, f := range t.Struct.Fields {
			if f.Type.HasAtomic() {
				return true
			}
		}
	}
	return false
}
