package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Value is a typed WGSL value of the subset. Scalars keep their bit pattern
// in Bits (bool: 0 or 1; i32: two's complement; u32; f32: IEEE-754 binary32
// bits; f16: binary16 bits in the low 16), so equality is exact and NaN
// payloads survive. Vectors, arrays and
// structs keep their components in Elems, in declaration order.
type Value struct {
	Type  *Type
	Bits  uint32
	Elems []Value
}

// BoolVal, I32Val, U32Val and F32Val make scalar values.
func BoolVal(b bool) Value {
	if b {
		return Value{Type: Bool, Bits: 1}
	}
	return Value{Type: Bool}
}

// I32Val makes an i32 value.
func I32Val(v int32) Value { return Value{Type: I32, Bits: uint32(v)} }

// U32Val makes a u32 value.
func U32Val(v uint32) Value { return Value{Type: U32, Bits: v} }

// F32Val makes an f32 value.
func F32Val(v float32) Value { return Value{Type: F32, Bits: math.Float32bits(v)} }

// F16Val makes the f16 nearest f (round to nearest even, WGSL
// #floating-point-conversion's choice for the reference; beyond ±65504 it
// rounds to ±65504 below 65520 and to infinity from there).
func F16Val(f float32) Value {
	h, _, _ := wgslsem.F32ToF16(f)
	return Value{Type: F16, Bits: uint32(h)}
}

// F16Bits makes an f16 value from its binary16 bits.
func F16Bits(h uint16) Value { return Value{Type: F16, Bits: uint32(h)} }

// ScalarVal makes a scalar of type t from raw bits.
func ScalarVal(t *Type, bits uint32) Value { return Value{Type: t, Bits: bits} }

// CompositeVal makes a vector, array or struct value from its components.
func CompositeVal(t *Type, elems ...Value) Value { return Value{Type: t, Elems: elems} }

// Zero returns the zero value of t (WGSL §6.6 zero values).
func Zero(t *Type) Value {
	switch t.Kind {
	case KindVec, KindArray, KindMat:
		es := make([]Value, t.Len)
		for i := range es {
			es[i] = Zero(t.Elem)
		}
		return Value{Type: t, Elems: es}
	case KindStruct:
		es := make([]Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = Zero(f.Type)
		}
		return Value{Type: t, Elems: es}
	}
	return Value{Type: t}
}

// ZeroBinding is the zero value of a storage, uniform or workgroup
// variable's type t in the shape bindings are passed in (interp's
// dispatch, check's entry cases, ir.BindingBytes): an atomic as its
// scalar, a runtime-sized array empty (length 0), everything else as
// Zero.
func ZeroBinding(t *Type) Value {
	switch t.Kind {
	case KindRuntimeArray:
		return Value{Type: t}
	case KindAtomic:
		return Zero(t.Elem)
	case KindStruct:
		es := make([]Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = ZeroBinding(f.Type)
		}
		return Value{Type: t, Elems: es}
	case KindArray, KindMat:
		es := make([]Value, t.Len)
		for i := range es {
			es[i] = ZeroBinding(t.Elem)
		}
		return Value{Type: t, Elems: es}
	}
	return Zero(t)
}

// Bool returns a bool scalar's value.
func (v Value) Bool() bool { return v.Bits != 0 }

// I32 returns an i32 scalar's value.
func (v Value) I32() int32 { return int32(v.Bits) }

// U32 returns a u32 scalar's value.
func (v Value) U32() uint32 { return v.Bits }

// F32 returns an f32 scalar's value.
func (v Value) F32() float32 { return math.Float32frombits(v.Bits) }

// F16 returns an f16 scalar's value, exactly, as an f32.
func (v Value) F16() float32 { f, _, _ := wgslsem.F16ToF32(uint16(v.Bits)); return f }

// Float returns a float scalar's value (f32 or f16) as a float64,
// exactly.
func (v Value) Float() float64 {
	if v.Type.Kind == KindF16 {
		return float64(v.F16())
	}
	return float64(v.F32())
}

// Int64 returns an integer scalar's value widened to int64 (i32 sign-
// extended, u32 zero-extended).
func (v Value) Int64() int64 {
	if v.Type.Kind == KindI32 {
		return int64(int32(v.Bits))
	}
	return int64(v.Bits)
}

// Equal reports whether a and b have identical types and identical bits in
// every component (so +0 and -0 differ, and a NaN equals the same NaN).
func Equal(a, b Value) bool {
	if !Identical(a.Type, b.Type) || a.Bits != b.Bits || len(a.Elems) != len(b.Elems) {
		return false
	}
	for i := range a.Elems {
		if !Equal(a.Elems[i], b.Elems[i]) {
			return false
		}
	}
	return true
}

// Clone returns a deep copy of v.
func (v Value) Clone() Value {
	if v.Elems == nil {
		return v
	}
	es := make([]Value, len(v.Elems))
	for i, e := range v.Elems {
		es[i] = e.Clone()
	}
	return Value{Type: v.Type, Bits: v.Bits, Elems: es}
}

// IsScalarZero reports whether v is a scalar with all bits zero (false, 0,
// 0u, +0.0f).
func (v Value) IsScalarZero() bool { return v.Type.IsScalar() && v.Bits == 0 }

// String returns v as a WGSL expression with concrete types everywhere:
// typed literals (1i, 2u, 1.5f), typed constructors (vec3<f32>(…), S(…),
// array<i32, 2>(…)). i32's minimum prints as i32(-2147483648) since
// -2147483648i is not a valid WGSL literal. Non-finite f32 values have no
// WGSL literal; they print as bitcast<f32>(0x…u), which WGSL rejects as a
// const-expression, so producers must not create them as constants.
func (v Value) String() string {
	var b strings.Builder
	v.write(&b)
	return b.String()
}

func (v Value) write(b *strings.Builder) {
	switch v.Type.Kind {
	case KindBool:
		if v.Bits != 0 {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindI32:
		if int32(v.Bits) == math.MinInt32 {
			b.WriteString("i32(-2147483648)")
		} else {
			b.WriteString(strconv.FormatInt(int64(int32(v.Bits)), 10))
			b.WriteByte('i')
		}
	case KindU32:
		b.WriteString(strconv.FormatUint(uint64(v.Bits), 10))
		b.WriteByte('u')
	case KindF32:
		b.WriteString(FormatF32(v.F32()))
	case KindF16:
		b.WriteString(FormatF16(uint16(v.Bits)))
	case KindVec, KindArray, KindStruct, KindMat:
		b.WriteString(v.Type.String())
		b.WriteByte('(')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b)
		}
		b.WriteByte(')')
	default:
		fmt.Fprintf(b, "<bad value of %v>", v.Type)
	}
}

// FormatF32 prints f as a WGSL f32 literal: the shortest decimal that
// round-trips the float32, always with a '.' or exponent and the f suffix
// (1.0f, -0.5f, 1e+20f). Non-finite values print as bitcast<f32>(0x…u).
func FormatF32(f float32) string {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return fmt.Sprintf("bitcast<f32>(0x%08xu)", math.Float32bits(f))
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if d, _ := strconv.ParseFloat(s, 64); math.Abs(d) > math.MaxFloat32 {
		// The shortest decimal of ±0x1.fffffep+127 (3.4028235e+38) lies
		// beyond the largest f32, and Tint refuses it ("value cannot be
		// represented as 'f32'", WGSL #floating-point-conversion of a
		// const-expression): the exact hexadecimal literal instead.
		s = strconv.FormatFloat(float64(f), 'x', -1, 32)
	}
	if !strings.ContainsAny(s, ".eEnxX") {
		s += ".0"
	}
	return s + "f"
}

// FormatF16 prints binary16 bits h as a WGSL f16 literal: the shortest
// decimal that round-trips the value as a float64 (every binary16 value
// is one, and the nearest binary16 to that decimal is h), with a '.' or
// exponent and the h suffix (1.0h, 0.0999755859375h). Non-finite values
// print as bitcast<vec2<f16>>(0x…u).x (WGSL has no f16 bitcast from a
// 16-bit integer).
func FormatF16(h uint16) string {
	f, finite, _ := wgslsem.F16ToF32(h)
	if !finite {
		return fmt.Sprintf("bitcast<vec2<f16>>(0x%04xu).x", h)
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s + "h"
}

// FormatF32JSON prints f as the shortest decimal that round-trips the
// float32 (no suffix), as used in JSON reports. Non-finite values have no
// JSON number; callers report them as indeterminate.
func FormatF32JSON(f float32) string {
	return strconv.FormatFloat(float64(f), 'g', -1, 32)
}
