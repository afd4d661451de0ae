package spirv

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// moreBuiltinSignatures are the overloads of saturate, reflect,
// faceForward, ldexp, sinh, cosh and tanh over f32 scalars and vectors
// (WGSL #saturate-float-builtin, #reflect-builtin, #faceForward-builtin,
// #ldexp-builtin, #sinh-builtin, #cosh-builtin, #tanh-builtin): reflect
// and faceForward take vectors only, ldexp an i32 exponent of the same
// shape.
func moreBuiltinSignatures(b ir.Builtin) [][]*ir.Type {
	var out [][]*ir.Type
	for n := 1; n <= 4; n++ {
		f, i := ir.F32, ir.I32
		if n > 1 {
			f, i = ir.Vec(n, ir.F32), ir.Vec(n, ir.I32)
		}
		switch b {
		case ir.BReflect, ir.BFaceForward:
			if n > 1 {
				out = append(out, []*ir.Type{f, f, f}[:b.Info().Args])
			}
		case ir.BLdexp:
			out = append(out, []*ir.Type{f, i})
		default:
			out = append(out, []*ir.Type{f})
		}
	}
	return out
}

var moreBuiltins = []ir.Builtin{ir.BSaturate, ir.BReflect, ir.BFaceForward, ir.BLdexp, ir.BSinh, ir.BCosh, ir.BTanh}

// TestMoreBuiltinsValidate emits each of the builtins on every overload,
// in both modes, and checks the modules with spirv-val; the types the IR
// accepts are exactly those overloads (a scalar reflect, a u32 exponent
// are refused).
func TestMoreBuiltinsValidate(t *testing.T) {
	for _, b := range moreBuiltins {
		t.Run(b.String(), func(t *testing.T) {
			for _, sig := range moreBuiltinSignatures(b) {
				_, err := ir.BuiltinResultType(b, sig)
				require.NoError(t, err, "%v%v", b, sig)
				m := phonyKernel(sig, []func([]ir.Expr) ir.Expr{func(ps []ir.Expr) ir.Expr { return bi(b, ps...) }})
				validateBothModes(t, m)
			}
		})
	}
	for _, bad := range []struct {
		b    ir.Builtin
		args []*ir.Type
	}{
		{ir.BReflect, []*ir.Type{ir.F32, ir.F32}},
		{ir.BFaceForward, []*ir.Type{ir.F32, ir.F32, ir.F32}},
		{ir.BLdexp, []*ir.Type{ir.F32, ir.U32}},
		{ir.BLdexp, []*ir.Type{ir.Vec(2, ir.F32), ir.I32}},
		{ir.BSaturate, []*ir.Type{ir.I32}},
	} {
		_, err := ir.BuiltinResultType(bad.b, bad.args)
		assert.Error(t, err, "%v%v", bad.b, bad.args)
	}
}

// TestMoreBuiltinsOnGPU runs the exact cases on lavapipe in both modes;
// each value is derived by hand from the WGSL section named.
func TestMoreBuiltinsOnGPU(t *testing.T) {
	v2, v3 := ir.Vec(2, ir.F32), ir.Vec(3, ir.F32)
	f2 := func(a, b float32) ir.Value { return ir.CompositeVal(v2, fv(a), fv(b)) }
	f3 := func(a, b, c float32) ir.Value { return ir.CompositeVal(v3, fv(a), fv(b), fv(c)) }
	ldexpK := func(n int32) *ir.Module {
		return unKernel(ir.F32, func(a ir.Expr) ir.Expr { return bi(ir.BLdexp, a, i32(n)) })
	}
	cases := []gpuCase{
		// #saturate-float-builtin: clamp(e, 0.0, 1.0).
		{"saturate", unKernel(ir.F32, func(a ir.Expr) ir.Expr { return bi(ir.BSaturate, a) }),
			args1(fv(-2), fv(0.25), fv(3), fv(1)), []ir.Value{fv(0), fv(0.25), fv(1), fv(1)}},
		{"saturate vec3", unKernel(v3, func(a ir.Expr) ir.Expr { return bi(ir.BSaturate, a) }),
			args1(f3(-1, 0.5, 7)), []ir.Value{f3(0, 0.5, 1)}},
		// #reflect-builtin: e1 - 2 * dot(e2, e1) * e2. With e2 = (0, 1):
		// dot = e1.y, so the result is (e1.x, -e1.y).
		{"reflect about (0, 1)", unKernel(v2, func(a ir.Expr) ir.Expr { return bi(ir.BReflect, a, vecOf(v2, f32(0), f32(1))) }),
			args1(f2(1, -1), f2(3, 2)), []ir.Value{f2(1, 1), f2(3, -2)}},
		// #faceForward-builtin: e1 if dot(e2, e3) < 0, else -e1; here
		// e1 = (1, 2, 3), e3 = (0, 0, 1): the sign of e2.z decides (0: -e1).
		{"faceForward", unKernel(v3, func(a ir.Expr) ir.Expr {
			return bi(ir.BFaceForward, vecOf(v3, f32(1), f32(2), f32(3)), a, vecOf(v3, f32(0), f32(0), f32(1)))
		}),
			args1(f3(5, 5, -1), f3(5, 5, 1), f3(5, 5, 0)), []ir.Value{f3(1, 2, 3), f3(-1, -2, -3), f3(-1, -2, -3)}},
		// #ldexp-builtin: e1 * 2^e2 (e2 + 127 > 0: never zero).
		{"ldexp by 3", ldexpK(3), args1(fv(0.75), fv(-1.5), fv(0)), []ir.Value{fv(6), fv(-12), fv(0)}},
		{"ldexp by -126", ldexpK(-126), args1(fv(1), fv(-3)), []ir.Value{fv(0x1p-126), fv(-3 * 0x1p-126)}},
		{"ldexp vec2", unKernel(ir.Vec(2, ir.I32), func(a ir.Expr) ir.Expr { return bi(ir.BLdexp, vecOf(v2, f32(1), f32(3)), a) }),
			args1(ir.CompositeVal(ir.Vec(2, ir.I32), iv(4), iv(-1))), []ir.Value{f2(16, 1.5)}},
	}
	for _, o := range bothModes {
		t.Run(map[Mode]string{Portable: "portable", Raw: "raw"}[o.Mode], func(t *testing.T) { checkGPU(t, o, cases) })
	}
	// ldexp(0.75, 128) = 1.5·2^127: e2 = 128 = bias + 1 is in range for
	// WGSL and for GLSL.std.450 (undefined only for exp "greater than
	// +128"). Mesa's llvmpipe (22.3 and 25, Vulkan and GL, under wgpu,
	// Dawn and Deno) returns +Inf when the exponent is this constant 128
	// (a run-time 128 is right: shaders/conformance/ldexp_scales_by_power_of_two):
	// a driver finding, logged rather than asserted (the emitted SPIR-V is
	// plain Ldexp either way).
	got := runGPU(t, ldexpK(128), "k", DefaultOptions(), args1(fv(0.75)))
	if !ir.Equal(fv(1.5*0x1p127), got[0][0]) {
		t.Logf("lavapipe: ldexp(0.75, 128) = %v, WGSL #ldexp-builtin gives 1.5 * 2^127", got[0][0])
	}
}

// ulp32 is the spacing of f32 values in the binade of |x| (2^-149 below
// 2^-126).
func ulp32(x float64) float64 {
	x = math.Abs(x)
	if x < 0x1p-126 {
		return 0x1p-149
	}
	_, e := math.Frexp(x)
	return math.Ldexp(1, e-24)
}

// hyperbolicBound is a bound no smaller than WGSL's on sinh(x) and
// cosh(x), inherited from (exp(x) ∓ exp(-x)) * 0.5 with exp at
// 3 + 2|x| ULP (#concrete-float-accuracy): half of the two exp errors and
// of the rounding of their sum, plus the rounding of the product; and on
// tanh(x), the worse of 1e-5 and the bound inherited from sinh / cosh:
// with cosh ≥ e^|x|/2 and both errors below (3 + 2|x|) ULP(e^|x|) / 2,
// the quotient errs by at most 2(3 + 2|x|)·2^-23 plus the division's
// 2.5 ULP(1), and 1 ULP of the result's own rounding.
func hyperbolicBound(b ir.Builtin, x float64) float64 {
	k := 3 + 2*math.Abs(x)
	p, n := math.Exp(math.Abs(x)), math.Exp(-math.Abs(x))
	switch b {
	case ir.BTanh:
		return math.Max(1e-5, 2*k*0x1p-23+3*0x1p-23) + 0x1p-23
	case ir.BSinh:
		return (k*ulp32(p)+k*ulp32(n)+ulp32(p+n))*0.5 + ulp32(math.Sinh(x))
	}
	return (k*ulp32(p)+k*ulp32(n)+ulp32(p+n))*0.5 + ulp32(math.Cosh(x))
}

// TestHyperbolicOnGPU runs sinh, cosh and tanh on lavapipe (SPIR-V Sinh,
// Cosh, Tanh) and requires each result within WGSL's bound of the exact
// value (hyperbolicBound), where every exp term is finite.
func TestHyperbolicOnGPU(t *testing.T) {
	xs := []float32{0, 0.5, -1, 2, -5, 10, 40}
	for _, b := range []ir.Builtin{ir.BSinh, ir.BCosh, ir.BTanh} {
		exact := map[ir.Builtin]func(float64) float64{ir.BSinh: math.Sinh, ir.BCosh: math.Cosh, ir.BTanh: math.Tanh}[b]
		t.Run(b.String(), func(t *testing.T) {
			m := unKernel(ir.F32, func(a ir.Expr) ir.Expr { return bi(b, a) })
			var args [][]ir.Value
			for _, x := range xs {
				args = append(args, []ir.Value{fv(x)})
			}
			got := runGPU(t, m, "k", DefaultOptions(), args)
			for i, x := range xs {
				want := exact(float64(x))
				g := float64(got[i][0].F32())
				bound := hyperbolicBound(b, float64(x))
				assert.LessOrEqual(t, math.Abs(g-want), bound, "%s(%g) = %g on lavapipe, exact %g, WGSL's bound %g", b, x, g, want, bound)
			}
		})
	}
	// The bound itself, by hand at 0: sinh(0) within (3 + 3 + 2^-22 / 2^-23) / 2
	// ULP(1) plus 2^-149; tanh(0) within 1e-5 + 2^-23.
	assert.InDelta(t, (6*0x1p-23+0x1p-22)*0.5+0x1p-149, hyperbolicBound(ir.BSinh, 0), 1e-20)
	assert.InDelta(t, 1e-5+0x1p-23, hyperbolicBound(ir.BTanh, 0), 1e-20)
}
