package wgslsem

import "math/bits"

// Bit builtins of WGSL §17.5 Numeric Built-in Functions on one 32-bit
// component (a vector applies them component-wise).

// CountOneBits is countOneBits(e): the number of 1 bits in e's 32-bit
// representation (WGSL §17.5.14 countOneBits, #countOneBits-builtin).
func CountOneBits[T Concrete](e T) T { return T(bits.OnesCount32(uint32(e))) }

// ReverseBits is reverseBits(e): bit k of the result is bit 31-k of e
// (WGSL §17.5.51 reverseBits, #reverseBits-builtin).
func ReverseBits[T Concrete](e T) T { return T(bits.Reverse32(uint32(e))) }

// FirstLeadingBitU32 is u32 firstLeadingBit(e): the position of the most
// significant 1 bit, or 0xFFFFFFFF (T(-1)) when e is 0 (WGSL §17.5.29
// firstLeadingBit (unsigned), #firstLeadingBit-unsigned-builtin).
func FirstLeadingBitU32(e uint32) uint32 {
	if e == 0 {
		return ^uint32(0)
	}
	return uint32(31 - bits.LeadingZeros32(e))
}

// FirstLeadingBitI32 is i32 firstLeadingBit(e): -1 when e is 0 or -1,
// otherwise the position of the most significant bit of e that differs
// from its sign bit (WGSL §17.5.28 firstLeadingBit (signed),
// #firstLeadingBit-signed-builtin).
func FirstLeadingBitI32(e int32) int32 {
	u := uint32(e)
	if e < 0 {
		u = ^u // the bits that differ from the sign bit; -1 becomes 0
	}
	return int32(FirstLeadingBitU32(u))
}

// FirstTrailingBit is firstTrailingBit(e) on i32 or u32: the position of
// the least significant 1 bit, or T(-1) (all ones) when e is 0 (WGSL
// §17.5.30 firstTrailingBit, #firstTrailingBit-builtin).
func FirstTrailingBit[T Concrete](e T) T {
	if e == 0 {
		return ^T(0)
	}
	return T(bits.TrailingZeros32(uint32(e)))
}

// bitRange is the o and c of extractBits and insertBits (WGSL §17.5.25,
// §17.5.26, §17.5.35) for bit width w = 32: o = min(offset, w),
// c = min(count, w - o).
func bitRange(offset, count uint32) (o, c uint32) {
	o = min(offset, 32)
	return o, min(count, 32-o)
}

// lowMask is the mask of bits 0..c-1, c in [0, 32].
func lowMask(c uint32) uint32 { return ^uint32(0) >> (32 - c) }

// ExtractBitsU32 is u32 extractBits(e, offset, count) at run time (WGSL
// §17.5.26 extractBits (unsigned), #extractBits-unsigned-builtin): with
// o = min(offset, 32) and c = min(count, 32 - o), 0 when c is 0, else bits
// o..o+c-1 of e in bits 0..c-1 and zeros above. With const-expression
// offset and count see BitRangeFault; within the range the clamping
// changes nothing.
func ExtractBitsU32(e, offset, count uint32) uint32 {
	o, c := bitRange(offset, count)
	// Bits o..o+c-1 to the top, then down to 0..c-1 with zeros above.
	// When c is 0 the shifts by 32 give 0 (Go shifts by the width or more
	// give 0 on unsigned operands).
	return e >> o << (32 - c) >> (32 - c)
}

// ExtractBitsI32 is i32 extractBits(e, offset, count) at run time (WGSL
// §17.5.25 extractBits (signed), #extractBits-signed-builtin): as
// ExtractBitsU32, then every bit above c-1 is a copy of bit c-1 (sign
// extension); 0 when c is 0.
func ExtractBitsI32(e int32, offset, count uint32) int32 {
	o, c := bitRange(offset, count)
	// As ExtractBitsU32, but the shift down is arithmetic: it copies bit
	// c-1 into the bits above. When c is 0, uint32 << 32 gives 0.
	return int32(uint32(e)>>o<<(32-c)) >> (32 - c)
}

// InsertBits is insertBits(e, newbits, offset, count) on i32 or u32 at run
// time (WGSL §17.5.35 insertBits, #insertBits-builtin): with
// o = min(offset, 32) and c = min(count, 32 - o), e when c is 0, else e
// with bits o..o+c-1 replaced by bits 0..c-1 of newbits. With
// const-expression offset and count see BitRangeFault.
func InsertBits[T Concrete](e, newbits T, offset, count uint32) T {
	o, c := bitRange(offset, count)
	if c == 0 {
		return e
	}
	m := lowMask(c) << o
	return T(uint32(e)&^m | uint32(newbits)<<o&m)
}
