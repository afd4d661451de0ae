package ir

import (
	"fmt"
	"strconv"
	"sync"
)

// Buffer is a binding's contents as the GPU buffer holds them: the bytes
// of a value of Type in its host-shareable layout (WGSL #memory-layouts;
// BindingBytes), little-endian. It is how large bindings travel through
// check, interp, oracle and report (issue 26): 4 bytes per scalar leaf
// plus the layout's padding, where an ir.Value tree takes 40 bytes per
// leaf.
//
// Leaves are numbered in ComponentTypes order (an atomic as its scalar, a
// matrix column by column), the order of oracle's per-leaf slices and of
// interp's memory; a runtime-sized array (the whole type, or the last
// member of a struct) holds as many elements as fit in Bytes after the
// fixed part, as BindingValue decodes it. Every leaf of a host-shareable
// type is a 32-bit scalar (i32, u32, f32): bool is not host-shareable.
//
// A Buffer shares Bytes with whoever made it; SetLeaf writes through.
type Buffer struct {
	Type  *Type
	Bytes []byte
}

// NewBuffer lays out v, a value of binding type t in the shape the
// reference dispatch takes (see BindingBytes, whose errors it returns).
func NewBuffer(t *Type, v Value) (Buffer, error) {
	b, err := BindingBytes(t, v)
	if err != nil {
		return Buffer{}, err
	}
	return Buffer{Type: t, Bytes: b}, nil
}

// ZeroBuffer is ZeroBinding(t) as a Buffer: t's fixed part, zeroed (a
// runtime-sized array empty), padded to t's alignment.
func ZeroBuffer(t *Type) Buffer {
	return Buffer{Type: t, Bytes: make([]byte, roundUp(AlignOf(t), SizeOf(t)))}
}

// BufferOfLength is a zeroed buffer of binding type t whose runtime-sized
// array (if t has one) holds n elements: the fixed part plus n strides,
// padded to t's alignment. n is ignored for a type without one.
func BufferOfLength(t *Type, n int) Buffer {
	size := SizeOf(t)
	if l := leafLayoutOf(t); l.tail != nil {
		size = l.tailOff + n*l.stride
	}
	return Buffer{Type: t, Bytes: make([]byte, roundUp(AlignOf(t), size))}
}

// Value decodes b into an ir.Value tree (BindingValue): for small
// bindings and for consumers that walk values; it fails when Bytes is
// shorter than Type's fixed part.
func (b Buffer) Value() (Value, error) { return BindingValue(b.Type, b.Bytes) }

// Leaves returns the number of scalar leaves b holds (0 when Bytes is
// shorter than the fixed part).
func (b Buffer) Leaves() int {
	l := leafLayoutOf(b.Type)
	if len(b.Bytes) < l.size {
		return 0
	}
	if l.tail == nil {
		return len(l.fixed)
	}
	return len(l.fixed) + l.tailElems(len(b.Bytes))*l.tailLeaves()
}

// RuntimeLength returns the element count of b's runtime-sized array (0
// for a type without one).
func (b Buffer) RuntimeLength() int { return leafLayoutOf(b.Type).tailElems(len(b.Bytes)) }

// Offset returns the byte offset of leaf i in Bytes. i must be in
// [0, Leaves()).
func (b Buffer) Offset(i int) int {
	off, _ := leafLayoutOf(b.Type).at(i)
	return off
}

// LeafType returns leaf i's scalar type (i32, u32, f32 or f16).
func (b Buffer) LeafType(i int) *Type {
	_, t := leafLayoutOf(b.Type).at(i)
	return t
}

// Bits returns leaf i's raw bits (32; an f16 leaf's 16 in the low half).
func (b Buffer) Bits(i int) uint32 {
	off, t := leafLayoutOf(b.Type).at(i)
	return ScalarBits(b.Bytes[off:], t)
}

// Leaf returns leaf i as a scalar Value.
func (b Buffer) Leaf(i int) Value { return Value{Type: b.LeafType(i), Bits: b.Bits(i)} }

// SetLeaf writes leaf i's raw bits.
func (b Buffer) SetLeaf(i int, bits uint32) {
	off, t := leafLayoutOf(b.Type).at(i)
	PutScalar(b.Bytes[off:], t, bits)
}

// LeafPath returns leaf i's path from the binding, in the form oracle
// reports a disagreeing leaf: "[17].pos[1]" (an array element or vector
// or matrix component in brackets, a struct member after a dot; "" for a
// scalar binding).
func (b Buffer) LeafPath(i int) string {
	l := leafLayoutOf(b.Type)
	if i < len(l.fixed) {
		return l.fixed[i].path
	}
	i -= len(l.fixed)
	k := l.tailLeaves()
	return l.tailPath + "[" + strconv.Itoa(i/k) + "]" + l.tail.fixed[i%k].path
}

// Clone returns a copy of b with its own Bytes.
func (b Buffer) Clone() Buffer {
	return Buffer{Type: b.Type, Bytes: append([]byte(nil), b.Bytes...)}
}

// LeafLayout is where the scalar leaves of a host-shareable type lie,
// in ComponentTypes order (Buffer's numbering): Fixed, the fixed part's
// leaves (byte offset, scalar type: an atomic's element's), then, when
// the type has a runtime-sized array (itself or its last member), Tail,
// that array's element's leaves, repeated every Stride bytes from TailOff
// (ElemSize: the element's size, the bytes the last element needs).
type LeafLayout struct {
	Fixed, Tail               []LeafOffset // Tail nil: no runtime-sized array
	TailOff, Stride, ElemSize int
}

// LeafOffset is one leaf of a LeafLayout: its byte offset and scalar
// type.
type LeafOffset struct {
	Off  int
	Type *Type
}

// LeafOffsets returns t's LeafLayout (WGSL #memory-layouts; the offsets
// Buffer reads, computed once per type and copied here). It panics for a
// type that has no host-shareable layout (a texture, a pointer).
func LeafOffsets(t *Type) LeafLayout {
	l := leafLayoutOf(t)
	conv := func(ls []leafAt) []LeafOffset {
		out := make([]LeafOffset, len(ls))
		for i, x := range ls {
			out[i] = LeafOffset{Off: int(x.off), Type: x.t}
		}
		return out
	}
	out := LeafLayout{Fixed: conv(l.fixed)}
	if l.tail != nil {
		out.Tail, out.TailOff, out.Stride, out.ElemSize = conv(l.tail.fixed), l.tailOff, l.stride, l.tail.size
	}
	return out
}

// leafLayout is where a binding type's leaves lie: the fixed part's
// leaves (every leaf of a type without a runtime-sized array) and, for a
// runtime-sized array, its element's layout, stride and offset.
type leafLayout struct {
	elem     *Type // the type laid out
	fixed    []leafAt
	size     int // SizeOf: the fixed part's bytes
	tail     *leafLayout
	tailOff  int
	stride   int
	tailPath string
}

type leafAt struct {
	off  int32
	t    *Type
	path string
}

func (l *leafLayout) tailLeaves() int { return len(l.tail.fixed) }

// at returns leaf i's byte offset and scalar type.
func (l *leafLayout) at(i int) (int, *Type) {
	if i < len(l.fixed) {
		f := &l.fixed[i]
		return int(f.off), f.t
	}
	i -= len(l.fixed)
	k := len(l.tail.fixed)
	f := &l.tail.fixed[i%k]
	return l.tailOff + i/k*l.stride + int(f.off), f.t
}

func (l *leafLayout) tailElems(n int) int {
	if l.tail == nil || l.stride == 0 || n < l.tailOff {
		return 0
	}
	// As decodeBinding: every element whose bytes fit, the last one
	// without its trailing padding.
	es := (n - l.tailOff) / l.stride
	if rest := n - l.tailOff - es*l.stride; rest >= l.tail.size {
		es++
	}
	return es
}

var leafLayouts sync.Map // *Type → *leafLayout

func leafLayoutOf(t *Type) *leafLayout {
	if l, ok := leafLayouts.Load(t); ok {
		return l.(*leafLayout)
	}
	l := &leafLayout{elem: t}
	l.build(t, 0, "")
	if t.Kind != KindRuntimeArray {
		l.size = SizeOf(t)
	}
	got, _ := leafLayouts.LoadOrStore(t, l)
	return got.(*leafLayout)
}

func (l *leafLayout) build(t *Type, off int, path string) {
	switch t.Kind {
	case KindAtomic:
		l.build(t.Elem, off, path)
	case KindI32, KindU32, KindF32, KindF16, KindBool:
		l.fixed = append(l.fixed, leafAt{off: int32(off), t: t, path: path})
	case KindVec:
		n := ScalarSize(t.Elem)
		for i := range t.Len {
			l.fixed = append(l.fixed, leafAt{off: int32(off + n*i), t: t.Elem, path: path + "[" + strconv.Itoa(i) + "]"})
		}
	case KindArray, KindMat:
		s := ArrayStride(t)
		for i := range t.Len {
			l.build(t.Elem, off+i*s, path+"["+strconv.Itoa(i)+"]")
		}
	case KindRuntimeArray:
		l.tail, l.tailOff, l.stride, l.tailPath = leafLayoutOf(t.Elem), off, ArrayStride(t), path
	case KindStruct:
		for i, fo := range FieldOffsets(t.Struct) {
			f := t.Struct.Fields[i]
			l.build(f.Type, off+fo, path+"."+f.Name)
		}
	default:
		panic(fmt.Sprintf("ir: leaf layout of %v, which is not host-shareable", t))
	}
}
