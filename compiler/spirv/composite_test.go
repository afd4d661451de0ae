package spirv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// Structs S { a: i32, b: bool, c: vec3<f32> } (WGSL layout: a@0, b@4,
// c@16, size 32) and T { s: array<S, 2>, flag: bool, v: vec2<bool> }
// (s@0, flag@64, v@72, size 80): bools inside structs and arrays, vec3
// alignment, and arrays of structs cross the ABI.
func compositeModule() (*ir.Module, *ir.Type, *ir.Type) {
	sDecl := &ir.StructDecl{Name: "S", Fields: []ir.Field{{Name: "a", Type: ir.I32}, {Name: "b", Type: ir.Bool}, {Name: "c", Type: v3f}}}
	S := ir.StructType(sDecl)
	arrS := ir.ArrayOf(S, 2)
	tDecl := &ir.StructDecl{Name: "T", Fields: []ir.Field{{Name: "s", Type: arrS}, {Name: "flag", Type: ir.Bool}, {Name: "v", Type: v2b}}}
	T := ir.StructType(tDecl)
	x, arr, pick, i := param("x", S), param("arr", arrS), param("pick", ir.Bool), param("i", ir.I32)
	tv := local("t", T)
	w := letRef("w", arrS)
	gs := global("gs", S)
	k := fn("k", params("x", S, "arr", arrS, "pick", ir.Bool, "i", ir.I32), T,
		varDecl("t", T, nil),
		assign(member(tv, 0), arr),
		assign(swz(member(index(member(tv, 0), i), 2), 1), swz(member(x, 2), 2)),
		assign(member(tv, 1), member(sel(x, index(arr, i32(0)), pick), 1)),
		assign(member(tv, 2), vecOf(v2b, member(x, 1), un(ir.OpNot, pick))),
		letDecl("w", sel(arr, cons(arrS, x, x), pick)),
		assign(member(index(member(tv, 0), i32(0)), 0), bin(ir.OpAdd, member(index(w, i32(0)), 0), member(index(w, i32(1)), 0))),
		assign(gs, x),
		assign(member(gs, 1), un(ir.OpNot, member(gs, 1))),
		ret(tv))
	m := module(k)
	m.Structs = []*ir.StructDecl{sDecl, tDecl}
	m.Globals = []*ir.Global{{Name: "gs", T: S}}
	return m, S, T
}

func TestCompositesOnGPU(t *testing.T) {
	m, S, T := compositeModule()
	arrS := ir.ArrayOf(S, 2)
	abi, err := ir.NewKernelABI(m, "k")
	require.NoError(t, err)
	assert.Equal(t, 32, ir.SizeOf(S))
	assert.Equal(t, 80, ir.SizeOf(T))
	v3 := func(a, b, c float32) ir.Value { return ir.CompositeVal(v3f, fv(a), fv(b), fv(c)) }
	s := func(a int32, b bool, c ir.Value) ir.Value { return ir.CompositeVal(S, iv(a), bv(b), c) }
	tt := func(s0, s1 ir.Value, flag bool, v0, v1 bool) ir.Value {
		return ir.CompositeVal(T, ir.CompositeVal(arrS, s0, s1), bv(flag), ir.CompositeVal(v2b, bv(v0), bv(v1)))
	}
	x := s(7, true, v3(1, 2, 3))
	arr := ir.CompositeVal(arrS, s(10, false, v3(4, 5, 6)), s(20, true, v3(7, 8, 9)))
	args := [][]ir.Value{
		{x, arr, bv(false), iv(1)},
		{x, arr, bv(true), iv(-1)}, // -1 is clamped to 1 in portable mode
		{x, arr, bv(false), iv(0)},
	}
	// Derived by hand from the kernel: t.s = arr; t.s[i].c.y = x.c.z (3);
	// flag = select(x, arr[0], pick).b; v = (x.b, !pick);
	// t.s[0].a = w[0].a + w[1].a with w = pick ? (x, x) : arr; gs = x with b negated.
	want := [][]ir.Value{
		{tt(s(30, false, v3(4, 5, 6)), s(20, true, v3(7, 3, 9)), true, true, true), s(7, false, v3(1, 2, 3))},
		{tt(s(14, false, v3(4, 5, 6)), s(20, true, v3(7, 3, 9)), false, true, false), s(7, false, v3(1, 2, 3))},
		{tt(s(30, false, v3(4, 3, 6)), s(20, true, v3(7, 8, 9)), true, true, true), s(7, false, v3(1, 2, 3))},
	}
	emitValid(t, m, "k", Options{Mode: Raw})
	got := runGPU(t, m, "k", DefaultOptions(), args)
	require.Len(t, abi.Outputs, 2)
	for i := range want {
		for j := range want[i] {
			assert.True(t, ir.Equal(want[i][j], got[i][j]), "invocation %d output %s:\n got %v\nwant %v", i, abi.Outputs[j].Name, got[i][j], want[i][j])
		}
	}
}

// TestVectorAccessOnGPU: swizzles (read, multi-component, one-component
// store), a dynamic index into a vector variable and into a vector value,
// constructors from pieces and splats, on v = (1, 2, 3, 4):
// u = v.wzyx = (4, 3, 2, 1); u.x = v.y → (2, 3, 2, 1); u[i] = 9;
// result = vec4(u.xy, v.zz) + vec4(v[i]) (splat).
func TestVectorAccessOnGPU(t *testing.T) {
	v, i, u := param("v", v4f), param("i", ir.U32), local("u", v4f)
	m := module(fn("k", params("v", v4f, "i", ir.U32), v4f,
		varDecl("u", v4f, swz(v, 3, 2, 1, 0)),
		assign(swz(u, 0), swz(v, 1)),
		assign(index(u, i), f32(9)),
		ret(bin(ir.OpAdd, vecOf(v4f, swz(u, 0, 1), swz(v, 2, 2)), cons(v4f, index(v, i))))))
	vec := func(a, b, c, d float32) ir.Value { return ir.CompositeVal(v4f, fv(a), fv(b), fv(c), fv(d)) }
	in := vec(1, 2, 3, 4)
	cases := []gpuCase{{"swizzles", m,
		[][]ir.Value{{in, uv(0)}, {in, uv(1)}, {in, uv(3)}, {in, uv(7)}},
		[]ir.Value{
			vec(9+1, 3+1, 3+1, 3+1), // u = (9, 3, 2, 1), v[0] = 1
			vec(2+2, 9+2, 3+2, 3+2), // u = (2, 9, 2, 1), v[1] = 2
			vec(2+4, 3+4, 3+4, 3+4), // u[3] = 9, v[3] = 4
			vec(2+4, 3+4, 3+4, 3+4), // 7 is clamped to 3
		}}}
	emitValid(t, m, "k", Options{Mode: Raw})
	checkGPU(t, DefaultOptions(), cases)
}

// TestSelectCompositesValidate: select on arrays, structs (with bool
// members) and nested arrays of vectors, with scalar and vector
// conditions, in both modes.
func TestSelectCompositesValidate(t *testing.T) {
	m, S, _ := compositeModule()
	arr := ir.ArrayOf(ir.ArrayOf(v3b, 2), 3)
	c := param("c", ir.Bool)
	k2 := fn("k2", params("p", arr, "q", arr, "c", ir.Bool, "s", S, "vc", v3b), arr,
		letDecl("r", sel(param("p", arr), param("q", arr), c)),
		letDecl("rs", sel(param("s", S), cons(S), c)),
		letDecl("rv", sel(vecOf(v3b, boolLit(true), boolLit(false), c), index(index(param("p", arr), i32(1)), i32(0)), param("vc", v3b))),
		ret(letRef("r", arr)))
	m.Funcs = append(m.Funcs, k2)
	for _, o := range bothModes {
		emitValid(t, m, "k2", o)
	}
}
