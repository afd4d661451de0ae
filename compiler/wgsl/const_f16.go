package wgsl

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// f16 constants (WGSL #extension-f16, #floating-point-evaluation): a
// const-expression of type f16 is evaluated in float64 and rounded once
// to binary16. The float64 result of +, -, * of two binary16 values is
// exact (11-bit significands, exponents in [-24, 15]); of / and sqrt it is
// rounded to 53 bits, and rounding that again to 11 bits gives the
// correctly rounded binary16 result (53 ≥ 2·11 + 2: double rounding is
// innocuous), so these are correctly rounded, which WGSL's accuracy
// allows for every f16 operation. A result outside binary16's finite
// range [-65504, 65504] before rounding is a shader-creation error, as
// WGSL makes a conversion of such a value to f16 in a const-expression
// (#floating-point-conversion) and as Tint reports it.

// f16Max is the largest finite binary16 value, (2 − 2⁻¹⁰)·2¹⁵.
const f16Max = 65504

// roundF16 rounds x to the nearest binary16 value, ties to even (IEEE 754
// roundTiesToEven); x is finite and |x| ≤ f16Max. Subnormal results keep
// their spacing of 2⁻²⁴.
func roundF16(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	_, e := math.Frexp(x) // |x| in [2^(e-1), 2^e)
	ulpExp := max(e-1, -14) - 10
	ulp := math.Ldexp(1, ulpExp)
	return math.RoundToEven(x/ulp) * ulp
}

// cvF16 rounds x to f16 and reports an error when x lies outside the
// finite range of f16 (what names the operation).
func cvF16(x float64, what string) (float64, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > f16Max {
		return 0, cvErrf("%s: %g is outside the finite range of f16 (±65504)", what, x)
	}
	return roundF16(x), nil
}

// cvF16Literal is the value of an f16 literal's body (the suffix h
// removed; WGSL #numeric-literals): a decimal literal is its exact decimal
// value rounded to f16 (the float64 parse is exact or, if not, rounded
// away from a binary16 midpoint unless the decimal is itself one, which
// big.Rat decides); a hexadecimal one must be exactly representable.
func cvF16Literal(text, body string, hex bool) (float64, error) {
	f, err := parseFloatBody(body, hex)
	if err != nil {
		return 0, cvErrf("malformed float literal %s", text)
	}
	if math.IsInf(f, 0) || math.Abs(f) > f16Max {
		return 0, cvErrf("literal %s is outside the finite range of f16 (±65504)", text)
	}
	r := roundF16(f)
	if hex {
		if r != f {
			return 0, cvErrf("literal %s cannot be exactly represented as f16", text)
		}
		return r, nil
	}
	if d := r - f; d != 0 && math.Abs(d) == f16HalfULP(f) {
		// f is exactly a midpoint in float64: the decimal may lie just
		// off it, which decides the rounding (ties to even otherwise).
		if q, ok := new(big.Rat).SetString(body); ok {
			if c := q.Cmp(new(big.Rat).SetFloat64(f)); c != 0 {
				lo, hi := f-f16HalfULP(f), f+f16HalfULP(f)
				if c < 0 {
					r = lo
				} else {
					r = hi
				}
			}
		}
	}
	return r, nil
}

// f16HalfULP is half the spacing of binary16 values around x.
func f16HalfULP(x float64) float64 {
	_, e := math.Frexp(x)
	return math.Ldexp(1, max(e-1, -14)-11)
}

// parseFloatBody parses a float literal's digits (no suffix) as float64.
func parseFloatBody(body string, hex bool) (float64, error) {
	if hex && !strings.ContainsAny(body, "pP") {
		body += "p0"
	}
	f, err := strconv.ParseFloat(body, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, err
	}
	return f, nil
}

// cvBitcast is bitcast<t>(v) of a constant (WGSL #bitcast-builtin): the
// components' bit patterns, 16 bits each for f16 and 32 for the other
// scalars, concatenated from component 0 in the low bits up (the
// little-endian memory order Tint and naga give vec2<f16> ↔ u32) and cut
// into t's components. A non-finite float result is a shader-creation
// error (a const-expression is finite).
func cvBitcast(v cVal, t *chkType) (cVal, error) {
	var acc uint64
	shift := 0
	for _, s := range cvComponents(v) {
		w := cvBitWidth(s.t)
		acc |= (uint64(cvBits(s)) & (1<<w - 1)) << shift
		shift += w
	}
	leaf := t.leaf()
	w := cvBitWidth(leaf)
	el := make([]cVal, t.width())
	for i := range el {
		bits := uint32(acc >> (i * w) & (1<<w - 1))
		c, err := cvFromBits(leaf, bits)
		if err != nil {
			return cVal{}, err
		}
		el[i] = c
	}
	if t.isScalar() {
		return el[0], nil
	}
	return cVal{t: t, el: el}, nil
}

// cvBitWidth is the bit width of a concrete scalar type: 16 for f16, 32
// for the others.
func cvBitWidth(t *chkType) int {
	if t.k == ckF16 {
		return 16
	}
	return 32
}

// f16Bias is binary16's exponent bias (WGSL #ldexp-builtin: an exponent
// e2 > bias + 1 = 16 is a shader-creation error for f16).
const f16Bias = 15
