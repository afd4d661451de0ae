package wgslsem

import "math"

// Fault says why an operation whose operands are const-expressions is a
// shader-creation error in WGSL (WGSL §8.1.1 const Expressions,
// #const-expr, and the sections each constant names); NoFault when it is
// not. The same rule, with override-expressions, is a pipeline-creation
// error. Faults are the spec's; what a stage does about one (report it,
// refuse to fold) is its own policy.
type Fault uint8

const (
	// NoFault: the operation is valid with these const-expression
	// operands.
	NoFault Fault = iota
	// ZeroDivisor: an integer e1 / e2 or e1 % e2 with e2 zero (WGSL §8.7
	// Arithmetic Expressions, #arithmetic-expr).
	ZeroDivisor
	// DivOverflow: i32 e1 / e2 or e1 % e2 with e1 the most negative value
	// and e2 -1 (WGSL §8.7).
	DivOverflow
	// ShiftCount: a shift count e2 ≥ 32, the bit width of i32 and u32
	// (WGSL §8.9 Bit Expressions, #bit-expr); it needs only e2 constant.
	ShiftCount
	// ShiftOverflow: a concrete e1 << e2, both constant, that loses bits:
	// for i32 the e2+1 most significant bits of e1 differ, for u32 one of
	// the e2 most significant bits of e1 is 1 (WGSL §8.9).
	ShiftOverflow
	// BitRange: extractBits or insertBits with offset + count > 32 (WGSL
	// §17.5.25, §17.5.26 extractBits, §17.5.35 insertBits).
	BitRange
	// ClampRange: clamp with low > high (WGSL §17.5.10 clamp, #clamp).
	ClampRange
	// LdexpExponent: ldexp(e1, e2) with e2 greater than the exponent
	// bias + 1 of e1's type (128 for f32; WGSL #ldexp-builtin); it needs
	// only e2 constant.
	LdexpExponent
)

var faultNames = [...]string{
	NoFault:       "no fault",
	ZeroDivisor:   "zero divisor",
	DivOverflow:   "division overflow",
	ShiftCount:    "shift count not less than 32",
	ShiftOverflow: "left shift overflow",
	BitRange:      "offset + count greater than 32",
	ClampRange:    "low greater than high",
	LdexpExponent: "ldexp exponent greater than bias + 1",
}

// String names the fault, e.g. "zero divisor".
func (f Fault) String() string {
	if int(f) < len(faultNames) {
		return faultNames[f]
	}
	return "Fault(?)"
}

// DivFaultI32 is the fault of a const-expression i32 e1 / e2 or e1 % e2
// (WGSL §8.7): ZeroDivisor when e2 is 0, DivOverflow for MinInt32 / -1.
// A constant e2 alone already makes a zero divisor an error.
func DivFaultI32(e1, e2 int32) Fault {
	switch {
	case e2 == 0:
		return ZeroDivisor
	case e1 == math.MinInt32 && e2 == -1:
		return DivOverflow
	}
	return NoFault
}

// DivFaultU32 is the fault of a const-expression u32 e1 / e2 or e1 % e2
// (WGSL §8.7): ZeroDivisor when e2 is 0.
func DivFaultU32(e1, e2 uint32) Fault {
	if e2 == 0 {
		return ZeroDivisor
	}
	return NoFault
}

// ShiftFault is the fault of a concrete shift e1 << e2 or e1 >> e2 whose
// count e2 is a const-expression (WGSL §8.9): ShiftCount when e2 ≥ 32.
func ShiftFault(e2 uint32) Fault {
	if e2 >= 32 {
		return ShiftCount
	}
	return NoFault
}

// ShlFaultI32 is the fault of i32 e1 << e2 with both operands
// const-expressions (WGSL §8.9): ShiftCount when e2 ≥ 32, ShiftOverflow
// when the e2+1 most significant bits of e1 do not all have the same value.
func ShlFaultI32(e1 int32, e2 uint32) Fault {
	if f := ShiftFault(e2); f != NoFault {
		return f
	}
	if top := e1 >> (31 - e2); top != 0 && top != -1 {
		return ShiftOverflow
	}
	return NoFault
}

// ShlFaultU32 is the fault of u32 e1 << e2 with both operands
// const-expressions (WGSL §8.9): ShiftCount when e2 ≥ 32, ShiftOverflow
// when any of the e2 most significant bits of e1 is 1.
func ShlFaultU32(e1, e2 uint32) Fault {
	if f := ShiftFault(e2); f != NoFault {
		return f
	}
	if e2 > 0 && e1>>(32-e2) != 0 {
		return ShiftOverflow
	}
	return NoFault
}

// BitRangeFault is the fault of extractBits(e, offset, count) or
// insertBits(e, newbits, offset, count) on 32-bit integers whose offset
// and count are const-expressions (WGSL §17.5.25, §17.5.26, §17.5.35):
// BitRange when offset + count > 32 (computed without wrapping).
func BitRangeFault(offset, count uint32) Fault {
	if uint64(offset)+uint64(count) > 32 {
		return BitRange
	}
	return NoFault
}

// ClampFault is the fault of clamp(e, low, high) whose low and high are
// const-expressions (WGSL §17.5.10 clamp, #clamp): ClampRange when
// low > high. For floats a NaN bound compares false and gives NoFault.
func ClampFault[T Integer | ~float32 | ~float64](low, high T) Fault {
	if low > high {
		return ClampRange
	}
	return NoFault
}

// F32Bias is the exponent bias of f32 (IEEE-754 binary32), the bias of
// WGSL #ldexp-builtin's rules for an f32 e1.
const F32Bias = 127

// LdexpFault is the fault of ldexp(e1, e2) whose exponent e2 is a
// const-expression, for an e1 whose type has exponent bias bias (F32Bias
// for f32, 1023 for AbstractFloat; WGSL #ldexp-builtin): LdexpExponent
// when e2 > bias + 1. (Where e2 is not constant such an e2 makes the
// result an indeterminate value, and e2 + bias ≤ 0 lets it be zero: the
// evaluators' policy.)
func LdexpFault(e2 int64, bias int64) Fault {
	if e2 > bias+1 {
		return LdexpExponent
	}
	return NoFault
}
