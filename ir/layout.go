package ir

import (
	"encoding/binary"
	"fmt"
)

// Host-shareable memory layout of the kernel ABI (WGSL "Memory Layout",
// "Alignment and Size"; storage address space). bool is not host-
// shareable: it crosses the ABI as u32 (0 or 1), so the layout of a type
// is that of the same type with every bool replaced by u32 — the same
// size and alignment.

// AlignOf returns the storage-buffer alignment of t in bytes (an atomic
// is its scalar's, a runtime-sized array its element's).
func AlignOf(t *Type) int {
	switch t.Kind {
	case KindBool, KindI32, KindU32, KindF32, KindAtomic:
		return 4
	case KindF16:
		return 2
	case KindRuntimeArray:
		return AlignOf(t.Elem)
	case KindVec:
		// vec2: 2 × the scalar's size; vec3 and vec4: 4 × (vec3<f32> 16,
		// vec3<f16> 8; WGSL #alignment-and-size).
		if t.Len == 2 {
			return 2 * ScalarSize(t.Elem)
		}
		return 4 * ScalarSize(t.Elem)
	case KindArray, KindMat:
		// matCxR: AlignOf(vecR) (WGSL #alignment-and-size).
		return AlignOf(t.Elem)
	case KindStruct:
		a := 1
		for _, f := range t.Struct.Fields {
			if fa := MemberAlign(f, AlignOf); fa > a {
				a = fa
			}
		}
		return a
	}
	panic(fmt.Sprintf("ir.AlignOf(%v)", t))
}

// SizeOf returns the storage-buffer size of t in bytes. A runtime-sized
// array counts 0 here (a struct ending in one: its fixed part); a binding's
// size with the array's length is BindingSize's.
func SizeOf(t *Type) int {
	switch t.Kind {
	case KindBool, KindI32, KindU32, KindF32, KindAtomic:
		return 4
	case KindF16:
		return 2
	case KindRuntimeArray:
		return 0
	case KindVec:
		return ScalarSize(t.Elem) * t.Len
	case KindArray, KindMat:
		// matCxR: C * roundUp(AlignOf(vecR), SizeOf(vecR)), so a column
		// of a mat3xR is padded to 16 bytes like an array<vec3, C> element.
		return t.Len * ArrayStride(t)
	case KindStruct:
		offs := FieldOffsets(t.Struct)
		last := len(offs) - 1
		return roundUp(AlignOf(t), offs[last]+MemberSize(t.Struct.Fields[last], SizeOf))
	}
	panic(fmt.Sprintf("ir.SizeOf(%v)", t))
}

// ScalarSize is the byte size of a scalar (or atomic) of type t in
// host-shareable memory: 2 for f16, 4 for bool (as its u32 mirror), i32,
// u32 and f32 (WGSL #alignment-and-size).
func ScalarSize(t *Type) int {
	if t.Kind == KindF16 {
		return 2
	}
	return 4
}

// PutScalar writes the scalar bits of type t at b[0:ScalarSize(t)],
// little-endian (f16: the low 16 bits).
func PutScalar(b []byte, t *Type, bits uint32) {
	if t.Kind == KindF16 {
		binary.LittleEndian.PutUint16(b, uint16(bits))
		return
	}
	binary.LittleEndian.PutUint32(b, bits)
}

// ScalarBits reads the scalar of type t at b[0:ScalarSize(t)],
// little-endian (f16: into the low 16 bits).
func ScalarBits(b []byte, t *Type) uint32 {
	if t.Kind == KindF16 {
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}

// MemberAlign returns AlignOfMember (WGSL #structure-member-layout): the
// member's @align(n), else align(f.Type) — align being the layout's
// alignment function (AlignOf, or an emitter's extension of it).
func MemberAlign(f Field, align func(*Type) int) int {
	if f.Align > 0 {
		return f.Align
	}
	return align(f.Type)
}

// MemberSize returns SizeOfMember (WGSL #structure-member-layout): the
// member's @size(n), else size(f.Type).
func MemberSize(f Field, size func(*Type) int) int {
	if f.Size > 0 {
		return f.Size
	}
	return size(f.Type)
}

// ArrayStride returns the element stride of the array type t (or the
// column stride, WGSL's and SPIR-V's MatrixStride, of the matrix type t) in bytes:
// roundUp(AlignOf(elem), SizeOf(elem)).
func ArrayStride(t *Type) int { return roundUp(AlignOf(t.Elem), SizeOf(t.Elem)) }

// FieldOffsets returns the byte offset of each member of s: each member
// at the first offset after the previous one that is a multiple of its
// alignment (WGSL #structure-member-layout: OffsetOfMember, with the
// members' @align and @size).
func FieldOffsets(s *StructDecl) []int {
	offs := make([]int, len(s.Fields))
	off := 0
	for i, f := range s.Fields {
		off = roundUp(MemberAlign(f, AlignOf), off)
		offs[i] = off
		off += MemberSize(f, SizeOf)
	}
	return offs
}

func roundUp(a, n int) int { return (n + a - 1) / a * a }

// HasBool reports whether t is or contains bool (so the ABI must convert
// it to its u32 mirror).
func HasBool(t *Type) bool {
	switch t.Kind {
	case KindBool:
		return true
	case KindVec, KindArray:
		return HasBool(t.Elem)
	case KindStruct:
		for _, f := range t.Struct.Fields {
			if HasBool(f.Type) {
				return true
			}
		}
	}
	return false
}

// ABIField is one member of an ABI record.
type ABIField struct {
	Name   string // parameter name, "ret", or the private global's name
	T      *Type  // the IR type (bools travel as u32)
	Offset int    // byte offset within the record
	Global bool   // a private global written back after the call
}

// KernelABI describes how a kernel's invocations cross the GPU boundary
// (ARCHITECTURE.md "Kernel ABI"): the input storage buffer (group 0, binding 0,
// read) holds one record per invocation with a member per parameter; the
// output storage buffer (group 0, binding 1, read_write) holds one record
// per invocation: the result as member "ret" (omitted for void kernels),
// then each private global the kernel's call graph uses, read after the
// call. A record with no members holds one u32 pad so that it has a size.
type KernelABI struct {
	Kernel       string
	Result       *Type
	Inputs       []ABIField
	InputStride  int // bytes per invocation in the input buffer
	Outputs      []ABIField
	OutputStride int // bytes per invocation in the output buffer
}

// Entry-point wrapper constants shared by every emitter.
const (
	WorkgroupSize = 64 // invocations per workgroup (x)
	InputBinding  = 0  // @group(0) @binding(0) var<storage, read>
	OutputBinding = 1  // @group(0) @binding(1) var<storage, read_write>
	// FragmentRowPitch is the kernel ABI's row pitch in the fragment
	// stage (ARCHITECTURE.md "Kernel ABI"): the fragment at pixel (x, y)
	// of the render target, @builtin(position) (x + 0.5, y + 0.5), is
	// invocation y*FragmentRowPitch + x.
	FragmentRowPitch = 256
	// FragmentMarkerLocation is the @location of the fragment wrapper's
	// u32 marker output (an r32uint attachment): 1 where the fragment ran
	// an invocation, 0 past the last invocation.
	FragmentMarkerLocation = 0
)

// NewKernelABI computes the ABI of kernel in m. It fails when the kernel
// does not exist.
func NewKernelABI(m *Module, kernel string) (*KernelABI, error) {
	f := m.Func(kernel)
	if f == nil {
		return nil, fmt.Errorf("no function %q in module", kernel)
	}
	a := &KernelABI{Kernel: kernel, Result: f.Result}
	var in, out []ABIField
	for _, p := range f.Params {
		in = append(in, ABIField{Name: p.Name, T: p.T})
	}
	if !f.Result.IsVoid() {
		out = append(out, ABIField{Name: "ret", T: f.Result})
	}
	for _, g := range m.GlobalsUsed(kernel) {
		out = append(out, ABIField{Name: g.Name, T: g.T, Global: true})
	}
	a.Inputs, a.InputStride = layoutRecord(in)
	a.Outputs, a.OutputStride = layoutRecord(out)
	return a, nil
}

func layoutRecord(fs []ABIField) ([]ABIField, int) {
	if len(fs) == 0 {
		return nil, 4
	}
	off, align := 0, 4
	for i := range fs {
		a := AlignOf(fs[i].T)
		if a > align {
			align = a
		}
		off = roundUp(a, off)
		fs[i].Offset = off
		off += SizeOf(fs[i].T)
	}
	return fs, roundUp(align, off)
}

// EncodeInputs lays out args (args[i][j] is parameter j of invocation i)
// as the input buffer: InputStride bytes per invocation, little-endian.
// It fails when an argument's type does not match its parameter.
func (a *KernelABI) EncodeInputs(args [][]Value) ([]byte, error) {
	buf := make([]byte, len(args)*a.InputStride)
	for i, inv := range args {
		if len(inv) != len(a.Inputs) {
			return nil, fmt.Errorf("invocation %d: %d arguments for %d parameters", i, len(inv), len(a.Inputs))
		}
		for j, f := range a.Inputs {
			if !Identical(inv[j].Type, f.T) {
				return nil, fmt.Errorf("invocation %d: argument %s has type %v, want %v", i, f.Name, inv[j].Type, f.T)
			}
			encode(buf[i*a.InputStride+f.Offset:], inv[j])
		}
	}
	return buf, nil
}

// DecodeOutputs reads n invocations' output records from buf; the result
// [i][j] is output field j of invocation i. It fails when buf is shorter
// than n*OutputStride.
func (a *KernelABI) DecodeOutputs(buf []byte, n int) ([][]Value, error) {
	if len(buf) < n*a.OutputStride {
		return nil, fmt.Errorf("output buffer has %d bytes, need %d for %d invocations", len(buf), n*a.OutputStride, n)
	}
	out := make([][]Value, n)
	for i := range out {
		out[i] = make([]Value, len(a.Outputs))
		for j, f := range a.Outputs {
			out[i][j] = decode(buf[i*a.OutputStride+f.Offset:], f.T)
		}
	}
	return out, nil
}

func encode(b []byte, v Value) {
	t := v.Type
	switch t.Kind {
	case KindBool, KindI32, KindU32, KindF32, KindF16:
		PutScalar(b, t, v.Bits)
	case KindVec:
		n := ScalarSize(t.Elem)
		for i, e := range v.Elems {
			encode(b[n*i:], e)
		}
	case KindArray, KindMat:
		s := ArrayStride(t)
		for i, e := range v.Elems {
			encode(b[i*s:], e)
		}
	case KindStruct:
		for i, off := range FieldOffsets(t.Struct) {
			encode(b[off:], v.Elems[i])
		}
	}
}

func decode(b []byte, t *Type) Value {
	switch t.Kind {
	case KindBool:
		return BoolVal(binary.LittleEndian.Uint32(b) != 0)
	case KindI32, KindU32, KindF32, KindF16:
		return ScalarVal(t, ScalarBits(b, t))
	case KindVec:
		n := ScalarSize(t.Elem)
		es := make([]Value, t.Len)
		for i := range es {
			es[i] = decode(b[n*i:], t.Elem)
		}
		return CompositeVal(t, es...)
	case KindArray, KindMat:
		s := ArrayStride(t)
		es := make([]Value, t.Len)
		for i := range es {
			es[i] = decode(b[i*s:], t.Elem)
		}
		return CompositeVal(t, es...)
	case KindStruct:
		offs := FieldOffsets(t.Struct)
		es := make([]Value, len(offs))
		for i, off := range offs {
			es[i] = decode(b[off:], t.Struct.Fields[i].Type)
		}
		return CompositeVal(t, es...)
	}
	panic(fmt.Sprintf("ir.decode(%v)", t))
}
