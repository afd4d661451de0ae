package spirv

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Host-shareable layout of the types a buffer holds (WGSL #memory-layouts,
// #alignment-and-size), extended from ir's kernel-ABI layout
// (ir.AlignOf, ir.SizeOf, ir.ArrayStride, ir.FieldOffsets — the same
// numbers for every type those take) to the two types only bindings hold:
//
//   - atomic<T>: AlignOf = SizeOf = 4, as T (WGSL #alignment-and-size:
//     atomic<T> has the alignment and size of T);
//   - array<E> (runtime-sized): AlignOf = AlignOf(E), stride
//     roundUp(AlignOf(E), SizeOf(E)); it has no size and is only the whole
//     binding or its last member, so no offset ever follows it.
//
// The uniform address space uses the same offsets and strides: WGSL
// computes one layout for every address space and makes a module whose
// uniform types break the uniform constraints (16-byte aligned array
// strides and struct members after a struct; #address-space-layout-constraints)
// invalid instead of laying them out differently. So these numbers are
// also the Offsets and ArraySrides of Uniform-class Block types, and a
// valid WGSL module's uniform types satisfy Vulkan's extended
// (std140-like) layout rules that spirv-val checks (Vulkan §15.6.4,
// "Offset and Stride Assignment").

// hostAlign returns the alignment of t in a buffer, in bytes.
func hostAlign(t *ir.Type) int {
	switch t.Kind {
	case ir.KindAtomic:
		return 4
	case ir.KindArray, ir.KindRuntimeArray:
		return hostAlign(t.Elem)
	case ir.KindStruct:
		a := 1
		for _, f := range t.Struct.Fields {
			a = max(a, ir.MemberAlign(f, hostAlign))
		}
		return a
	}
	return ir.AlignOf(t)
}

// hostSize returns the size of t in a buffer, in bytes; t is not a
// runtime-sized array (nor a struct ending in one).
func hostSize(t *ir.Type) int {
	switch t.Kind {
	case ir.KindAtomic:
		return 4
	case ir.KindArray:
		return t.Len * hostStride(t)
	case ir.KindStruct:
		offs := hostOffsets(t.Struct)
		last := len(offs) - 1
		return roundUp(hostAlign(t), offs[last]+ir.MemberSize(t.Struct.Fields[last], hostSize))
	case ir.KindRuntimeArray:
		panic(fmt.Sprintf("spirv: hostSize(%v): a runtime-sized array has no size", t))
	}
	return ir.SizeOf(t)
}

// hostStride returns the element stride of the fixed- or runtime-sized
// array type t: roundUp(AlignOf(E), SizeOf(E)).
func hostStride(t *ir.Type) int { return roundUp(hostAlign(t.Elem), hostSize(t.Elem)) }

// hostOffsets returns each member's byte offset: the first offset after
// the previous member that is a multiple of the member's alignment
// (WGSL #structure-member-layout, with the members' @align and @size).
func hostOffsets(s *ir.StructDecl) []int {
	offs := make([]int, len(s.Fields))
	off := 0
	for i, f := range s.Fields {
		off = roundUp(ir.MemberAlign(f, hostAlign), off)
		offs[i] = off
		if f.Type.Kind != ir.KindRuntimeArray {
			off += ir.MemberSize(f, hostSize)
		}
	}
	return offs
}

func roundUp(a, n int) int { return (n + a - 1) / a * a }
