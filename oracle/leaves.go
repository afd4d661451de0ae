package oracle

import (
	"strconv"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Leaves steps through an output's scalar leaves in ComponentTypes order
// (a matrix column by column), whichever form holds the value: an
// ir.Value tree or an ir.Buffer (Expected.Buffer). It allocates no
// per-leaf state: a path is built only when asked for (Path), for a leaf
// that disagrees or a row a table shows.
type Leaves struct {
	buf   ir.BufferLeaves
	isBuf bool
	b     ir.Buffer
	i     int // leaves returned so far
	root  ir.Value
	stack []leafFrame // Value form: the composites above the next leaf
	done  bool
}

type leafFrame struct {
	v ir.Value // a composite
	k int      // the child returned last (Next) or being descended
}

// Cursor returns e's leaves from the first: Buffer's when its Type is
// set, else Value's.
func (e Expected) Cursor() Leaves {
	if e.Buffer.Type != nil {
		return Leaves{buf: e.Buffer.LeafAccess(), isBuf: true, b: e.Buffer}
	}
	return Leaves{root: e.Value}
}

// Next returns the next leaf and true, or false past the last one.
func (c *Leaves) Next() (ir.Value, bool) {
	if c.isBuf {
		if c.i >= c.buf.Len() {
			return ir.Value{}, false
		}
		c.i++
		return c.buf.At(c.i - 1), true
	}
	if c.done {
		return ir.Value{}, false
	}
	if c.stack == nil {
		if c.root.Type == nil {
			c.done = true
			return ir.Value{}, false
		}
		if !isComposite(c.root.Type.Kind) {
			c.done = true
			c.i++
			return c.root, true
		}
		c.stack = append(make([]leafFrame, 0, 8), leafFrame{v: c.root, k: -1})
	}
	for len(c.stack) > 0 {
		top := &c.stack[len(c.stack)-1]
		top.k++
		if top.k >= len(top.v.Elems) {
			c.stack = c.stack[:len(c.stack)-1]
			continue
		}
		e := top.v.Elems[top.k]
		if isComposite(e.Type.Kind) {
			c.stack = append(c.stack, leafFrame{v: e, k: -1})
			continue
		}
		c.i++
		return e, true
	}
	c.done = true
	return ir.Value{}, false
}

// Index returns the index of the leaf Next returned last.
func (c *Leaves) Index() int { return c.i - 1 }

// Path returns the path of the leaf Next returned last, after name: an
// element, column or component index in brackets, a struct member after
// a dot ("out[17].pos[1]"; name alone for a scalar) — the Value walk's
// paths and ir.Buffer.LeafPath's alike.
func (c *Leaves) Path(name string) string {
	if c.isBuf {
		return name + c.b.LeafPath(c.i-1)
	}
	var b strings.Builder
	b.WriteString(name)
	for _, f := range c.stack {
		if f.v.Type.Kind == ir.KindStruct {
			b.WriteByte('.')
			b.WriteString(f.v.Type.Struct.Fields[f.k].Name)
		} else {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(f.k))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// Count returns the number of leaves of e.
func (e Expected) Count() int {
	if e.Buffer.Type != nil {
		return e.Buffer.LeafAccess().Len()
	}
	if e.Value.Type == nil {
		return 0
	}
	return countLeaves(e.Value)
}

func countLeaves(v ir.Value) int {
	if !isComposite(v.Type.Kind) {
		return 1
	}
	n := 0
	for _, e := range v.Elems {
		n += countLeaves(e)
	}
	return n
}

// Walk visits e's structure and leaves (ir.LeafVisitor) from either form.
func (e Expected) Walk(f ir.LeafVisitor) {
	if e.Buffer.Type != nil {
		e.Buffer.Walk(f)
		return
	}
	if e.Value.Type == nil {
		return
	}
	ir.WalkValue(e.Value, f)
}

// isComposite reports whether a value of kind k has components (a
// matrix's are its columns, each a vector): a leaf is anything else.
func isComposite(k ir.Kind) bool {
	switch k {
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray, ir.KindStruct, ir.KindMat:
		return true
	}
	return false
}
