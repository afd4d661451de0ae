package wgsl

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Constant values of const-expressions (WGSL #const-expr): AbstractInt in
// int64, AbstractFloat in float64, i32 and u32 in int64 (always in range),
// f32 in a float64 holding an exactly representable float32 value, f16 in
// a float64 holding an exactly representable binary16 value (const_f16.go),
// bool, and composites.

// cVal is a constant value of type t.
type cVal struct {
	t  *chkType
	i  int64
	f  float64
	b  bool
	el []cVal
}

// cvErr is a const-evaluation error message (a shader-creation error).
type cvErr string

func (e cvErr) Error() string { return string(e) }

func cvErrf(format string, args ...any) error { return cvErr(fmt.Sprintf(format, args...)) }

func cvInt(t *chkType, i int64) cVal     { return cVal{t: t, i: i} }
func cvFloat(t *chkType, f float64) cVal { return cVal{t: t, f: f} }
func cvBool(b bool) cVal                 { return cVal{t: chkBool, b: b} }

// cvZero returns the zero value of t (WGSL #zero-value-builtin-function).
func cvZero(t *chkType) cVal {
	switch t.k {
	case ckVec, ckArray, ckMat:
		el := make([]cVal, t.n)
		for i := range el {
			el[i] = cvZero(t.elem)
		}
		return cVal{t: t, el: el}
	case ckStruct:
		el := make([]cVal, len(t.st.Fields))
		for i, f := range t.st.Fields {
			el[i] = cvZero(chkFromIR(f.Type))
		}
		return cVal{t: t, el: el}
	}
	return cVal{t: t}
}

// toIR returns the ir value of a concrete constant.
func (v cVal) toIR() ir.Value {
	switch v.t.k {
	case ckBool:
		return ir.BoolVal(v.b)
	case ckI32:
		return ir.I32Val(int32(v.i))
	case ckU32:
		return ir.U32Val(uint32(v.i))
	case ckF32:
		return ir.F32Val(float32(v.f))
	case ckF16:
		return ir.F16Val(float32(v.f)) // exact: v.f is a binary16 value
	case ckVec, ckArray, ckStruct, ckMat:
		el := make([]ir.Value, len(v.el))
		for i, e := range v.el {
			el[i] = e.toIR()
		}
		return ir.CompositeVal(v.t.toIR(), el...)
	}
	panic(fmt.Sprintf("wgsl: toIR of constant of type %v", v.t))
}

// String prints a constant in WGSL-like notation for error messages.
func (v cVal) String() string {
	switch v.t.k {
	case ckBool:
		return strconv.FormatBool(v.b)
	case ckI32, ckAbsInt:
		return strconv.FormatInt(v.i, 10)
	case ckU32:
		return strconv.FormatInt(v.i, 10) + "u"
	case ckF32, ckAbsFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case ckF16:
		return strconv.FormatFloat(v.f, 'g', -1, 64) + "h"
	}
	parts := make([]string, len(v.el))
	for i, e := range v.el {
		parts[i] = e.String()
	}
	return v.t.String() + "(" + strings.Join(parts, ", ") + ")"
}

// ---- literals (WGSL #numeric-literals) ----

// cvLiteral returns the value of a numeric literal token, or an error
// message. f16 literals (suffix h) report f16 = true (the resolver
// requires `enable f16;` for them) and their value (cvF16Literal).
func cvLiteral(text string, kind lexKind) (v cVal, f16 bool, err error) {
	if kind == lexIntLit {
		suffix := byte(0)
		digits := text
		if c := text[len(text)-1]; c == 'i' || c == 'u' {
			suffix, digits = c, text[:len(text)-1]
		}
		n := new(big.Int)
		base := 10
		if strings.HasPrefix(digits, "0x") || strings.HasPrefix(digits, "0X") {
			base, digits = 16, digits[2:]
		}
		n.SetString(digits, base)
		switch suffix {
		case 'i':
			if n.Cmp(big.NewInt(math.MaxInt32)) > 0 {
				return v, false, cvErrf("literal %s cannot be represented as i32", text)
			}
			return cvInt(chkI32, n.Int64()), false, nil
		case 'u':
			if n.Cmp(big.NewInt(math.MaxUint32)) > 0 {
				return v, false, cvErrf("literal %s cannot be represented as u32", text)
			}
			return cvInt(chkU32, n.Int64()), false, nil
		}
		if !n.IsInt64() {
			return v, false, cvErrf("literal %s cannot be represented as AbstractInt (64-bit)", text)
		}
		return cvInt(chkAbsInt, n.Int64()), false, nil
	}
	hex := strings.HasPrefix(text, "0x") || strings.HasPrefix(text, "0X")
	body, suffix := text, byte(0)
	last := text[len(text)-1]
	if last == 'h' || last == 'f' && (!hex || strings.ContainsAny(text, "pP")) {
		body, suffix = text[:len(text)-1], last
	}
	if suffix == 'h' {
		f, err := cvF16Literal(text, body, hex)
		return cvFloat(chkF16, f), true, err
	}
	if hex && !strings.ContainsAny(body, "pP") {
		body += "p0"
	}
	f, perr := strconv.ParseFloat(body, 64)
	if perr != nil && !math.IsInf(f, 0) {
		return v, false, cvErrf("malformed float literal %s", text)
	}
	if math.IsInf(f, 0) {
		return v, false, cvErrf("literal %s is outside the finite range of AbstractFloat", text)
	}
	if suffix != 'f' {
		return cvFloat(chkAbsFloat, f), false, nil
	}
	if hex {
		if float64(float32(f)) != f || math.IsInf(float64(float32(f)), 0) {
			return v, false, cvErrf("literal %s cannot be exactly represented as f32", text)
		}
		return cvFloat(chkF32, f), false, nil
	}
	// A decimal f32 literal is the exact decimal value rounded to f32.
	f32, perr := strconv.ParseFloat(body, 32)
	if perr != nil || math.IsInf(f32, 0) {
		return v, false, cvErrf("literal %s overflows f32", text)
	}
	return cvFloat(chkF32, f32), false, nil
}

// ---- conversions ----

// cvF32 rounds x to f32 and reports an error when the result is not
// finite (WGSL finite math: a const-expression must not overflow).
func cvF32(x float64, what string) (float64, error) {
	r := float64(float32(x))
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return 0, cvErrf("%s: %g is outside the finite range of f32", what, x)
	}
	return r, nil
}

func cvAbsFloat(x float64, what string) (float64, error) {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, cvErrf("%s is not finite (AbstractFloat)", what)
	}
	return x, nil
}

// cvAuto applies the feasible automatic conversion of v to type to (WGSL
// #conversion-rank): AbstractInt to i32, u32, AbstractFloat, f32 or f16,
// and AbstractFloat to f32 or f16, component-wise. Values outside the destination
// range are errors.
func cvAuto(v cVal, to *chkType) (cVal, error) {
	if chkIdentical(v.t, to) {
		return v, nil
	}
	switch to.k {
	case ckVec, ckArray:
		el := make([]cVal, len(v.el))
		for i, e := range v.el {
			c, err := cvAuto(e, to.elem)
			if err != nil {
				return v, err
			}
			el[i] = c
		}
		return cVal{t: to, el: el}, nil
	}
	switch {
	case v.t.k == ckAbsInt && to.k == ckI32:
		if v.i < math.MinInt32 || v.i > math.MaxInt32 {
			return v, cvErrf("value %d cannot be represented as i32", v.i)
		}
		return cvInt(chkI32, v.i), nil
	case v.t.k == ckAbsInt && to.k == ckU32:
		if v.i < 0 || v.i > math.MaxUint32 {
			return v, cvErrf("value %d cannot be represented as u32", v.i)
		}
		return cvInt(chkU32, v.i), nil
	case v.t.k == ckAbsInt && to.k == ckAbsFloat:
		return cvFloat(chkAbsFloat, float64(v.i)), nil
	case v.t.k == ckAbsInt && to.k == ckF32:
		f, err := cvF32(float64(v.i), "conversion to f32")
		return cvFloat(chkF32, f), err
	case v.t.k == ckAbsFloat && to.k == ckF32:
		f, err := cvF32(v.f, "conversion to f32")
		return cvFloat(chkF32, f), err
	case (v.t.k == ckAbsInt || v.t.k == ckAbsFloat) && to.k == ckF16:
		x := v.f
		if v.t.k == ckAbsInt {
			x = float64(v.i)
		}
		f, err := cvF16(x, "conversion to f16")
		return cvFloat(chkF16, f), err
	}
	return v, cvErrf("cannot convert %v to %v", v.t, to)
}

// cvFloatToInt converts a float to an integer type by truncation and
// clamping to the values representable in both types (WGSL
// #floating-point-conversion): wgslsem.F32ToI32 and F32ToU32 for an f32
// source (srcF32), the whole i32 or u32 range for AbstractFloat. x is
// finite: a const-expression is never NaN or infinite.
func cvFloatToInt(x float64, to *chkType, srcF32 bool) int64 {
	switch {
	case srcF32 && to.k == ckU32:
		return int64(wgslsem.F32ToU32(x))
	case srcF32:
		return int64(wgslsem.F32ToI32(x))
	}
	lo, hi := float64(math.MinInt32), float64(math.MaxInt32)
	if to.k == ckU32 {
		lo, hi = 0, math.MaxUint32
	}
	t := math.Trunc(x)
	if t < lo {
		t = lo
	}
	if t > hi {
		t = hi
	}
	return int64(t)
}

// cvConvertScalar is the scalar value conversion of a value constructor
// (WGSL #bool-builtin, #i32-builtin, #u32-builtin, #f32-builtin,
// #f16-builtin). A value outside f16's finite range converted to f16 is
// a shader-creation error (WGSL #floating-point-conversion).
func cvConvertScalar(v cVal, to *chkType) (cVal, error) {
	if v.t.k == to.k {
		return v, nil
	}
	switch to.k {
	case ckBool:
		switch {
		case v.t.isInt():
			return cvBool(v.i != 0), nil
		case v.t.isFloat():
			return cvBool(v.f != 0), nil
		}
	case ckI32, ckU32:
		switch v.t.k {
		case ckBool:
			if v.b {
				return cvInt(to, 1), nil
			}
			return cvInt(to, 0), nil
		case ckI32:
			return cvInt(to, int64(uint32(int32(v.i)))), nil
		case ckU32:
			return cvInt(to, int64(int32(uint32(v.i)))), nil
		case ckAbsInt:
			return cvAuto(v, to)
		case ckF32, ckF16, ckAbsFloat:
			// An f16 is within ±65504: the whole-range clamp is the
			// clamp to values representable in both (WGSL
			// #floating-point-conversion).
			return cvInt(to, cvFloatToInt(v.f, to, v.t.k == ckF32)), nil
		}
	case ckF32:
		switch v.t.k {
		case ckBool:
			if v.b {
				return cvFloat(chkF32, 1), nil
			}
			return cvFloat(chkF32, 0), nil
		case ckI32, ckU32, ckAbsInt:
			f, err := cvF32(float64(v.i), "conversion to f32")
			return cvFloat(chkF32, f), err
		case ckAbsFloat:
			f, err := cvF32(v.f, "conversion to f32")
			return cvFloat(chkF32, f), err
		case ckF16:
			return cvFloat(chkF32, v.f), nil // exact
		}
	case ckF16:
		switch v.t.k {
		case ckBool:
			if v.b {
				return cvFloat(chkF16, 1), nil
			}
			return cvFloat(chkF16, 0), nil
		case ckI32, ckU32, ckAbsInt:
			f, err := cvF16(float64(v.i), "conversion to f16")
			return cvFloat(chkF16, f), err
		case ckF32, ckAbsFloat:
			f, err := cvF16(v.f, "conversion to f16")
			return cvFloat(chkF16, f), err
		}
	}
	return v, cvErrf("cannot convert %v to %v", v.t, to)
}

// cvConvert converts a scalar or vector component-wise (value
// constructor conversion to a type of the same shape).
func cvConvert(v cVal, to *chkType) (cVal, error) {
	if to.k == ckVec {
		el := make([]cVal, len(v.el))
		for i, e := range v.el {
			c, err := cvConvertScalar(e, to.elem)
			if err != nil {
				return v, err
			}
			el[i] = c
		}
		return cVal{t: to, el: el}, nil
	}
	return cvConvertScalar(v, to)
}

// cvSplat makes a vector of n copies of scalar s.
func cvSplat(s cVal, t *chkType) cVal {
	el := make([]cVal, t.n)
	for i := range el {
		el[i] = s
	}
	return cVal{t: t, el: el}
}

// cvComponents flattens the scalar components of scalars and vectors.
func cvComponents(v cVal) []cVal {
	if v.t.isScalar() {
		return []cVal{v}
	}
	return v.el
}

// cvBits returns the bit pattern of a concrete scalar (an f16's in the
// low 16 bits).
func cvBits(v cVal) uint32 {
	switch v.t.k {
	case ckF32:
		return math.Float32bits(float32(v.f))
	case ckF16:
		return ir.F16Val(float32(v.f)).Bits
	case ckBool:
		if v.b {
			return 1
		}
		return 0
	}
	return uint32(v.i)
}

// cvFromBits makes a scalar of type t from a bit pattern (an f16's in
// the low 16 bits).
func cvFromBits(t *chkType, bits uint32) (cVal, error) {
	switch t.k {
	case ckI32:
		return cvInt(t, int64(int32(bits))), nil
	case ckU32:
		return cvInt(t, int64(bits)), nil
	case ckF32:
		f := float64(math.Float32frombits(bits))
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return cVal{}, cvErrf("bitcast produces a non-finite f32 (0x%08x)", bits)
		}
		return cvFloat(t, f), nil
	case ckF16:
		f, finite, _ := wgslsem.F16ToF32(uint16(bits))
		if !finite {
			return cVal{}, cvErrf("bitcast produces a non-finite f16 (0x%04x)", uint16(bits))
		}
		return cvFloat(t, float64(f)), nil
	}
	return cVal{}, cvErrf("bitcast to %v", t)
}
