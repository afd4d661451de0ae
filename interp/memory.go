package interp

import (
	"encoding/binary"
	"math"
	"sync"
	"sync/atomic"

	"github.com/gpudiff/gpudiff/ir"
)

// A dispatch's memory (issue 26): 4 bytes a leaf for what a binding
// holds, whatever the number of invocations.
//
//   - cells: a written shared variable's leaves as their bits, the rare
//     leaf that is not exact and determinate (a slot's why, err, set) in
//     pages of a side table allocated on its first such leaf;
//   - leafView: a binding's initial leaves read straight from the
//     caller's bytes (ir.Buffer: WGSL #memory-layouts), never copied —
//     a read-only binding's whole memory, and every binding's value at
//     the dispatch's start (segment.go: priorOf);
//   - leafMap: where each leaf of a variable's type lies in those bytes,
//     and its scalar kind, computed once per entry point.

// extPageBits is log2 of the leaves of a page of the side table.
const extPageBits = 10

// slotExt is a leaf's slot less its bits.
type slotExt struct {
	why int32
	err float64
}

// extPage is a page of the side table: the slots less their bits of
// 1<<extPageBits leaves. A shared page (uniformPage) is every leaf's
// same slotExt, held by any number of cells and never written: put
// copies it first (a whole binding made indeterminate, fill, costs a
// pointer a page, not 16 bytes a leaf).
type extPage struct {
	e      [1 << extPageBits]slotExt
	shared bool
}

// uniformPages caches uniformPage's pages by why.
var uniformPages sync.Map // int32 → *extPage

// uniformPage returns the shared page whose every leaf is indeterminate
// for reason -why (why < 0), any value.
func uniformPage(why int32) *extPage {
	if p, ok := uniformPages.Load(why); ok {
		return p.(*extPage)
	}
	p := &extPage{shared: true}
	for i := range p.e {
		p.e[i].why = why
	}
	got, _ := uniformPages.LoadOrStore(why, p)
	return got.(*extPage)
}

// cells is a shared variable's memory: bits[i] is leaf i's bits; page
// i>>extPageBits, when allocated, holds the rest of its slot. Workers of
// a parallel pass write disjoint leaves (parallel.go) and may allocate
// (or copy, from a shared page) pages concurrently (atomic page
// pointers).
type cells struct {
	bits  []uint32
	pages []atomic.Pointer[extPage]
}

func newCells(n int) *cells {
	return &cells{bits: make([]uint32, n), pages: make([]atomic.Pointer[extPage], (n+(1<<extPageBits)-1)>>extPageBits)}
}

// n returns the number of leaves (0 for nil: a read-only binding has no
// cells).
func (c *cells) n() int32 {
	if c == nil {
		return 0
	}
	return int32(len(c.bits))
}

// get returns leaf i's slot.
func (c *cells) get(i int32) slot {
	s := slot{bits: c.bits[i]}
	if p := c.pages[i>>extPageBits].Load(); p != nil {
		e := &p.e[i&(1<<extPageBits-1)]
		s.why, s.err = e.why, e.err
	}
	return s
}

// put stores v into leaf i.
func (c *cells) put(i int32, v slot) {
	c.bits[i] = v.bits
	pp := &c.pages[i>>extPageBits]
	e := slotExt{why: v.why, err: v.err}
	k := i & (1<<extPageBits - 1)
	for {
		p := pp.Load()
		switch {
		case p == nil:
			if v.why == 0 && math.Float64bits(v.err) == 0 {
				return
			}
			if !pp.CompareAndSwap(nil, new(extPage)) {
				continue
			}
		case p.shared:
			if p.e[k] == e {
				return
			}
			q := &extPage{e: p.e}
			if !pp.CompareAndSwap(p, q) {
				continue
			}
		default:
			p.e[k] = e
			return
		}
	}
}

// fill makes every leaf indeterminate for reason -why (why < 0), any
// value, keeping its bits: shared pages (uniformPage). Not for a
// parallel pass's memory.
func (c *cells) fill(why int32) {
	u := uniformPage(why)
	for i := range c.pages {
		c.pages[i].Store(u)
	}
}

// taintAll makes every leaf that is not yet any value indeterminate for
// reason why (> 0): a sticky variable at the end of a pass (its leaves
// written before it became sticky, or never, still hold their values).
// A page of exact leaves becomes a shared page.
func (c *cells) taintAll(why int32) {
	for pi := range c.pages {
		p := c.pages[pi].Load()
		if p == nil {
			c.pages[pi].Store(uniformPage(-why))
			continue
		}
		if p.shared && p.e[0].why < 0 && p.e[0].err == 0 {
			continue // already any value
		}
		lo := int32(pi) << extPageBits
		for i := lo; i < min(lo+1<<extPageBits, c.n()); i++ {
			if v := c.get(i); v.why >= 0 || v.setID() != 0 {
				v.taint(-why)
				c.put(i, v)
			}
		}
	}
}

// clear zeroes every leaf (a workgroup variable for a new workgroup).
func (c *cells) clear() {
	clear(c.bits)
	for i := range c.pages {
		if p := c.pages[i].Load(); p != nil {
			if p.shared {
				c.pages[i].Store(nil)
				continue
			}
			*p = extPage{}
		}
	}
}

// exact reports whether every leaf is exact and determinate.
func (c *cells) exact() bool {
	for i := range c.pages {
		p := c.pages[i].Load()
		if p == nil {
			continue
		}
		for _, e := range p.e {
			if e != (slotExt{}) {
				return false
			}
		}
	}
	return true
}

// leafAt is a leaf of a type: its byte offset in the host-shareable
// layout and its scalar kind (an atomic's element's).
type leafAt struct {
	off  int32
	kind ir.Kind
}

// leafMap is where the leaves of a shared variable's type lie, in
// ir.Type.ComponentTypes order (ir.Buffer's): ir.LeafOffsets' structural
// layout (an array as its element's layout repeated, so the map's size
// follows the type's declaration, not its leaf count), the fixed part's
// leaves, then, for a runtime-sized array (the type, or its last member),
// the element's leaves repeated every stride bytes from tailOff. Offsets
// are meaningful for host-shareable types only (storage and uniform
// bindings); a workgroup variable's map serves for its kinds.
type leafMap struct {
	lay     ir.LeafLayout
	fixed   int32 // the fixed part's leaves
	tail    int32 // the runtime-sized array's element's leaves (0: none)
	tailOff int32
	stride  int32
	elem    int32 // the runtime-sized array's element's size
	offsets bool  // off is meaningful (else 0)
	dense   bool  // leaf i lies at byte 4i (and every leaf is 4 bytes wide: no f16)
	oneKind bool  // every leaf has one kind, kind0
	kind0   ir.Kind
	f16     bool // some leaf is an f16, 2 bytes wide (ir.ScalarSize)
}

func newLeafMap(t *ir.Type, offsets bool) *leafMap {
	lay := ir.LeafOffsets(t)
	m := &leafMap{lay: lay, fixed: int32(lay.Fixed()), offsets: offsets}
	if ok, off, stride, size, n := lay.Tail(); ok {
		m.tail, m.tailOff, m.stride, m.elem = int32(n), int32(off), int32(stride), int32(size)
	}
	kinds := map[ir.Kind]bool{}
	for _, s := range lay.Scalars() {
		kinds[s.Kind] = true
		m.kind0 = s.Kind
		m.f16 = m.f16 || s.Kind == ir.KindF16
	}
	m.oneKind = len(kinds) <= 1
	m.dense = lay.Dense() && offsets && !m.f16
	return m
}

// get reads leaf i's bits from a binding's bytes b (an f16 leaf: 2
// bytes, into the low half).
func (m *leafMap) get(b []byte, i int32) uint32 {
	if m.dense {
		return binary.LittleEndian.Uint32(b[4*int(i):])
	}
	l := m.at(i)
	if l.kind == ir.KindF16 {
		return uint32(binary.LittleEndian.Uint16(b[l.off:]))
	}
	return binary.LittleEndian.Uint32(b[l.off:])
}

// put writes leaf i's bits v into a binding's bytes b (an f16 leaf: its
// 2 bytes only).
func (m *leafMap) put(b []byte, i int32, v uint32) {
	if m.dense {
		binary.LittleEndian.PutUint32(b[4*int(i):], v)
		return
	}
	l := m.at(i)
	if l.kind == ir.KindF16 {
		binary.LittleEndian.PutUint16(b[l.off:], uint16(v))
		return
	}
	binary.LittleEndian.PutUint32(b[l.off:], v)
}

// count returns the number of leaves in a binding's n bytes (at least
// its fixed part): as ir.Buffer.Leaves, a runtime-sized array holds every
// element whose bytes fit, the last one without its trailing padding.
func (m *leafMap) count(n int) int {
	k := int(m.fixed)
	if m.tail == 0 || m.stride == 0 || n < int(m.tailOff) {
		return k
	}
	es := (n - int(m.tailOff)) / int(m.stride)
	if rest := n - int(m.tailOff) - es*int(m.stride); rest >= int(m.elem) {
		es++
	}
	return k + es*int(m.tail)
}

// at returns leaf i's place.
func (m *leafMap) at(i int32) leafAt {
	off, t := m.lay.At(int(i))
	l := leafAt{kind: t.Kind}
	if m.offsets {
		l.off = int32(off)
	}
	return l
}

// kind returns leaf i's scalar kind (ir.KindVoid past a fixed type's
// leaves, as a runtime-sized array of nothing).
func (m *leafMap) kind(i int32) ir.Kind {
	if i >= m.fixed && m.tail == 0 {
		return ir.KindVoid
	}
	if m.oneKind {
		return m.kind0
	}
	return m.at(i).kind
}

// off returns leaf i's byte offset.
func (m *leafMap) off(i int32) int {
	if m.dense {
		return 4 * int(i)
	}
	return int(m.at(i).off)
}

// sameLayout reports whether two maps place the same kinds of leaves at
// the same offsets (a buffer of one type read as the other), leaf by leaf
// over the fixed parts and one element of the runtime-sized arrays.
func (m *leafMap) sameLayout(o *leafMap) bool {
	if m.fixed != o.fixed || m.tail != o.tail || m.tailOff != o.tailOff || m.stride != o.stride || m.offsets != o.offsets {
		return false
	}
	for i := range m.fixed + m.tail {
		if m.at(i) != o.at(i) {
			return false
		}
	}
	return true
}

// leafView reads a binding's initial leaves from its bytes.
type leafView struct {
	b []byte
	m *leafMap // nil: a workgroup variable (no initial contents)
	n int32    // leaves
}

// at returns leaf i's bits.
func (v *leafView) at(i int32) uint32 { return v.m.get(v.b, i) }

// cells returns the leaves as a new memory.
func (v *leafView) cells() *cells {
	c := newCells(int(v.n))
	if v.m.dense {
		for i := range c.bits {
			c.bits[i] = binary.LittleEndian.Uint32(v.b[4*i:])
		}
		return c
	}
	for i := range c.bits {
		c.bits[i] = v.at(int32(i))
	}
	return c
}
