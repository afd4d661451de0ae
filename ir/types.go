package ir

import (
	"fmt"
	"strings"
)

// Kind classifies a Type.
type Kind uint8

const (
	KindVoid Kind = iota
	KindBool
	KindI32
	KindU32
	KindF32
	KindVec    // vecN<T>, N in 2..4, T a scalar
	KindArray  // array<T, N>, N ≥ 1 (fixed size)
	KindStruct // a named struct
	// KindAtomic is atomic<T>, T i32 or u32 (Elem), only in storage
	// (read_write) and workgroup variables (WGSL #atomic-types).
	KindAtomic
	// KindRuntimeArray is array<T> (Elem), only as a storage variable's
	// type or its struct's last member (WGSL #array-types).
	KindRuntimeArray
	// KindMat is matCxR<f32> (WGSL #matrix-types): Len = C columns, each an
	// Elem = vecR<f32>, column-major. It behaves as a composite of its
	// columns (indexing, zero value, memory layout: WGSL #alignment-and-size
	// gives it vecR's alignment and C * roundUp(align, sizeof(vecR)) bytes,
	// exactly array<vecR<f32>, C>'s storage layout).
	KindMat
	// KindTexture and KindSampler are the handle types of textures and
	// samplers (Tex describes them; texture.go).
	KindTexture
	KindSampler
	// KindF16 is f16, IEEE 754 binary16 (WGSL #floating-point-types),
	// behind `enable f16;` (WGSL #extension-f16). A value keeps its
	// binary16 bits in the low 16 bits of Value.Bits. Appended so the
	// other kinds keep their numbers.
	KindF16
)

// Type is a concrete WGSL type of the subset: void (function results only),
// bool, i32, u32, f32, f16, vecN<T>, matCxR<f32 or f16>, fixed-size
// arrays and named structs.
// Types are compared with Identical, never with ==; the scalar types are
// the package-level singletons Bool, I32, U32, F32 and F16.
type Type struct {
	Kind   Kind
	Elem   *Type        // KindVec, KindArray: element type; KindMat: the column type vecR<f32>
	Len    int          // KindVec: 2..4; KindArray: element count; KindMat: columns C (2..4)
	Struct *StructDecl  // KindStruct
	Tex    *TextureType // KindTexture, KindSampler (texture.go)
}

// The void and scalar types.
var (
	Void = &Type{Kind: KindVoid}
	Bool = &Type{Kind: KindBool}
	I32  = &Type{Kind: KindI32}
	U32  = &Type{Kind: KindU32}
	F32  = &Type{Kind: KindF32}
	F16  = &Type{Kind: KindF16}
)

// Vec returns vecN<elem>. It panics unless 2 ≤ n ≤ 4 and elem is a scalar
// (a broken invariant, not a user error: front ends check first).
func Vec(n int, elem *Type) *Type {
	if n < 2 || n > 4 || !elem.IsScalar() {
		panic(fmt.Sprintf("ir.Vec(%d, %v): invalid vector type", n, elem))
	}
	return &Type{Kind: KindVec, Elem: elem, Len: n}
}

// Mat returns matCxR<f32>: c columns of vecR<f32> (WGSL #matrix-types).
// It panics unless 2 ≤ c, r ≤ 4 (front ends check first).
func Mat(c, r int) *Type { return MatOf(c, r, F32) }

// MatOf returns matCxR<elem>, elem f32 or f16: c columns of vecR<elem>
// (WGSL #matrix-types). It panics unless 2 ≤ c, r ≤ 4 and elem is a
// float scalar (front ends check first).
func MatOf(c, r int, elem *Type) *Type {
	if c < 2 || c > 4 || r < 2 || r > 4 || !elem.IsFloat() {
		panic(fmt.Sprintf("ir.MatOf(%d, %d, %v): invalid matrix type", c, r, elem))
	}
	return &Type{Kind: KindMat, Elem: Vec(r, elem), Len: c}
}

// IsMat reports whether t is a matrix type.
func (t *Type) IsMat() bool { return t != nil && t.Kind == KindMat }

// Rows returns R of matCxR (the column vector's width).
func (t *Type) Rows() int { return t.Elem.Len }

// ArrayOf returns array<elem, n>; n must be ≥ 1.
func ArrayOf(elem *Type, n int) *Type {
	if n < 1 {
		panic(fmt.Sprintf("ir.ArrayOf(%v, %d): invalid array length", elem, n))
	}
	return &Type{Kind: KindArray, Elem: elem, Len: n}
}

// StructType returns the type of the struct declaration s.
func StructType(s *StructDecl) *Type { return &Type{Kind: KindStruct, Struct: s} }

// IsScalar reports whether t is bool, i32, u32, f32 or f16.
func (t *Type) IsScalar() bool {
	return t != nil && (t.Kind == KindBool || t.Kind == KindI32 || t.Kind == KindU32 || t.Kind == KindF32 || t.Kind == KindF16)
}

// IsFloat reports whether t is one of the float scalars, f32 or f16
// (not a vector: t.Scalar().IsFloat() for those).
func (t *Type) IsFloat() bool { return t != nil && (t.Kind == KindF32 || t.Kind == KindF16) }

// HasF16 reports whether t is f16 or contains it (vectors, matrices,
// arrays, struct fields, atomics aside): the types that need `enable f16;`
// and the shader-f16 feature (WGSL #extension-f16).
func (t *Type) HasF16() bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case KindF16:
		return true
	case KindVec, KindArray, KindMat, KindRuntimeArray:
		return t.Elem.HasF16()
	case KindStruct:
		for _, f := range t.Struct.Fields {
			if f.Type.HasF16() {
				return true
			}
		}
	}
	return false
}

// IsInteger reports whether t is i32 or u32.
func (t *Type) IsInteger() bool { return t != nil && (t.Kind == KindI32 || t.Kind == KindU32) }

// IsVoid reports whether t is nil or void.
func (t *Type) IsVoid() bool { return t == nil || t.Kind == KindVoid }

// Scalar returns the scalar type of t's components: t itself for scalars,
// the element type for vectors, nil otherwise.
func (t *Type) Scalar() *Type {
	switch {
	case t.IsScalar():
		return t
	case t != nil && t.Kind == KindVec:
		return t.Elem
	}
	return nil
}

// IsNumericScalarOrVec reports whether t is i32/u32/f32 or a vector of them.
func (t *Type) IsNumericScalarOrVec() bool {
	s := t.Scalar()
	return s != nil && s.Kind != KindBool
}

// Width returns the component count: 1 for scalars, N for vectors, 0 otherwise.
func (t *Type) Width() int {
	switch {
	case t.IsScalar():
		return 1
	case t != nil && t.Kind == KindVec:
		return t.Len
	}
	return 0
}

// WithScalar returns t's shape (scalar or vecN) with component type s.
func (t *Type) WithScalar(s *Type) *Type {
	if t.Kind == KindVec {
		return Vec(t.Len, s)
	}
	return s
}

// IsConstructible reports whether values of t can be created, copied and
// selected: every type of the subset except void, atomics, runtime-sized
// arrays and what contains them.
func (t *Type) IsConstructible() bool {
	return t != nil && t.Kind != KindVoid && !t.HasAtomic() && !t.HasRuntimeArray() && !t.IsHandle()
}

// Identical reports whether a and b denote the same type. Structs are
// nominal: two struct types are identical when their declarations are the
// same declaration or have the same name.
func Identical(a, b *Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return a.IsVoid() && b.IsVoid()
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KindVec, KindArray, KindMat:
		return a.Len == b.Len && Identical(a.Elem, b.Elem)
	case KindAtomic, KindRuntimeArray:
		return Identical(a.Elem, b.Elem)
	case KindStruct:
		return a.Struct == b.Struct || a.Struct.Name == b.Struct.Name
	case KindTexture, KindSampler:
		return identicalTex(a.Tex, b.Tex)
	}
	return true
}

// String returns the WGSL spelling of t (vec3<f32>, array<i32, 4>, S).
func (t *Type) String() string {
	if t == nil {
		return "void"
	}
	switch t.Kind {
	case KindVoid:
		return "void"
	case KindBool:
		return "bool"
	case KindI32:
		return "i32"
	case KindU32:
		return "u32"
	case KindF32:
		return "f32"
	case KindF16:
		return "f16"
	case KindVec:
		return fmt.Sprintf("vec%d<%s>", t.Len, t.Elem)
	case KindArray:
		return fmt.Sprintf("array<%s, %d>", t.Elem, t.Len)
	case KindMat:
		return fmt.Sprintf("mat%dx%d<%s>", t.Len, t.Elem.Len, t.Elem.Elem)
	case KindStruct:
		return t.Struct.Name
	case KindAtomic:
		return fmt.Sprintf("atomic<%s>", t.Elem)
	case KindRuntimeArray:
		return fmt.Sprintf("array<%s>", t.Elem)
	case KindTexture, KindSampler:
		return textureString(t)
	}
	return fmt.Sprintf("<bad type kind %d>", t.Kind)
}

// StructDecl declares a named struct type (WGSL §6.2.10).
type StructDecl struct {
	Pos    Pos
	Name   string
	Fields []Field
}

// Field is one member of a struct. Builtin names the builtin value
// (InvocationBuiltins, FragmentBuiltins, VertexBuiltins) the member
// receives or, in a vertex entry point's result, gives ("position"), else
// "". HasLocation and Location give the member's @location(Location) when
// the struct is entry-point IO: a fragment entry point's result (one
// colour attachment per member), a vertex attribute, a varying (WGSL
// #input-output-locations); Interp is a varying's @interpolate (WGSL
// #interpolation), zero where none is written.
// Align and Size are the member's @align(n) and @size(n) (WGSL
// #structure-member-layout), 0 where not written: they set the member's
// alignment and byte size in every layout (MemberAlign, MemberSize).
type Field struct {
	Pos         Pos
	Name        string
	Type        *Type
	Builtin     string
	HasLocation bool
	Location    int
	Interp      Interpolation
	Align, Size int
}

// FieldIndex returns the index of the named field, or -1.
func (s *StructDecl) FieldIndex(name string) int {
	for i, f := range s.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// ComponentTypes flattens t into its leaf scalar types in memory order
// (vectors component by component, arrays element by element, structs field
// by field).
func (t *Type) ComponentTypes() []*Type {
	var out []*Type
	var rec func(*Type)
	rec = func(t *Type) {
		switch t.Kind {
		case KindBool, KindI32, KindU32, KindF32, KindF16:
			out = append(out, t)
		case KindVec:
			for i := 0; i < t.Len; i++ {
				out = append(out, t.Elem)
			}
		case KindAtomic:
			out = append(out, t.Elem)
		case KindArray, KindMat:
			for i := 0; i < t.Len; i++ {
				rec(t.Elem)
			}
		case KindStruct:
			for _, f := range t.Struct.Fields {
				rec(f.Type)
			}
		}
	}
	rec(t)
	return out
}

// describe is a short human description used in error messages.
func describe(ts []*Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}
