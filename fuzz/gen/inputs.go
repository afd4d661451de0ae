package gen

import (
	"github.com/gpudiff/gpudiff/ir"
)

// EdgeInvocations is the number of leading invocations Inputs fills with
// edge values.
const EdgeInvocations = 7

// Inputs returns n invocations of arguments for params: result[i][j] is
// parameter j of invocation i. It is deterministic in (seed, the parameter
// types, n).
//
// The first EdgeInvocations invocations cover the edge values of every
// scalar component: i32 0, 1, -1, INT_MIN, INT_MAX, 2, -2; u32 0, 1,
// 0xFFFFFFFF, 0x80000000, 2; f32 0, 1, -1, ±2^23 (the exact domain's
// bounds), 2, -2; bool false, true — component c of parameter j in
// invocation i takes edge (i + j + c) mod (number of edges), so every
// component meets every edge value. Later invocations are pseudo-random,
// biased to small magnitudes. f32 values are always integers with
// |v| ≤ FloatBound (the exact domain), so every generated program computes
// exactly on them.
func Inputs(seed uint64, params []*ir.Param, n int) [][]ir.Value {
	r := &chooser{src: &splitmix{s: mix64(seed ^ 0x243f6a8885a308d3)}}
	out := make([][]ir.Value, n)
	for i := range out {
		row := make([]ir.Value, len(params))
		for j, p := range params {
			comp := 0
			row[j] = inputValue(r, p.T, i, j, &comp)
		}
		out[i] = row
	}
	return out
}

func inputValue(r *chooser, t *ir.Type, inv, param int, comp *int) ir.Value {
	switch t.Kind {
	case ir.KindVec, ir.KindArray, ir.KindMat: // a matrix: its columns
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = inputValue(r, t.Elem, inv, param, comp)
		}
		return ir.CompositeVal(t, es...)
	case ir.KindStruct:
		es := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = inputValue(r, f.Type, inv, param, comp)
		}
		return ir.CompositeVal(t, es...)
	}
	k := inv + param + *comp
	*comp++
	if inv < EdgeInvocations {
		var edges []int64
		switch t.Kind {
		case ir.KindBool:
			edges = []int64{0, 1}
		case ir.KindI32:
			edges = edgesI32
		case ir.KindU32:
			edges = edgesU32
		case ir.KindF32:
			edges = edgesF32
		case ir.KindF16:
			edges = edgesF16
		}
		return scalarValue(t, edges[k%len(edges)])
	}
	switch t.Kind {
	case ir.KindBool:
		return ir.BoolVal(r.chance(50))
	case ir.KindI32:
		switch r.weighted(50, 25, 25) {
		case 1:
			return scalarValue(t, int64(r.between(-65536, 65536)))
		case 2:
			return ir.I32Val(int32(r.u32()))
		}
		return scalarValue(t, int64(r.between(-16, 16)))
	case ir.KindU32:
		switch r.weighted(50, 25, 25) {
		case 1:
			return scalarValue(t, int64(r.between(0, 65536)))
		case 2:
			return ir.U32Val(r.u32())
		}
		return scalarValue(t, int64(r.between(0, 32)))
	case ir.KindF16:
		if r.chance(40) {
			return scalarValue(t, int64(r.between(-hBound, hBound)))
		}
		return scalarValue(t, int64(r.between(-16, 16)))
	}
	switch r.weighted(50, 30, 20) {
	case 1:
		return scalarValue(t, int64(r.between(-4096, 4096)))
	case 2:
		return scalarValue(t, int64(r.between(-FloatBound, FloatBound)))
	}
	return scalarValue(t, int64(r.between(-16, 16)))
}

// Bindings returns the initial contents of every storage and uniform
// binding of m (a compute-profile program's module), by variable name, in
// the shape testcase.ComputeCase.Buffers and interp's dispatch take (an atomic
// as its scalar). It is deterministic in (seed, the bindings' names and
// types): element i of a top-level array is filled as Inputs fills
// invocation i, so the first EdgeInvocations elements cover the edge
// values of every scalar component and f32 values stay in the exact
// domain (f16 values are integers of magnitude ≤ 1024, compute_f16.go). A runtime-sized array (the compute profile's inp with
// Profile.UniformLoops) gets as many elements as the longest fixed-size
// array binding (out: one per invocation of the dispatch). Workgroup
// variables start zeroed (WGSL #var-and-value) and are not listed.
func Bindings(seed uint64, m *ir.Module) map[string]ir.Value {
	r := &chooser{src: &splitmix{s: mix64(seed ^ 0x13198a2e03707344)}}
	out := map[string]ir.Value{}
	runtimeLen := 0
	for _, v := range m.Shared {
		if v.Space != ir.SpaceWorkgroup && v.T.Kind == ir.KindArray {
			runtimeLen = max(runtimeLen, v.T.Len)
		}
	}
	for j, v := range m.Shared {
		if v.Space == ir.SpaceWorkgroup {
			continue
		}
		if v.T.Kind == ir.KindArray || v.T.Kind == ir.KindRuntimeArray {
			n := v.T.Len
			if v.T.Kind == ir.KindRuntimeArray {
				n = runtimeLen
			}
			es := make([]ir.Value, n)
			for i := range es {
				comp := 0
				es[i] = bindingLeaf(r, v.T.Elem, i, j, &comp)
			}
			out[v.Name] = ir.Value{Type: v.T, Elems: es}
			continue
		}
		comp := 0
		out[v.Name] = bindingLeaf(r, v.T, 0, j, &comp)
	}
	return out
}

// bindingLeaf is inputValue with atomics taken as their scalars.
func bindingLeaf(r *chooser, t *ir.Type, inv, param int, comp *int) ir.Value {
	if t.Kind == ir.KindAtomic {
		t = t.Elem
	}
	return inputValue(r, t, inv, param, comp)
}
