package wgsl

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// The checker's types: the subset's concrete types plus the abstract
// numeric types AbstractInt and AbstractFloat (WGSL #abstract-types) and
// vectors and arrays of them, which only const-expressions have. Types
// outside the subset never become chkTypes: resolving one reports the
// construct as outside the subset instead.

type chkKind uint8

const (
	ckVoid chkKind = iota
	ckBool
	ckI32
	ckU32
	ckF32
	ckF16 // f16, behind `enable f16;` (WGSL #extension-f16)
	ckAbsInt
	ckAbsFloat
	ckVec
	ckArray
	ckStruct
	ckAtomic       // atomic<T> (elem i32 or u32): storage and workgroup variables only
	ckRuntimeArray // array<T>: a storage variable's type or its struct's last member only
	ckMat          // matCxR<f32 or f16>: n = C columns, elem = vecR<f32 or f16> (never abstract)
	ckHandle       // a texture or sampler type: h is its ir type (check_texture.go)
)

// chkType is a checker type. Scalars are the package singletons; compare
// with chkIdentical.
type chkType struct {
	k    chkKind
	elem *chkType
	n    int
	st   *ir.StructDecl
	h    *ir.Type // ckHandle
}

var (
	chkVoid     = &chkType{k: ckVoid}
	chkBool     = &chkType{k: ckBool}
	chkI32      = &chkType{k: ckI32}
	chkU32      = &chkType{k: ckU32}
	chkF32      = &chkType{k: ckF32}
	chkF16      = &chkType{k: ckF16}
	chkAbsInt   = &chkType{k: ckAbsInt}
	chkAbsFloat = &chkType{k: ckAbsFloat}
)

func chkVec(n int, elem *chkType) *chkType   { return &chkType{k: ckVec, n: n, elem: elem} }
func chkArray(elem *chkType, n int) *chkType { return &chkType{k: ckArray, n: n, elem: elem} }

// chkMat returns matCxR<f32> (WGSL #matrix-types).
func chkMat(c, r int) *chkType { return chkMatOf(c, r, chkF32) }

// chkMatOf returns matCxR<elem>, elem f32 or f16 (WGSL #matrix-types).
func chkMatOf(c, r int, elem *chkType) *chkType {
	return &chkType{k: ckMat, n: c, elem: chkVec(r, elem)}
}

func (t *chkType) isScalar() bool { return t.k >= ckBool && t.k <= ckAbsFloat }
func (t *chkType) isInt() bool    { return t.k == ckI32 || t.k == ckU32 || t.k == ckAbsInt }
func (t *chkType) isFloat() bool  { return t.k == ckF32 || t.k == ckF16 || t.k == ckAbsFloat }

// leaf returns the scalar type of a scalar or vector, else nil.
func (t *chkType) leaf() *chkType {
	switch {
	case t.isScalar():
		return t
	case t.k == ckVec:
		return t.elem
	}
	return nil
}

// width is 1 for scalars, N for vectors, 0 otherwise.
func (t *chkType) width() int {
	switch {
	case t.isScalar():
		return 1
	case t.k == ckVec:
		return t.n
	}
	return 0
}

// isAbstract reports whether t is or contains an abstract numeric type.
func (t *chkType) isAbstract() bool {
	switch t.k {
	case ckAbsInt, ckAbsFloat:
		return true
	case ckVec, ckArray:
		return t.elem.isAbstract()
	}
	return false
}

// scalarOf returns the innermost scalar of a scalar, vector or (nested)
// array type, or nil for structs and void.
func (t *chkType) scalarOf() *chkType {
	for t.k == ckArray {
		t = t.elem
	}
	return t.leaf()
}

// withScalar returns t with its innermost scalar replaced by s.
func (t *chkType) withScalar(s *chkType) *chkType {
	switch t.k {
	case ckVec:
		return chkVec(t.n, s)
	case ckArray:
		return chkArray(t.elem.withScalar(s), t.n)
	}
	return s
}

func chkIdentical(a, b *chkType) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.k != b.k {
		return false
	}
	switch a.k {
	case ckVec, ckArray, ckMat:
		return a.n == b.n && chkIdentical(a.elem, b.elem)
	case ckAtomic, ckRuntimeArray:
		return chkIdentical(a.elem, b.elem)
	case ckStruct:
		return a.st == b.st
	case ckHandle:
		return ir.Identical(a.h, b.h)
	}
	return true
}

// chkSameShape reports whether a and b differ at most in their innermost
// scalar type.
func chkSameShape(a, b *chkType) bool {
	if a.isScalar() && b.isScalar() {
		return true
	}
	if a.k != b.k {
		return false
	}
	switch a.k {
	case ckVec:
		return a.n == b.n
	case ckArray, ckMat:
		return a.n == b.n && chkSameShape(a.elem, b.elem)
	case ckStruct:
		return a.st == b.st
	}
	return true
}

func (t *chkType) String() string {
	switch t.k {
	case ckVoid:
		return "void"
	case ckBool:
		return "bool"
	case ckI32:
		return "i32"
	case ckU32:
		return "u32"
	case ckF32:
		return "f32"
	case ckF16:
		return "f16"
	case ckAbsInt:
		return "AbstractInt"
	case ckAbsFloat:
		return "AbstractFloat"
	case ckVec:
		return fmt.Sprintf("vec%d<%s>", t.n, t.elem)
	case ckArray:
		return fmt.Sprintf("array<%s, %d>", t.elem, t.n)
	case ckMat:
		return fmt.Sprintf("mat%dx%d<%v>", t.n, t.elem.n, t.elem.elem)
	case ckStruct:
		return t.st.Name
	case ckAtomic:
		return fmt.Sprintf("atomic<%s>", t.elem)
	case ckRuntimeArray:
		return fmt.Sprintf("array<%s>", t.elem)
	case ckHandle:
		return t.h.String()
	}
	return "?"
}

// toIR returns the ir type of a concrete t. It panics on an abstract type
// (a broken invariant: callers concretize first).
func (t *chkType) toIR() *ir.Type {
	switch t.k {
	case ckVoid:
		return ir.Void
	case ckBool:
		return ir.Bool
	case ckI32:
		return ir.I32
	case ckU32:
		return ir.U32
	case ckF32:
		return ir.F32
	case ckF16:
		return ir.F16
	case ckVec:
		return ir.Vec(t.n, t.elem.toIR())
	case ckArray:
		return ir.ArrayOf(t.elem.toIR(), t.n)
	case ckMat:
		return ir.MatOf(t.n, t.elem.n, t.elem.elem.toIR())
	case ckStruct:
		return ir.StructType(t.st)
	case ckAtomic:
		return ir.AtomicOf(t.elem.toIR())
	case ckRuntimeArray:
		return ir.RuntimeArrayOf(t.elem.toIR())
	case ckHandle:
		return t.h
	}
	panic(fmt.Sprintf("wgsl: toIR of %v", t))
}

// chkMaxComponents bounds the number of scalar components of a value
// gpudiff makes per invocation — a function-scope or private variable, a
// let, a parameter, a result, a constructed or constant value
// (chkCtx.valueLimit) — which keeps the reference's per-invocation memory,
// constant values, zero values and kernel ABI records small. Bindings are
// bounded by WebGPU's limits instead (chkCtx.bindingLimit).
const chkMaxComponents = 1 << 16

// WebGPU's default limits (WebGPU §3.6.2 "Limits"), which every adapter
// supports and a device gets unless it asks for more: the largest storage
// and uniform buffer binding and the workgroup storage of a compute
// pipeline, in bytes.
const (
	maxStorageBufferBindingSize    = 134217728
	maxUniformBufferBindingSize    = 65536
	maxComputeWorkgroupStorageSize = 16384
)

// chkMaxTypeComponents bounds the scalar components of any type: each is
// at least 4 bytes, so a type with more is larger than the largest
// binding (maxStorageBufferBindingSize) and, being more than
// chkMaxComponents, than any value gpudiff makes.
const chkMaxTypeComponents = maxStorageBufferBindingSize / 4

// components returns the number of scalar components of t.
func (t *chkType) components() int {
	switch t.k {
	case ckVec, ckArray, ckMat:
		return t.n * t.elem.components()
	case ckStruct:
		n := 0
		for _, f := range t.st.Fields {
			n += chkFromIR(f.Type).components()
		}
		return n
	}
	return 1
}

// chkFromIR returns the checker type of an ir type.
func chkFromIR(t *ir.Type) *chkType {
	switch t.Kind {
	case ir.KindBool:
		return chkBool
	case ir.KindI32:
		return chkI32
	case ir.KindU32:
		return chkU32
	case ir.KindF32:
		return chkF32
	case ir.KindF16:
		return chkF16
	case ir.KindVec:
		return chkVec(t.Len, chkFromIR(t.Elem))
	case ir.KindArray:
		return chkArray(chkFromIR(t.Elem), t.Len)
	case ir.KindMat:
		return chkMatOf(t.Len, t.Rows(), chkFromIR(t.Elem.Elem))
	case ir.KindStruct:
		return &chkType{k: ckStruct, st: t.Struct}
	case ir.KindAtomic:
		return &chkType{k: ckAtomic, elem: chkFromIR(t.Elem)}
	case ir.KindRuntimeArray:
		return &chkType{k: ckRuntimeArray, elem: chkFromIR(t.Elem)}
	case ir.KindTexture, ir.KindSampler:
		return &chkType{k: ckHandle, h: t}
	}
	return chkVoid
}

// concretize returns the concretization of t (WGSL #concretization):
// AbstractInt becomes i32 and AbstractFloat f32, inside vectors and arrays.
func (t *chkType) concretize() *chkType {
	switch t.k {
	case ckAbsInt:
		return chkI32
	case ckAbsFloat:
		return chkF32
	case ckVec:
		if t.elem.isAbstract() {
			return chkVec(t.n, t.elem.concretize())
		}
	case ckArray:
		if t.elem.isAbstract() {
			return chkArray(t.elem.concretize(), t.n)
		}
	}
	return t
}

// chkConvRank is WGSL's ConversionRank for scalars (WGSL #conversion-rank);
// -1 means infeasible.
func chkConvRank(from, to *chkType) int {
	if from.k == to.k {
		return 0
	}
	switch from.k {
	case ckAbsFloat:
		switch to.k {
		case ckF32:
			return 1
		case ckF16:
			return 2
		}
	case ckAbsInt:
		switch to.k {
		case ckI32:
			return 3
		case ckU32:
			return 4
		case ckAbsFloat:
			return 5
		case ckF32:
			return 6
		case ckF16:
			return 7
		}
	}
	return -1
}

// chkAutoConvertible reports whether a value of type from automatically
// converts to type to (feasible automatic conversion, component-wise for
// vectors and arrays).
func chkAutoConvertible(from, to *chkType) bool {
	if chkIdentical(from, to) {
		return true
	}
	if !chkSameShape(from, to) || from.k == ckStruct {
		return false
	}
	fs, ts := from.scalarOf(), to.scalarOf()
	return fs != nil && ts != nil && chkConvRank(fs, ts) >= 0
}

// chkScalarByName maps the predeclared scalar type names of the subset.
// (f16 needs `enable f16;`, which the resolver checks).
var chkScalarByName = map[string]*chkType{"bool": chkBool, "i32": chkI32, "u32": chkU32, "f32": chkF32, "f16": chkF16}

// chkVecAliases maps the predeclared vector aliases (WGSL #vector-types)
// to their dimension and element type name.
var chkVecAliases = func() map[string]struct {
	n    int
	elem string
} {
	m := map[string]struct {
		n    int
		elem string
	}{}
	for n := 2; n <= 4; n++ {
		for suffix, elem := range map[string]string{"i": "i32", "u": "u32", "f": "f32", "h": "f16"} {
			m[fmt.Sprintf("vec%d%s", n, suffix)] = struct {
				n    int
				elem string
			}{n, elem}
		}
	}
	return m
}()

// chkIsMatrixName reports whether name is a matrix type-generator or a
// predeclared matrix alias (mat2x3, mat4x4f, mat3x2h).
func chkIsMatrixName(name string) bool {
	if len(name) < 6 || name[:3] != "mat" || name[4] != 'x' {
		return false
	}
	c, r := name[3], name[5]
	if c < '2' || c > '4' || r < '2' || r > '4' {
		return false
	}
	return len(name) == 6 || len(name) == 7 && (name[6] == 'f' || name[6] == 'h')
}

// toIRMaybe returns the ir type of t, or nil for void and abstract types.
func (t *chkType) toIRMaybe() *ir.Type {
	if t == nil || t.k == ckVoid || t.isAbstract() {
		return nil
	}
	return t.toIR()
}
