package wgslsem

import "math"

// Concrete is WGSL's concrete 32-bit integer types as Go carries them: i32
// as int32, u32 as uint32.
type Concrete interface{ ~int32 | ~uint32 }

// Signed is the signed integer types: i32 (int32) and AbstractInt (int64,
// WGSL §6.2.1 Abstract Numeric Types).
type Signed interface{ ~int32 | ~int64 }

// Integer is every integer type: i32, u32 and AbstractInt.
type Integer interface{ ~int32 | ~uint32 | ~int64 }

// Add is e1 + e2 on i32 or u32: it wraps modulo 2^32 (WGSL §6.2.3 Integer
// Types, #integer-types; §8.7 Arithmetic Expressions, #arithmetic-expr).
func Add[T Concrete](e1, e2 T) T { return e1 + e2 }

// Sub is e1 - e2 on i32 or u32, wrapping modulo 2^32 (WGSL §6.2.3, §8.7).
func Sub[T Concrete](e1, e2 T) T { return e1 - e2 }

// Mul is e1 * e2 on i32 or u32, wrapping modulo 2^32 (WGSL §6.2.3, §8.7).
func Mul[T Concrete](e1, e2 T) T { return e1 * e2 }

// Neg is -e on i32 (WGSL §8.7 Arithmetic Expressions, #arithmetic-expr,
// unary -): "If T is an integer scalar type and e evaluates to the largest
// negative value, then the result is e", so Neg(MinInt32) = MinInt32. On
// int64 (AbstractInt) it wraps the same way; there overflow is a
// shader-creation error the caller checks (e == math.MinInt64).
func Neg[T Signed](e T) T { return -e }

// DivI32 is i32 e1 / e2 at run time (WGSL §8.7 Arithmetic Expressions,
// #arithmetic-expr): e1 when e2 is 0, e1 when e1 is MinInt32 and e2 is -1,
// otherwise the quotient truncated toward zero. For const-expression
// operands see DivFaultI32.
func DivI32(e1, e2 int32) int32 {
	if e2 == 0 || (e1 == math.MinInt32 && e2 == -1) {
		return e1
	}
	return e1 / e2
}

// RemI32 is i32 e1 % e2 at run time (WGSL §8.7): 0 when e2 is 0, 0 when
// e1 is MinInt32 and e2 is -1, otherwise e1 - truncate(e1 ÷ e2) × e2 (the
// sign of e1).
func RemI32(e1, e2 int32) int32 {
	if e2 == 0 || (e1 == math.MinInt32 && e2 == -1) {
		return 0
	}
	return e1 % e2
}

// DivU32 is u32 e1 / e2 at run time (WGSL §8.7): e1 when e2 is 0, else the
// floor of the quotient.
func DivU32(e1, e2 uint32) uint32 {
	if e2 == 0 {
		return e1
	}
	return e1 / e2
}

// RemU32 is u32 e1 % e2 at run time (WGSL §8.7): 0 when e2 is 0.
func RemU32(e1, e2 uint32) uint32 {
	if e2 == 0 {
		return 0
	}
	return e1 % e2
}

// Shl is e1 << e2 on i32 or u32 at run time (WGSL §8.9 Bit Expressions,
// #bit-expr): the count is e2 modulo 32; the bits shifted out are
// discarded. For const-expression operands see ShiftFault, ShlFaultI32 and
// ShlFaultU32.
func Shl[T Concrete](e1 T, e2 uint32) T { return e1 << (e2 & 31) }

// Shr is e1 >> e2 on i32 or u32 at run time (WGSL §8.9): the count is e2
// modulo 32; i32 inserts copies of the sign bit (arithmetic shift), u32
// inserts zeros (logical shift). For a const-expression e2 see ShiftFault.
func Shr[T Concrete](e1 T, e2 uint32) T { return e1 >> (e2 & 31) }
