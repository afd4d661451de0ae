package ir

// Leaf access over either form a binding's or an output's value takes: an
// ir.Value tree or an ir.Buffer (issue 26). Both number their scalar
// leaves in ComponentTypes order (a matrix column by column, C×R leaves;
// an atomic as its scalar), the order of oracle's per-leaf slices, so a
// consumer that walks leaves (oracle's comparison, the JSON and table
// renderers) takes either form without decoding a Buffer into a tree.

// BufferLeaves reads a Buffer's leaves by index with its layout looked up
// once (Buffer.Leaf looks it up on every call).
type BufferLeaves struct {
	l *leafLayout
	b []byte
	n int
}

// LeafAccess returns b's leaves by index: Len is Leaves().
func (b Buffer) LeafAccess() BufferLeaves {
	return BufferLeaves{l: leafLayoutOf(b.Type), b: b.Bytes, n: b.Leaves()}
}

// Len returns the number of leaves.
func (a BufferLeaves) Len() int { return a.n }

// At returns leaf i (in [0, Len())) as a scalar Value: its type (i32, u32
// f32 or f16) and its bits, little-endian at the leaf's offset.
func (a BufferLeaves) At(i int) Value {
	off, t := a.l.at(i)
	return Value{Type: t, Bits: ScalarBits(a.b[off:], t)}
}

// LeafVisitor receives a value's structure and its scalar leaves in
// ComponentTypes order (WalkValue, Buffer.Walk): Open and Close around
// every composite (vector, matrix, array, runtime-sized array, structure)
// with n children, Child before each child k, Leaf for scalar leaf i.
type LeafVisitor interface {
	Open(t *Type, n int)
	Child(t *Type, k int)
	Close(t *Type)
	Leaf(i int, v Value)
}

// composite reports whether a value of kind k has Elems (a matrix's are
// its columns).
func composite(k Kind) bool {
	switch k {
	case KindVec, KindArray, KindRuntimeArray, KindStruct, KindMat:
		return true
	}
	return false
}

// WalkValue visits v's structure and leaves (LeafVisitor); anything that
// is not a composite is a leaf.
func WalkValue(v Value, f LeafVisitor) {
	i := 0
	walkValue(v, f, &i)
}

func walkValue(v Value, f LeafVisitor, i *int) {
	if !composite(v.Type.Kind) {
		f.Leaf(*i, v)
		*i++
		return
	}
	f.Open(v.Type, len(v.Elems))
	for k, e := range v.Elems {
		f.Child(v.Type, k)
		walkValue(e, f, i)
	}
	f.Close(v.Type)
}

// Walk visits b's structure and leaves (LeafVisitor) as WalkValue visits
// b.Value(), without building the tree: a runtime-sized array with
// RuntimeLength elements, an atomic as its scalar. A Buffer shorter than
// its type's fixed part walks as the zero Value of its type without
// elements (what a failed decode gives).
func (b Buffer) Walk(f LeafVisitor) {
	a := b.LeafAccess()
	if len(b.Bytes) < a.l.size {
		WalkValue(Value{Type: b.Type}, f)
		return
	}
	w := bufferWalk{a: a, f: f, rt: b.RuntimeLength()}
	w.walk(b.Type)
}

type bufferWalk struct {
	a  BufferLeaves
	f  LeafVisitor
	i  int
	rt int
}

func (w *bufferWalk) walk(t *Type) {
	switch t.Kind {
	case KindAtomic:
		w.walk(t.Elem)
	case KindVec, KindArray, KindMat, KindRuntimeArray:
		n := t.Len
		if t.Kind == KindRuntimeArray {
			n = w.rt
		}
		w.f.Open(t, n)
		for k := range n {
			w.f.Child(t, k)
			w.walk(t.Elem)
		}
		w.f.Close(t)
	case KindStruct:
		w.f.Open(t, len(t.Struct.Fields))
		for k, fd := range t.Struct.Fields {
			w.f.Child(t, k)
			w.walk(fd.Type)
		}
		w.f.Close(t)
	default:
		w.f.Leaf(w.i, w.a.At(w.i))
		w.i++
	}
}
