package spirv

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// The f16 lowerings ir.Verify does not let through yet: bitcasts that
// change the component count (vec2<f16> ↔ u32, vec4<f16> ↔ vec2<u32>:
// WGSL #bitcast-builtin allows them, ir's Bitcast keeps the width) and
// modf/frexp of f16 (ir.ModfResult and FrexpResult give f32's structs).
// These tests emit them without ir.Verify (emitUnverified) so the
// lowerings are checked by spirv-val, and by lavapipe through vkrun where
// it builds, before ir admits them.

// emitUnverified is Emit's function-kernel path without ir.Verify.
func emitUnverified(t *testing.T, m *ir.Module, kernel string, opts Options) []uint32 {
	t.Helper()
	m = ir.DirectVariableAccess(m)
	abi, err := ir.NewKernelABI(m, kernel)
	require.NoError(t, err)
	e := newEmitter(m, opts, allWorkarounds)
	e.abi = abi
	e.header()
	fns := m.CallGraph(kernel)
	for _, fn := range fns {
		e.declareFunc(fn)
	}
	for _, g := range m.GlobalsUsed(kernel) {
		e.declareGlobal(g)
	}
	for _, fn := range fns {
		e.function(fn)
	}
	e.entryPoint(m.Func(kernel))
	require.Empty(t, e.errs)
	words := e.b.words()
	requireValid(t, words)
	return words
}

// runUnverified runs kernel k of m (emitted by emitUnverified) for args
// through vkrun on the system's lavapipe and returns the output records,
// or nil where vkrun does not build (the spirv-val check stands alone).
func runUnverified(t *testing.T, m *ir.Module, words []uint32, args [][]ir.Value) [][]ir.Value {
	t.Helper()
	if !vkrunAvailable() {
		t.Logf("not run: %s", vkrunErr)
		return nil
	}
	runner := vkrun(t)
	abi, err := ir.NewKernelABI(m, "k")
	require.NoError(t, err)
	in, err := abi.EncodeInputs(args)
	require.NoError(t, err)
	if len(in) == 0 {
		in = make([]byte, 4)
	}
	outs := vkRun(t, runner, words, EntryPoint, [3]uint32{uint32((len(args) + ir.WorkgroupSize - 1) / ir.WorkgroupSize), 1, 1},
		[]vkBuffer{{data: in}, {data: make([]byte, len(args)*abi.OutputStride)}})
	vals, err := abi.DecodeOutputs(outs[1], len(args))
	require.NoError(t, err)
	return vals
}

// TestF16WideningBitcasts: bitcast<u32>(vec2<f16>), bitcast<vec2<f16>>(u32),
// bitcast<vec2<u32>>(vec4<f16>) are OpBitcast (SPIR-V §3.52.14: between
// types of one total width, the lower-numbered components of the wider
// vector in the lower-order bits of each component of the narrower — WGSL's
// little-endian reading). By hand: vec2<f16>(1.0, -2.0) = 0x3c00, 0xc000
// → 0xc0003c00; 0x7bff0001 → (2^-24, 65504); vec4<f16>(0.5, 1.5, -0.0, 2.0)
// → (0x3e003800, 0x40008000).
func TestF16WideningBitcasts(t *testing.T) {
	h := func(f float32) ir.Value { return ir.F16Val(f) }
	cases := []struct {
		name string
		from *ir.Type
		to   *ir.Type
		in   ir.Value
		want ir.Value
	}{
		{"vec2<f16> to u32", v2h, ir.U32, ir.CompositeVal(v2h, h(1), h(-2)), ir.U32Val(0xc0003c00)},
		{"u32 to vec2<f16>", ir.U32, v2h, ir.U32Val(0x7bff0001), ir.CompositeVal(v2h, ir.F16Bits(0x0001), ir.F16Bits(0x7bff))},
		{"vec4<f16> to vec2<u32>", v4h, v2u, ir.CompositeVal(v4h, h(0.5), h(1.5), ir.F16Bits(0x8000), h(2)), ir.CompositeVal(v2u, ir.U32Val(0x3e003800), ir.U32Val(0x40008000))},
		{"f32 to vec2<f16>", ir.F32, v2h, ir.F32Val(math.Float32frombits(0x3c00c000)), ir.CompositeVal(v2h, h(-2), h(1))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := module(fn("k", params("a", c.from), c.to, ret(bitcast(c.to, param("a", c.from)))))
			words := emitUnverified(t, m, "k", DefaultOptions())
			assert.Contains(t, dis(t, words), "OpBitcast")
			got := runUnverified(t, m, words, [][]ir.Value{{c.in}})
			if got == nil {
				return
			}
			assert.True(t, ir.Equal(c.want, got[0][0]), "got %v, want %v", got[0][0], c.want)
		})
	}
}

// TestF16ModfFrexp: modf and frexp of f16 (WGSL #modf-builtin,
// #frexp-builtin) with their f16 result structs, hand-derived: modf(-2.5)
// = (-0.5, -2); frexp(3.0) = (0.75, 2); frexp(2^-24), the smallest
// subnormal, = (0.5, -23); frexp(65504) = (65504/65536 = 0x3bff, 16);
// frexp(-0.0) = (-0.0, 0); vec2 frexp(0.375, -96) = ((0.75, -0.75), (-1, 7)).
func TestF16ModfFrexp(t *testing.T) {
	h := func(f float32) ir.Value { return ir.F16Val(f) }
	modfT := ir.StructType(&ir.StructDecl{Name: "__modf_result_f16", Fields: []ir.Field{{Name: "fract", Type: ir.F16}, {Name: "whole", Type: ir.F16}}})
	frexpT := ir.StructType(&ir.StructDecl{Name: "__frexp_result_f16", Fields: []ir.Field{{Name: "fract", Type: ir.F16}, {Name: "exp", Type: ir.I32}}})
	frexpV := ir.StructType(&ir.StructDecl{Name: "__frexp_result_vec2_f16", Fields: []ir.Field{{Name: "fract", Type: v2h}, {Name: "exp", Type: v2i}}})
	call := func(b ir.Builtin, rt *ir.Type, at *ir.Type) *ir.Module {
		return module(fn("k", params("a", at), rt, ret(&ir.BuiltinCall{Fn: b, Args: []ir.Expr{param("a", at)}, T: rt})))
	}
	cases := []struct {
		name string
		m    *ir.Module
		in   []ir.Value
		want []ir.Value
	}{
		{"modf", call(ir.BModf, modfT, ir.F16), []ir.Value{h(-2.5)}, []ir.Value{ir.CompositeVal(modfT, h(-0.5), h(-2))}},
		{"frexp", call(ir.BFrexp, frexpT, ir.F16),
			[]ir.Value{h(3), ir.F16Bits(0x0001), h(65504), ir.F16Bits(0x8000)},
			[]ir.Value{ir.CompositeVal(frexpT, h(0.75), ir.I32Val(2)), ir.CompositeVal(frexpT, h(0.5), ir.I32Val(-23)),
				ir.CompositeVal(frexpT, ir.F16Bits(0x3bff), ir.I32Val(16)), ir.CompositeVal(frexpT, ir.F16Bits(0x8000), ir.I32Val(0))}},
		{"frexp vec2", call(ir.BFrexp, frexpV, v2h), []ir.Value{ir.CompositeVal(v2h, h(0.375), h(-96))},
			[]ir.Value{ir.CompositeVal(frexpV, ir.CompositeVal(v2h, h(0.75), h(-0.75)), ir.CompositeVal(v2i, ir.I32Val(-1), ir.I32Val(7)))}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, o := range bothModes {
				words := emitUnverified(t, c.m, "k", o)
				args := make([][]ir.Value, len(c.in))
				for i, v := range c.in {
					args[i] = []ir.Value{v}
				}
				got := runUnverified(t, c.m, words, args)
				for i := 0; got != nil && i < len(c.in); i++ {
					assert.True(t, ir.Equal(c.want[i], got[i][0]), "%s %v: got %v, want %v", o.Mode, c.in[i], got[i][0], c.want[i])
				}
			}
		})
	}
}
