package ir

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// ValueSet is the set of values WGSL allows for one scalar leaf whose
// value the reference cannot fix (ARCHITECTURE.md "Verdicts that are never
// false"): the union of Values (bit patterns of the leaf's type; an f32
// member v with Tol[i] > 0 stands for [v-Tol[i], v+Tol[i]]) and, when
// HasRange, the closed interval [Lo, Hi] (bit patterns, ordered in the
// leaf's type: i32 signed, u32 unsigned, f32 as numbers).
//
// The empty ValueSet (IsAny) stands for "any value of the type": an
// indeterminate leaf whose allowed values are not cheap to know. Where it
// comes from: the union of the outcomes of a branch on an indeterminate
// condition run both ways, a racy read (the location's prior value or any
// value written to it), an atomic counter read while other invocations
// update it (an interval), an out-of-bounds store (the prior value or the
// value stored).
type ValueSet struct {
	Values   []uint32
	Tol      []float64 // nil, or one bound per member of Values (f32 only)
	Lo, Hi   uint32
	HasRange bool
}

// MaxValueSet bounds the members of a ValueSet: a union that would have
// more becomes "any value" (the set is only worth carrying while small).
const MaxValueSet = 64

// IsAny reports whether s stands for any value of the type.
func (s ValueSet) IsAny() bool { return len(s.Values) == 0 && !s.HasRange }

// Interval returns the set [lo, hi] (bit patterns of a leaf of kind k,
// ordered in k).
func Interval(lo, hi uint32) ValueSet { return ValueSet{Lo: lo, Hi: hi, HasRange: true} }

// Add returns s with value bits (within tol, f32) added; ok is false when
// the set would exceed MaxValueSet members.
func (s ValueSet) Add(bits uint32, tol float64) (ValueSet, bool) {
	for i, v := range s.Values {
		if v == bits {
			if tol > s.tol(i) {
				s.Tol = s.tolSlice()
				s.Tol[i] = tol
			}
			return s, true
		}
	}
	if len(s.Values) >= MaxValueSet {
		return ValueSet{}, false
	}
	if tol > 0 || s.Tol != nil {
		s.Tol = append(s.tolSlice(), tol) // one bound per member before it, then its own
	}
	s.Values = append(s.Values[:len(s.Values):len(s.Values)], bits)
	return s, true
}

func (s ValueSet) tol(i int) float64 {
	if s.Tol == nil {
		return 0
	}
	return s.Tol[i]
}

// tolSlice returns a copy of Tol sized to Values (zeros where absent).
func (s ValueSet) tolSlice() []float64 {
	t := make([]float64, len(s.Values), len(s.Values)+1)
	copy(t, s.Tol)
	return t
}

// Union returns the union of two non-empty sets of leaves of kind k; ok is
// false when it is not cheap to carry (too many members): the caller then
// has "any value".
func (s ValueSet) Union(o ValueSet, k Kind) (ValueSet, bool) {
	if s.IsAny() || o.IsAny() {
		return ValueSet{}, false
	}
	out := s
	out.Values = append([]uint32(nil), s.Values...)
	if s.Tol != nil {
		out.Tol = append([]float64(nil), s.Tol...)
	}
	ok := true
	for i, v := range o.Values {
		if out, ok = out.Add(v, o.tol(i)); !ok {
			return ValueSet{}, false
		}
	}
	if o.HasRange {
		if !out.HasRange {
			out.Lo, out.Hi, out.HasRange = o.Lo, o.Hi, true
		} else {
			if Less(k, o.Lo, out.Lo) {
				out.Lo = o.Lo
			}
			if Less(k, out.Hi, o.Hi) {
				out.Hi = o.Hi
			}
		}
	}
	return out, true
}

// Less orders two bit patterns of a scalar of kind k (i32 signed, u32 and
// bool unsigned, f32 as numbers).
func Less(k Kind, a, b uint32) bool {
	switch k {
	case KindI32:
		return int32(a) < int32(b)
	case KindF32:
		return math.Float32frombits(a) < math.Float32frombits(b)
	case KindF16:
		return (Value{Type: F16, Bits: a}).F16() < (Value{Type: F16, Bits: b}).F16()
	}
	return a < b
}

// InRange reports whether bits lies in [s.Lo, s.Hi] (HasRange) ordered in k.
func (s ValueSet) InRange(k Kind, bits uint32) bool {
	return s.HasRange && !Less(k, bits, s.Lo) && !Less(k, s.Hi, bits)
}

// Format writes s with the leaf type t: "{1, 7}", "[1, 16]", "{3} ∪ [1, 16]", "any".
func (s ValueSet) Format(t *Type) string {
	if s.IsAny() {
		return "any"
	}
	str := func(b uint32) string { return Value{Type: t, Bits: b}.String() }
	var parts []string
	if len(s.Values) > 0 {
		idx := make([]int, len(s.Values))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool { return Less(t.Kind, s.Values[idx[a]], s.Values[idx[b]]) })
		var vs []string
		for _, i := range idx {
			v := str(s.Values[i])
			if tl := s.tol(i); tl > 0 {
				v += fmt.Sprintf("±%g", tl)
			}
			vs = append(vs, v)
		}
		parts = append(parts, "{"+strings.Join(vs, ", ")+"}")
	}
	if s.HasRange {
		parts = append(parts, "["+str(s.Lo)+", "+str(s.Hi)+"]")
	}
	return strings.Join(parts, " ∪ ")
}
