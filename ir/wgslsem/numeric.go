package wgslsem

// Numeric builtins of WGSL §17.5 on integer components (a vector applies
// them component-wise).

// Abs is abs(e) on an integer (WGSL §17.5.1 abs, #abs-float-builtin): e
// for u32 and for non-negative e; -e otherwise, so that "if e is a signed
// integer scalar type and evaluates to the largest negative value, then
// the result is e" (Abs(MinInt32) = MinInt32). On int64 (AbstractInt)
// abs(MinInt64) overflows, a shader-creation error the caller checks.
func Abs[T Integer](e T) T {
	if e < 0 {
		return -e
	}
	return e
}

// Min is min(e1, e2) on integers (WGSL §17.5.42 min, #min-float-builtin):
// "e2 if e2 is less than e1, and e1 otherwise", signed for i32 and
// AbstractInt, unsigned for u32.
func Min[T Integer](e1, e2 T) T {
	if e2 < e1 {
		return e2
	}
	return e1
}

// Max is max(e1, e2) on integers (WGSL §17.5.41 max, #max-float-builtin):
// e2 if e1 is less than e2, and e1 otherwise.
func Max[T Integer](e1, e2 T) T {
	if e1 < e2 {
		return e2
	}
	return e1
}

// Clamp is clamp(e, low, high) on integers (WGSL §17.5.10 clamp, #clamp):
// min(max(e, low), high). When low > high the result is high; with
// const-expression bounds that is a shader-creation error (ClampFault).
func Clamp[T Integer](e, low, high T) T { return Min(Max(e, low), high) }

// Sign is sign(e) on a signed integer (WGSL §17.5.54 sign, #sign-builtin):
// 1 when e > 0, 0 when e = 0, -1 when e < 0.
func Sign[T Signed](e T) T {
	switch {
	case e > 0:
		return 1
	case e < 0:
		return -1
	}
	return 0
}

// Dot is dot(e1, e2) of two i32 or u32 vectors of one length (WGSL
// §17.5.20 dot, #dot-builtin): the sum of e1[i] × e2[i], each product and
// sum wrapping modulo 2^32 (Add, Mul). Dot panics when the lengths differ.
func Dot[T Concrete](e1, e2 []T) T {
	if len(e1) != len(e2) {
		panic("wgslsem.Dot: operands of different lengths")
	}
	var s T
	for i := range e1 {
		s = Add(s, Mul(e1[i], e2[i]))
	}
	return s
}
