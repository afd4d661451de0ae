package wgsl

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// f16 through the front end (issue 40; WGSL #extension-f16). Expected
// binary16 bit patterns are derived by hand: sign | exponent+15 (5 bits)
// | 10 fraction bits; 1.0 = 0x3C00, 2.0 = 0x4000, 1.5 = 0x3E00, 65504 =
// 0x7BFF, 2⁻²⁴ (the least subnormal) = 0x0001.

// TestF16RequiresTheEnableDirective: every f16 spelling without `enable
// f16;` is an error at the spelling that names the directive.
func TestF16RequiresTheEnableDirective(t *testing.T) {
	for _, tc := range []struct{ src, pos, what string }{
		{"fn k() -> f32 { let h: f16 = 1; return 0.0; }", "1:24", "'f16'"},
		{"fn k() -> f32 { let h = 1.5h; return 0.0; }", "1:25", "f16 literal 1.5h"},
		{"fn k() -> f32 { let v = vec2h(); return 0.0; }", "1:25", "'vec2h'"},
		{"fn k() -> f32 { let m = mat2x3h(); return 0.0; }", "1:25", "'mat2x3h'"},
	} {
		_, err := Parse("x.wgsl", []byte(tc.src))
		require.Error(t, err, tc.src)
		assert.Contains(t, err.Error(), "x.wgsl:"+tc.pos+": check: "+tc.what+" requires the f16 extension ('enable f16;')", tc.src)
	}
}

// f16Lit returns the binary16 bits of the literal e (an ir.Lit of f16).
func f16Lit(t *testing.T, e ir.Expr) uint16 {
	t.Helper()
	l, ok := e.(*ir.Lit)
	require.True(t, ok, "%s is not a literal", ir.PrintExpr(e))
	require.Equal(t, ir.KindF16, l.Val.Type.Kind, "%s", ir.PrintExpr(e))
	return uint16(l.Val.Bits)
}

// f16Inits returns the initializers of f's top-level lets, by name.
func f16Inits(f *ir.Func) map[string]ir.Expr {
	out := map[string]ir.Expr{}
	for _, s := range f.Body.Stmts {
		if d, ok := s.(*ir.Decl); ok {
			out[d.Name] = d.Init
		}
	}
	return out
}

// TestF16ConstantsRoundToBinary16 evaluates f16 const-expressions:
// literals (decimal rounded to nearest, ties to even; the exact decimal
// decides a float64 that lands on a midpoint), abstract → f16
// conversion, arithmetic rounded once, conversions and bitcasts.
func TestF16ConstantsRoundToBinary16(t *testing.T) {
	src := `enable f16;
fn k() -> f32 {
  let a = 1.5h;
  let b = 0.1h;              // 0.0999755859375 (0x2E66) is nearer than 0.10009765625 (0x2E67)
  let c = 1.0h / 3.0h;       // 0.333251953125 = 0x3555
  let d = 2049h;             // a tie between 2048 and 2050 (spacing 2): even 2048 = 0x6800
  let e = 2049.00000000000000001h; // float64 reads 2049; the decimal is above the tie: 2050 = 0x6801
  let f = 2048.0h + 1.0h;    // 2049 rounds to 2048
  let g: f16 = 1e-7;         // 1e-7 / 2^-24 = 1.68: 2^-23 = 0x0002
  let h = f16(0.1f);         // f32 → f16
  let i = -65504.0h;         // 0xFBFF
  let j = bitcast<vec2<f16>>(0x40003C00u).y; // the high half: 2.0 = 0x4000
  let l = f16(7u) * 0.5;     // 3.5 = 0x4300
  let m = ldexp(1.0h, 15);   // 32768 = 0x7800
  let n = max(1.0h, 2);      // the abstract argument converts to f16
  return f32(a + b + c + d + e + f + g + h + i + j + l + m + n);
}
`
	f := ptFunc(t, src, "k")
	inits := f16Inits(f)
	for name, want := range map[string]uint16{
		"a": 0x3E00, "b": 0x2E66, "c": 0x3555, "d": 0x6800, "e": 0x6801, "f": 0x6800, "g": 0x0002,
		"h": 0x2E66, "i": 0xFBFF, "j": 0x4000, "l": 0x4300, "m": 0x7800, "n": 0x4000,
	} {
		assert.Equal(t, want, f16Lit(t, inits[name]), "let %s", name)
	}
	bits := ptFunc(t, "enable f16;\nfn k() -> u32 { let r = bitcast<u32>(vec2<f16>(1.0h, 2.0h)); return r; }", "k")
	r := f16Inits(bits)["r"].(*ir.Lit)
	assert.Equal(t, uint32(0x40003C00), r.Val.Bits, "component 0 is the low half")
}

// TestF16ConstantErrors: a const-expression outside f16's finite range is
// a shader-creation error (WGSL #floating-point-conversion, #ldexp-builtin:
// e2 > bias + 1 = 16), positioned at the expression.
func TestF16ConstantErrors(t *testing.T) {
	for _, tc := range []struct{ expr, col, msg string }{
		{"65504.0h + 32.0h", "27", "outside the finite range of f16"},
		{"f16(70000)", "18", "conversion to f16: 70000 is outside the finite range of f16"},
		{"f16(1e5f)", "18", "outside the finite range of f16"},
		{"70000.0h", "18", "literal 70000.0h is outside the finite range of f16"},
		{"0x1.001p0h", "18", "cannot be exactly represented as f16"},
		{"ldexp(1.0h, 17)", "18", "ldexp: the exponent 17 is greater than 16"},
		{"bitcast<vec2<f16>>(0x7C00u).x", "18", "bitcast produces a non-finite f16 (0x7c00)"},
	} {
		src := "enable f16;\nfn k() { let x = " + tc.expr + "; }"
		_, err := Parse("x.wgsl", []byte(src))
		if assert.Error(t, err, tc.expr) {
			assert.Contains(t, err.Error(), "x.wgsl:2:"+tc.col+": check: ", tc.expr)
			assert.Contains(t, err.Error(), tc.msg, tc.expr)
		}
	}
}

// TestF16TypesLower: the f16 types and aliases lower to ir.F16,
// vectors, ir.MatOf(…, ir.F16), struct members, private, storage,
// uniform and workgroup variables; conversions and builtins keep f16.
func TestF16TypesLower(t *testing.T) {
	src := `enable f16;
struct S { a: f16, b: vec3h, m: mat2x3h, n: mat4x4<f16> }
@group(0) @binding(0) var<storage, read_write> out: S;
@group(0) @binding(1) var<uniform> u: vec4<f16>;
var<workgroup> w: array<vec2h, 4>;
var<private> p: vec2h = vec2h(1.5h, 2);
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let x = f16(i) * 0.5;
  w[i] = vec2(x, -x);
  let m = mat2x2h(1, 2, 3, 4) * w[i];
  let y = f32(x) + f32(i32(x)) + f32(u32(m.y));
  out.a = abs(x) + max(m.x, 3) + dot(u, u) + length(u.xy) + fma(x, x, 1) + sin(x) + f16(y);
  out.b = vec3<f16>(vec3<f32>(y)) + p.x;
  out.m = transpose(mat3x2<f16>(out.b.xy, out.b.yz, out.b.zx));
  out.n = mat4x4h();
}
`
	m := ptParse(t, src)
	s := m.Structs[0]
	assert.True(t, ir.Identical(ir.F16, s.Fields[0].Type))
	assert.True(t, ir.Identical(ir.Vec(3, ir.F16), s.Fields[1].Type))
	assert.True(t, ir.Identical(ir.MatOf(2, 3, ir.F16), s.Fields[2].Type))
	assert.True(t, ir.Identical(ir.MatOf(4, 4, ir.F16), s.Fields[3].Type))
	require.Len(t, m.Globals, 1)
	assert.True(t, ir.Identical(ir.Vec(2, ir.F16), m.Globals[0].T))
	require.Len(t, m.Shared, 3)
	assert.True(t, ir.Identical(ir.Vec(4, ir.F16), m.Shared[1].T))
	assert.True(t, ir.Identical(ir.ArrayOf(ir.Vec(2, ir.F16), 4), m.Shared[2].T))
	f := m.Func("main")
	require.NotNil(t, f, "main is in the subset")
	inits := f16Inits(f)
	assert.True(t, ir.Identical(ir.F16, inits["x"].Type()))
	assert.True(t, ir.Identical(ir.Vec(2, ir.F16), inits["m"].Type()))
	printed := ptRoundTrip(t, "f16.wgsl", m)
	assert.Contains(t, printed, "let x: f16 = f16(i) * 0.5h;")
	assert.Contains(t, printed, "var<private> p: vec2<f16> = vec2<f16>(1.5h, 2.0h);")
}

// TestF16Overloads: overload resolution prefers f32 to f16 for abstract
// arguments (WGSL #overload-resolution-section) and takes f16 where a
// concrete argument is f16; f32 and f16 never mix.
func TestF16Overloads(t *testing.T) {
	f := ptFunc(t, "enable f16;\nfn k(h: f16) -> f32 { let a = min(h, 2.5); let b = sqrt(2.0); return f32(a) + b; }", "k")
	inits := f16Inits(f)
	assert.True(t, ir.Identical(ir.F16, inits["a"].Type()))
	assert.True(t, ir.Identical(ir.F32, inits["b"].Type()))
	_, err := Parse("x.wgsl", []byte("enable f16;\nfn k(h: f16, x: f32) -> f32 { return x + h; }"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.wgsl:2:40: check: operator + is not defined for f32 and f16")
}

// TestEmitF16 emits f16 modules: `enable f16;` first, f16 literals with
// their suffix, and the emitted text parses back to the same functions
// and structs (the round trip, in raw mode, which rewrites nothing), and
// Tint accepts it.
func TestEmitF16(t *testing.T) {
	src := `enable f16;
struct S { a: f16, b: vec3h }
@group(0) @binding(0) var<storage, read_write> out: array<S, 4>;
fn half(x: f16) -> f16 { return x * 0.0999755859375h; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i].a = half(f16(i));
  out[i].b = vec3h(out[i].a, 2, f16(u32(out[i].a)));
}
`
	m := ptParse(t, src)
	got, err := EmitEntry(m, "main", EmitOptions{Mode: Raw})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(got, "enable f16;\n"), "the directive comes first:\n%s", got)
	assert.Contains(t, got, "x * 0.0999755859375h")
	m2, err := Parse("emitted.wgsl", []byte(got))
	require.NoError(t, err, got)
	for _, name := range []string{"half", "main"} {
		assert.Equal(t, ir.PrintFunc(m.Func(name)), ir.PrintFunc(m2.Func(name)), name)
	}
	assert.Equal(t, printStruct(m.Structs[0]), printStruct(m2.Structs[0]))
	portable, err := EmitEntry(m, "main", EmitOptions{})
	require.NoError(t, err)
	assert.Contains(t, portable, "u32(max(out[min(i, 3u)].a, 0.0h))", "a negative f16 converts to u32 0 in portable mode")

	kernel := ptParse(t, "enable f16;\nfn k(x: f16, v: vec2h) -> vec2<f16> { return v * x; }")
	k, _, err := Emit(kernel, "k", EmitOptions{})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(k, "enable f16;\n"), k)
	fn, err := EmitFunctions(kernel, "k", EmitOptions{})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(fn, "enable f16;\n"), fn)
	plain, err := EmitFunctions(ptParse(t, "fn k(x: f32) -> f32 { return x; }"), "k", EmitOptions{})
	require.NoError(t, err)
	assert.NotContains(t, plain, "enable", "no f16, no directive")
	tint := ptTintCheck(t)
	for _, text := range []string{got, portable, k} {
		ok, msg := tint.accepts(t, text)
		assert.True(t, ok, "Tint rejects the emitted module: %s\n%s", msg, text)
	}
}

// TestF16MatrixConversion: matCxR<f32>(m) of an f16 matrix m and back
// (WGSL #matrix-builtin) converts column by column: a constant folds, a
// call-free operand is read once per column, a call's result is passed
// once to a helper function (the call's effect happens once); the
// printed module round-trips.
func TestF16MatrixConversion(t *testing.T) {
	src := `enable f16;
var<private> n: u32;
var<private> u = mat2x2<f16>(1.0h, 2.0h, 3.0h, 4.0h);
fn m() -> mat2x2<f16> { n += 1u; return u; }
fn k() -> f32 {
  let a = mat2x2<f32>(mat2x2<f16>(0.5h, 1, 2, 3));
  let b = mat2x2<f32>(u);
  let c = mat2x2<f32>(m());
  let d = mat2x2h(b);
  return a[0].x + b[1].y + c[0].y + f32(d[1].x);
}
`
	m := ptParse(t, src)
	inits := f16Inits(m.Func("k"))
	a, ok := inits["a"].(*ir.Lit)
	require.True(t, ok, "a constant folds: %s", ir.PrintExpr(inits["a"]))
	assert.Equal(t, float32(0.5), a.Val.Elems[0].Elems[0].F32())
	assert.Equal(t, "mat2x2<f32>(vec2<f32>(u[0i]), vec2<f32>(u[1i]))", ir.PrintExpr(inits["b"]))
	call, ok := inits["c"].(*ir.Call)
	require.True(t, ok, "a call's result goes to a helper: %s", ir.PrintExpr(inits["c"]))
	helper := m.Func(call.Func)
	require.NotNil(t, helper, "the helper %s is in the module", call.Func)
	assert.True(t, ir.Identical(ir.MatOf(2, 2, ir.F16), helper.Params[0].T))
	assert.True(t, ir.Identical(ir.Mat(2, 2), helper.Result))
	assert.Equal(t, "mat2x2<f16>(vec2<f16>(b[0i]), vec2<f16>(b[1i]))", ir.PrintExpr(inits["d"]))
	ptRoundTrip(t, "matconv.wgsl", m)
	fn, err := Kernel(m, "")
	require.NoError(t, err, "the helper is called, so k stays the only kernel candidate")
	assert.Equal(t, "k", fn.Name)
}

// TestF16LiteralsRoundTripEveryValue: every finite binary16 value, printed
// as the emitter prints it (ir.FormatF16, the shortest decimal), reads
// back as the same bits; and the exact decimal midpoint between each pair
// of neighbours (the float64 midpoint printed exactly, 'f' with all its
// digits) reads as the one with the even significand, while the decimal
// a tiny step above it reads as the upper neighbour (ties to even; the
// step below the float64 resolution decides through big.Rat).
func TestF16LiteralsRoundTripEveryValue(t *testing.T) {
	lit := func(text string) (uint16, error) {
		v, f16, err := cvLiteral(text, lexFloatLit)
		require.True(t, f16, text)
		if err != nil {
			return 0, err
		}
		return uint16(v.toIR().Bits), nil
	}
	for h := uint32(0); h < 0x7C00; h++ { // the finite non-negative values
		text := ir.FormatF16(uint16(h))
		got, err := lit(text)
		require.NoError(t, err, text)
		require.Equal(t, uint16(h), got, "%s", text)
		if h == 0x7BFF {
			break
		}
		lo, hi := ir.F16Bits(uint16(h)).Float(), ir.F16Bits(uint16(h+1)).Float()
		// The exact decimal expansion (a binary fraction of at most 25
		// digits after the point; lo+hi needs at most 12 bits).
		mid := strings.TrimRight(strconv.FormatFloat((lo+hi)/2, 'f', 30, 64), "0")
		if strings.HasSuffix(mid, ".") {
			mid += "0"
		}
		even := uint16(h)
		if h&1 == 1 {
			even = uint16(h + 1)
		}
		got, err = lit(mid + "h")
		require.NoError(t, err, mid)
		require.Equal(t, even, got, "the tie %s between %#04x and %#04x", mid, h, h+1)
		got, err = lit(mid + "00000000000000000000001h")
		require.NoError(t, err, mid)
		require.Equal(t, uint16(h+1), got, "just above the tie %s", mid)
	}
}

// TestF16ConstArithmeticIsCorrectlyRounded: f16 +, -, *, / of constants
// give the binary16 value nearest the exact result (ties to even), found
// here independently: the exact rational result against its candidate
// neighbours. Operands are spread over every exponent (a fixed linear
// congruential sequence of bit patterns); results beyond 65504 are
// shader-creation errors.
func TestF16ConstArithmeticIsCorrectlyRounded(t *testing.T) {
	nearest := func(q *big.Rat) (uint16, bool) {
		f, _ := q.Float64()
		if math.Abs(f) > 65504 {
			return 0, false
		}
		c := uint16(ir.F16Val(float32(f)).Bits) // near the answer, maybe off by one
		best, bestD := uint16(0), (*big.Rat)(nil)
		for d := -2; d <= 2; d++ {
			h := uint16(int(c) + d)
			if h&0x7C00 == 0x7C00 || (c^h)&0x8000 != 0 && h&0x7FFF != 0 && c&0x7FFF != 0 {
				continue
			}
			v := new(big.Rat).SetFloat64(ir.F16Bits(h).Float())
			dist := new(big.Rat).Abs(new(big.Rat).Sub(v, q))
			if bestD == nil || dist.Cmp(bestD) < 0 || dist.Cmp(bestD) == 0 && h&1 == 0 {
				best, bestD = h, dist
			}
		}
		return best, true
	}
	seed := uint32(12345)
	next := func() uint16 {
		for {
			seed = seed*1664525 + 1013904223
			if h := uint16(seed >> 16); h&0x7C00 != 0x7C00 {
				return h
			}
		}
	}
	for i := 0; i < 4000; i++ {
		a, b := next(), next()
		x, y := cvFloat(chkF16, ir.F16Bits(a).Float()), cvFloat(chkF16, ir.F16Bits(b).Float())
		qx, qy := new(big.Rat).SetFloat64(x.f), new(big.Rat).SetFloat64(y.f)
		for _, op := range []ir.BinaryOp{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv} {
			if op == ir.OpDiv && y.f == 0 {
				continue
			}
			var q *big.Rat
			switch op {
			case ir.OpAdd:
				q = new(big.Rat).Add(qx, qy)
			case ir.OpSub:
				q = new(big.Rat).Sub(qx, qy)
			case ir.OpMul:
				q = new(big.Rat).Mul(qx, qy)
			case ir.OpDiv:
				q = new(big.Rat).Quo(qx, qy)
			}
			want, finite := nearest(q)
			got, err := cvScalarBinary(op, x, y)
			if !finite {
				assert.Error(t, err, "%#04x %v %#04x overflows f16", a, op, b)
				continue
			}
			require.NoError(t, err, "%#04x %v %#04x", a, op, b)
			g := uint16(got.toIR().Bits)
			if q.Sign() == 0 && g&0x7FFF == 0 {
				continue // the sign of a zero result: IEEE's, not the rational's
			}
			require.Equal(t, want, g, "%#04x %v %#04x = %s", a, op, b, q.FloatString(12))
		}
	}
}
