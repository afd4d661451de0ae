package spirv

import (
	"fmt"
	"regexp"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

func shared(name string, t *ir.Type) *ir.Ident { return &ir.Ident{Name: name, T: t, Ref: ir.RefShared} }

// f16Bindings is a compute entry point "main" (workgroup size 1) with
// f16 in every kind of binding:
//
//	struct S { a: f16, b: vec3<f16>, c: f16, d: vec2<f16>, m: mat2x3<f16> }
//	@group(0) @binding(0) var<storage, read_write> s: S;
//	@group(0) @binding(1) var<uniform> u: S;
//	@group(0) @binding(2) var<storage, read_write> rt: array<vec3<f16>>;
//	@group(0) @binding(3) var<storage, read_write> m2: mat2x2<f16>;
//	@group(0) @binding(4) var<storage, read_write> a3: array<f16, 3>;
//	var<workgroup> w: vec4<f16>;
//	fn main() {
//	  s.a = u.a + 1.0h; s.m = u.m; rt[1] = s.b; m2 = m2 * 2.0h;
//	  w = vec4<f16>(s.d, u.c, a3[2]); a3[0] = w.y; s.d = u.m[1].yz;
//	}
func f16Bindings() *ir.Module {
	sd := &ir.StructDecl{Name: "S", Fields: []ir.Field{
		{Name: "a", Type: ir.F16}, {Name: "b", Type: v3h}, {Name: "c", Type: ir.F16},
		{Name: "d", Type: v2h}, {Name: "m", Type: ir.MatOf(2, 3, ir.F16)}}}
	st := ir.StructType(sd)
	rtT := &ir.Type{Kind: ir.KindRuntimeArray, Elem: v3h}
	m2T, a3T := ir.MatOf(2, 2, ir.F16), ir.ArrayOf(ir.F16, 3)
	s, u, rt, m2, a3, w := shared("s", st), shared("u", st), shared("rt", rtT), shared("m2", m2T), shared("a3", a3T), shared("w", v4h)
	body := []ir.Stmt{
		assign(member(s, 0), bin(ir.OpAdd, member(u, 0), f16(1))),
		assign(member(s, 4), member(u, 4)),
		assign(index(rt, u32(1)), member(s, 1)),
		assign(m2, bin(ir.OpMul, m2, f16(2))),
		assign(w, cons(v4h, member(s, 3), member(u, 2), index(a3, u32(2)))),
		assign(index(a3, u32(0)), swz(w, 1)),
		assign(member(s, 3), swz(index(member(u, 4), u32(1)), 1, 2)),
	}
	main := fn("main", nil, ir.Void, body...)
	main.Stage, main.WorkgroupSize = ir.StageCompute, [3]uint32{1, 1, 1}
	rw := ir.AccessReadWrite
	return &ir.Module{File: "test.wgsl", Structs: []*ir.StructDecl{sd}, Funcs: []*ir.Func{main}, Shared: []*ir.SharedVar{
		{Name: "s", T: st, Space: ir.SpaceStorage, Access: rw, Binding: 0},
		{Name: "u", T: st, Space: ir.SpaceUniform, Binding: 1},
		{Name: "rt", T: rtT, Space: ir.SpaceStorage, Access: rw, Binding: 2},
		{Name: "m2", T: m2T, Space: ir.SpaceStorage, Access: rw, Binding: 3},
		{Name: "a3", T: a3T, Space: ir.SpaceStorage, Access: rw, Binding: 4},
		{Name: "w", T: v4h, Space: ir.SpaceWorkgroup},
	}}
}

// blockOf returns the id of the pointee of the variable named name in
// text (our disassembly with debug names).
func blockOf(t *testing.T, text, name string) string {
	t.Helper()
	v := regexp.MustCompile(`OpName %(\d+) "` + name + `"\n`).FindStringSubmatch(text)
	require.NotNil(t, v, "no variable %s", name)
	ptr := regexp.MustCompile(`%` + v[1] + ` = OpVariable %(\d+) `).FindStringSubmatch(text)
	require.NotNil(t, ptr)
	pointee := regexp.MustCompile(`%` + ptr[1] + ` = OpTypePointer \w+ %(\d+)`).FindStringSubmatch(text)
	require.NotNil(t, pointee)
	return pointee[1]
}

// memberDecorations returns "member Decoration literal…" for each
// OpMemberDecorate of struct id in text.
func memberDecorations(text, id string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`OpMemberDecorate %`+id+` (\d+ \w+(?: \d+)?)\n`).FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestF16BindingLayout checks the capabilities and the explicit layout of
// f16 in bindings against WGSL's layout, derived by hand (WGSL
// #alignment-and-size: f16 align 2 size 2, vec2<f16> 4/4, vec3<f16> 8/6,
// matCxR<f16> align of vecR, column stride roundUp(align, size)):
//
//   - S: a at 0, b (align 8) at 8, c at 14, d (align 4) at 16, m
//     (mat2x3<f16>, align 8) at 24, MatrixStride 8;
//   - u, a Uniform S: the same offsets, m split into two vec3<f16>
//     members at 24 and 32 (MatrixStride 8 is not a multiple of 16,
//     Vulkan's extended layout; std140.go);
//   - array<vec3<f16>>: ArrayStride roundUp(8, 6) = 8; mat2x2<f16>:
//     MatrixStride 4; array<f16, 3>: ArrayStride 2;
//   - capabilities Shader, Float16, StorageBuffer16BitAccess (storage)
//     and UniformAndStorageBuffer16BitAccess (uniform); the workgroup
//     vec4<f16> needs no more.
func TestF16BindingLayout(t *testing.T) {
	for _, o := range bothModes {
		o.DebugNames = true
		words := emitValid(t, f16Bindings(), "main", o)
		text := dis(t, words)
		caps := capabilities(t, words)
		sort.Strings(caps)
		assert.Equal(t, []string{"Float16", "Shader", "StorageBuffer16BitAccess", "UniformAndStorageBuffer16BitAccess"}, caps)

		assert.Equal(t, []string{"0 Offset 0", "1 Offset 8", "2 Offset 14", "3 Offset 16", "4 Offset 24", "4 ColMajor", "4 MatrixStride 8"},
			memberDecorations(text, blockOf(t, text, "s")))
		assert.Equal(t, []string{"0 Offset 0", "1 Offset 8", "2 Offset 14", "3 Offset 16", "4 Offset 24", "5 Offset 32"},
			memberDecorations(text, blockOf(t, text, "u")))
		assert.Contains(t, memberDecorations(text, blockOf(t, text, "m2")), "0 MatrixStride 4")
		for name, stride := range map[string]int{"rt": 8, "a3": 2} {
			blk := blockOf(t, text, name)
			member := regexp.MustCompile(`%` + blk + ` = OpTypeStruct %(\d+)\n`).FindStringSubmatch(text)
			require.NotNil(t, member, name)
			assert.Regexp(t, fmt.Sprintf(`OpDecorate %%%s ArrayStride %d\n`, member[1], stride), text, name)
		}
	}
}

// f16Fragment is a fragment entry point with f16 stage IO:
//
//	@fragment fn fs(@location(0) c: vec4<f16>, @location(1) @interpolate(flat) k: f16)
//	    -> @location(0) vec4<f16> { return c * k; }
func f16Fragment() *ir.Module {
	c, k := param("c", v4h), param("k", ir.F16)
	fs := fn("fs", []*ir.Param{
		{Name: "c", T: v4h, HasLocation: true, Location: 0},
		{Name: "k", T: ir.F16, HasLocation: true, Location: 1, Interp: ir.Interpolation{Type: ir.InterpFlat}},
	}, v4h, ret(bin(ir.OpMul, c, k)))
	fs.Stage = ir.StageFragment
	return &ir.Module{File: "test.wgsl", Funcs: []*ir.Func{fs}}
}

// TestF16StageIO checks that f16 Input and Output variables declare
// StorageInputOutput16 beside Float16 and keep their Locations (and the
// flat input its Flat).
func TestF16StageIO(t *testing.T) {
	words := emitValid(t, f16Fragment(), "fs", DefaultOptions())
	caps := capabilities(t, words)
	sort.Strings(caps)
	assert.Equal(t, []string{"Float16", "Shader", "StorageInputOutput16"}, caps)
	text := dis(t, words)
	assert.Regexp(t, `OpDecorate %\d+ Location 1\n\s+OpDecorate %\d+ Flat\n`, text)
	assert.Len(t, regexp.MustCompile(`OpTypePointer (Input|Output) %\d+`).FindAllString(text, -1), 3)
}

// TestF16UniformMatrixArrays checks arrays of f16 matrices in a Uniform
// block, the shapes WGSL's uniform constraints allow (an element stride
// that is a multiple of 16): array<mat4x2<f16>, 2> (each matrix 16
// bytes, columns 4 apart) and array<mat4x4<f16>, 2> (32 bytes, columns 8
// apart). Each element is a struct of its columns at those offsets, the
// array strided 16 and 32 (std140.go); a load at a run-time index
// rebuilds the matrix.
func TestF16UniformMatrixArrays(t *testing.T) {
	for _, c := range []struct {
		rows, stride, col int
	}{{2, 16, 4}, {4, 32, 8}} {
		mt := ir.MatOf(4, c.rows, ir.F16)
		at := ir.ArrayOf(mt, 2)
		out := &ir.SharedVar{Name: "out", T: mt, Space: ir.SpaceStorage, Access: ir.AccessReadWrite, Binding: 1}
		u := &ir.SharedVar{Name: "u", T: at, Space: ir.SpaceUniform}
		li := param("li", ir.U32)
		main := fn("main", []*ir.Param{{Name: "li", T: ir.U32, Builtin: "local_invocation_index"}}, ir.Void,
			assign(shared("out", mt), index(shared("u", at), li)))
		main.Stage, main.WorkgroupSize = ir.StageCompute, [3]uint32{2, 1, 1}
		m := &ir.Module{File: "test.wgsl", Funcs: []*ir.Func{main}, Shared: []*ir.SharedVar{out, u}}
		t.Run(at.String(), func(t *testing.T) {
			text := dis(t, emitValid(t, m, "main", DefaultOptions()))
			blk := blockOf(t, text, "u")
			arr := regexp.MustCompile(`%` + blk + ` = OpTypeStruct %(\d+)\n`).FindStringSubmatch(text)
			require.NotNil(t, arr)
			assert.Regexp(t, fmt.Sprintf(`OpDecorate %%%s ArrayStride %d\n`, arr[1], c.stride), text)
			elem := regexp.MustCompile(`%` + arr[1] + ` = OpTypeArray %(\d+) `).FindStringSubmatch(text)
			require.NotNil(t, elem)
			var want []string
			for j := 0; j < 4; j++ {
				want = append(want, fmt.Sprintf("%d Offset %d", j, j*c.col))
			}
			assert.Equal(t, want, memberDecorations(text, elem[1]))
		})
	}
}
