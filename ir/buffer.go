package ir

import (
	"fmt"
	"slices"
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
	return LeafOffsets(b.Type).Count(len(b.Bytes))
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
// scalar binding). The path is built on demand from the layout's
// structure (a layout holds no per-leaf paths).
func (b Buffer) LeafPath(i int) string { return leafLayoutOf(b.Type).path(i) }

// Clone returns a copy of b with its own Bytes.
func (b Buffer) Clone() Buffer {
	return Buffer{Type: b.Type, Bytes: append([]byte(nil), b.Bytes...)}
}

// LeafLayout is where the scalar leaves of a host-shareable type lie,
// in ComponentTypes order (Buffer's numbering), by the type's structure:
// an array is its element's layout repeated every stride bytes, so a
// layout's size follows the type's declaration, not its leaf count (an
// array<u32, 1769472> is one repeated leaf). Fixed leaves come first,
// then, when the type has a runtime-sized array (itself or its last
// member), that array's element's leaves repeated every Stride bytes from
// TailOff. The zero LeafLayout is not valid; LeafOffsets makes one.
type LeafLayout struct{ l *leafLayout }

// LeafOffsets returns t's LeafLayout (WGSL #memory-layouts; the layout
// Buffer reads, computed once per type and shared). It panics for a type
// that has no host-shareable layout (a texture, a pointer); bool leaves
// (workgroup variables) get 4-byte places.
func LeafOffsets(t *Type) LeafLayout { return LeafLayout{leafLayoutOf(t)} }

// Fixed returns the number of leaves of the fixed part (every leaf of a
// type without a runtime-sized array).
func (l LeafLayout) Fixed() int { return l.l.n }

// At returns leaf i's byte offset from the start of the value and its
// scalar type (an atomic's element's). i counts the fixed part's leaves
// then the runtime-sized array's, element by element; i must be
// non-negative and, for a type without a runtime-sized array, below
// Fixed().
func (l LeafLayout) At(i int) (off int, t *Type) { return l.l.at(i) }

// Tail reports whether the type has a runtime-sized array, and if so its
// offset in bytes, its stride in bytes, its element's size in bytes (the
// bytes the last element needs) and its element's leaves.
func (l LeafLayout) Tail() (ok bool, off, stride, elemSize, elemLeaves int) {
	if l.l.tail == nil {
		return false, 0, 0, 0, 0
	}
	return true, l.l.tailOff, l.l.stride, l.l.tail.size, l.l.tail.n
}

// Count returns the leaves a value of n bytes holds (its fixed part's,
// and for a runtime-sized array every element whose bytes fit, the last
// one without its trailing padding, as BindingValue decodes it); 0 when
// n is shorter than the fixed part.
func (l LeafLayout) Count(n int) int {
	if n < l.l.size {
		return 0
	}
	if l.l.tail == nil {
		return l.l.n
	}
	return l.l.n + l.l.tailElems(n)*l.l.tailLeaves()
}

// Dense reports whether leaf i lies at byte 4i for every i and every
// leaf is 4 bytes wide (no f16): the bytes are the leaves' bits, in
// order, with no padding between them.
func (l LeafLayout) Dense() bool { return l.l.dense }

// Scalars returns the distinct scalar types of the leaves, in order of
// first appearance.
func (l LeafLayout) Scalars() []*Type { return l.l.scalars }

// leafLayout is where a type's leaves lie: the fixed part as runs
// (leafRun: a scalar leaf, or an element's layout repeated) and, for a
// runtime-sized array, its element's layout, stride and offset.
type leafLayout struct {
	elem     *Type // the type laid out
	runs     []leafRun
	n        int // leaves of the fixed part
	size     int // SizeOf: the fixed part's bytes
	tail     *leafLayout
	tailOff  int
	stride   int
	tailPath string
	dense    bool    // leaf i at byte 4i, every leaf 4 bytes wide
	scalars  []*Type // distinct leaf types
}

// leafRun is a run of a layout's fixed leaves from leaf first: one scalar
// leaf of type t at off (rep nil), or count elements of layout rep, the
// first at off, every stride bytes. path is the scalar's path, or the
// array's: element k's leaves add "[k]" and rep's paths.
type leafRun struct {
	first  int
	off    int
	t      *Type
	rep    *leafLayout
	count  int
	stride int
	path   string
}

// expandLeaves bounds the leaves of a fixed array laid out leaf by leaf
// (as runs of scalars) rather than as a repeated element: small arrays,
// vectors and matrices keep at a single lookup.
const expandLeaves = 16

func (l *leafLayout) tailLeaves() int { return l.tail.n }

// run returns the index of the run holding fixed leaf i (< l.n).
func (l *leafLayout) run(i int) int {
	lo, hi := 0, len(l.runs)
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if l.runs[m].first <= i {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// at returns leaf i's byte offset and scalar type.
func (l *leafLayout) at(i int) (int, *Type) {
	off := 0
	for {
		if i >= l.n {
			i -= l.n
			k := l.tail.n
			off += l.tailOff + i/k*l.stride
			l, i = l.tail, i%k
			continue
		}
		r := &l.runs[l.run(i)]
		if r.rep == nil {
			return off + r.off, r.t
		}
		j, k := i-r.first, r.rep.n
		off += r.off + j/k*r.stride
		l, i = r.rep, j%k
	}
}

// path returns leaf i's path (Buffer.LeafPath).
func (l *leafLayout) path(i int) string {
	var b []byte
	for {
		if i >= l.n {
			i -= l.n
			k := l.tail.n
			b = append(append(append(append(b, l.tailPath...), '['), strconv.Itoa(i/k)...), ']')
			l, i = l.tail, i%k
			continue
		}
		r := &l.runs[l.run(i)]
		b = append(b, r.path...)
		if r.rep == nil {
			return string(b)
		}
		j, k := i-r.first, r.rep.n
		b = append(append(append(b, '['), strconv.Itoa(j/k)...), ']')
		l, i = r.rep, j%k
	}
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
	l.finish()
	got, _ := leafLayouts.LoadOrStore(t, l)
	return got.(*leafLayout)
}

func (l *leafLayout) scalar(t *Type, off int, path string) {
	l.runs = append(l.runs, leafRun{first: l.n, off: off, t: t, path: path})
	l.n++
}

func (l *leafLayout) build(t *Type, off int, path string) {
	switch t.Kind {
	case KindAtomic:
		l.build(t.Elem, off, path)
	case KindI32, KindU32, KindF32, KindF16, KindBool:
		l.scalar(t, off, path)
	case KindVec:
		n := ScalarSize(t.Elem)
		for i := range t.Len {
			l.scalar(t.Elem, off+n*i, path+"["+strconv.Itoa(i)+"]")
		}
	case KindArray, KindMat:
		s := ArrayStride(t)
		if e := leafLayoutOf(t.Elem); t.Kind == KindArray && t.Len*e.n > expandLeaves {
			l.runs = append(l.runs, leafRun{first: l.n, off: off, rep: e, count: t.Len, stride: s, path: path})
			l.n += t.Len * e.n
			return
		}
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

// finish computes dense and scalars from the runs and the tail.
func (l *leafLayout) finish() {
	l.dense = true
	add := func(ts ...*Type) {
		for _, t := range ts {
			if !slices.Contains(l.scalars, t) {
				l.scalars = append(l.scalars, t)
			}
		}
	}
	for _, r := range l.runs {
		if r.rep == nil {
			l.dense = l.dense && r.off == 4*r.first && ScalarSize(r.t) == 4
			add(r.t)
			continue
		}
		l.dense = l.dense && r.rep.dense && r.off == 4*r.first && r.stride == 4*r.rep.n
		add(r.rep.scalars...)
	}
	if l.tail != nil {
		l.dense = l.dense && l.tail.dense && l.tailOff == 4*l.n && l.stride == 4*l.tail.n
		add(l.tail.scalars...)
	}
}
