package testcase

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// Fill says how gpudiff makes up the inputs a user does not give: a
// function kernel's arguments, a compute entry point's bindings (exec
// --fill; ARCHITECTURE.md "Entry points as written (compute)"). Its
// values count the scalar leaves of what is filled (one binding, or one
// parameter across the invocations) in order, k = 0, 1, 2, …:
//
//   - FillZero: every leaf 0 (false).
//   - FillIota: leaf k is k (bool: k odd), so an array of u32 holds its
//     element indices.
//   - FillSmall: small non-negative values: integers 1 + k mod 16, f32
//     (1 + k mod 16) / 4, i.e. 0.25 to 4 (bool: k odd). Counts are never 0
//     and indices stay below 17, so real shaders loop a few times and
//     index in bounds.
//   - FillEdges: gen.Inputs' edge values first (0, ±1, INT_MIN, INT_MAX,
//     ±2^23), then seeded small pseudo-random ones: what finds a stack's
//     arithmetic bugs; a shader that loops to a count it reads may run
//     past the step limit (oracle.OutOfDomain).
//   - FillRandom: seeded, uniform over the type's values for integers and
//     bools, f32 uniform in [-1, 1) in steps of 2^-23.
//
// FillZero, FillIota and FillSmall ignore the seed.
type Fill string

const (
	FillZero   Fill = "zero"
	FillIota   Fill = "iota"
	FillSmall  Fill = "small"
	FillEdges  Fill = "edges"
	FillRandom Fill = "random"
)

// Fills are the fills, in the order help text lists them.
var Fills = []Fill{FillZero, FillIota, FillSmall, FillEdges, FillRandom}

// ParseFill parses a --fill value; the error lists the fills.
func ParseFill(s string) (Fill, error) {
	for _, f := range Fills {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Fills))
	for i, f := range Fills {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown fill %q (want %s)", s, strings.Join(names, ", "))
}

// FillArgs returns n invocations of arguments for params filled by fill
// from seed: result[i][j] is parameter j of invocation i. FillEdges is
// gen.Inputs exactly. For the other fills a parameter's leaves are
// counted across the invocations (invocation i's first leaf of a
// parameter with L leaves is k = i·L), so iota gives invocation i the
// argument i.
func FillArgs(fill Fill, seed uint64, params []*ir.Param, n int) [][]ir.Value {
	if fill == FillEdges || fill == "" {
		return gen.Inputs(seed, params, n)
	}
	out := make([][]ir.Value, n)
	for i := range out {
		out[i] = make([]ir.Value, len(params))
	}
	for j, p := range params {
		fl := newFiller(fill, seed+uint64(j)*0x9e3779b97f4a7c15, n)
		for i := range out {
			out[i][j] = fl.value(p.T)
		}
	}
	return out
}

// FillBindings fills every storage and uniform binding of module m for
// its entry point f, dispatched as wg workgroups, as buffers (ir.Buffer):
// FillEdges is gen.EntryBindings exactly; otherwise each binding's leaves
// are counted from 0, written straight into its bytes (4 bytes per leaf:
// no ir.Value tree, issue 26). A runtime-sized array (a whole binding or a
// struct's last member) gets one element per invocation of the dispatch;
// an atomic takes its scalar's value.
func FillBindings(fill Fill, seed uint64, m *ir.Module, f *ir.Func, wg [3]uint32) map[string]ir.Buffer {
	if fill == FillEdges || fill == "" {
		return MustBindingBuffers(m, gen.EntryBindings(seed, m, f, wg))
	}
	ws := f.WorkgroupSize
	n := int(ws[0] * ws[1] * ws[2] * wg[0] * wg[1] * wg[2])
	out := map[string]ir.Buffer{}
	for i, v := range m.Shared {
		if v.Space == ir.SpaceWorkgroup {
			continue
		}
		fl := newFiller(fill, seed+uint64(i)*0x9e3779b97f4a7c15, n)
		b := ir.BufferOfLength(v.T, n)
		if fill != FillZero {
			for j := range b.Leaves() {
				b.SetLeaf(j, fl.scalar(b.LeafType(j)).Bits)
			}
		}
		out[v.Name] = b
	}
	return out
}

// filler makes the leaves of one binding or parameter in order.
type filler struct {
	fill Fill
	k    uint32 // the next leaf's index
	rng  uint64 // FillRandom's splitmix64 state
	n    int    // a runtime-sized array's length
}

func newFiller(fill Fill, seed uint64, n int) *filler {
	return &filler{fill: fill, rng: seed, n: n}
}

// value fills a value of type t (binding shapes: an atomic as its scalar,
// a runtime-sized array with n elements).
func (fl *filler) value(t *ir.Type) ir.Value {
	switch t.Kind {
	case ir.KindAtomic:
		return fl.value(t.Elem)
	case ir.KindVec, ir.KindArray, ir.KindMat, ir.KindRuntimeArray:
		count := t.Len
		if t.Kind == ir.KindRuntimeArray {
			count = fl.n
		}
		es := make([]ir.Value, count)
		for i := range es {
			es[i] = fl.value(t.Elem)
		}
		return ir.CompositeVal(t, es...)
	case ir.KindStruct:
		es := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = fl.value(f.Type)
		}
		return ir.CompositeVal(t, es...)
	}
	return fl.scalar(t)
}

// scalar fills the next leaf, of scalar type t.
func (fl *filler) scalar(t *ir.Type) ir.Value {
	k := fl.k
	fl.k++
	switch fl.fill {
	case FillZero:
		return ir.Zero(t)
	case FillRandom:
		r := fl.next()
		switch t.Kind {
		case ir.KindBool:
			return ir.BoolVal(r&1 == 1)
		case ir.KindI32:
			return ir.I32Val(int32(uint32(r)))
		case ir.KindU32:
			return ir.U32Val(uint32(r))
		case ir.KindF32:
			// 24 random bits: a multiple of 2^-23 in [-1, 1), exact in f32.
			return ir.F32Val(float32(int32(r>>40)-(1<<23)) / (1 << 23))
		}
	case FillIota:
		return scalarOf(t, k, float32(k))
	case FillSmall:
		s := 1 + k%16
		return scalarOf(t, s, float32(s)/4)
	}
	return ir.Zero(t)
}

// scalarOf is integer i or float x as a scalar of type t (bool: i odd).
func scalarOf(t *ir.Type, i uint32, x float32) ir.Value {
	switch t.Kind {
	case ir.KindBool:
		return ir.BoolVal(i%2 == 1)
	case ir.KindI32:
		return ir.I32Val(int32(i))
	case ir.KindU32:
		return ir.U32Val(i)
	case ir.KindF32:
		return ir.F32Val(x)
	}
	return ir.Zero(t)
}

// next is splitmix64 (Steele, Lea, Flood 2014).
func (fl *filler) next() uint64 {
	fl.rng += 0x9e3779b97f4a7c15
	z := fl.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
