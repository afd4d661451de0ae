package spirv

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

var (
	v2h = ir.Vec(2, ir.F16)
	v3h = ir.Vec(3, ir.F16)
	v4h = ir.Vec(4, ir.F16)
)

func f16(v float32) ir.Expr { return lit(ir.F16Val(v)) }

// f16Types are f16 and vec2..4<f16>.
func f16Types() []*ir.Type { return []*ir.Type{ir.F16, v2h, v3h, v4h} }

// TestF16OperatorsValidate emits every operator defined on f16 scalars
// and vectors (scalar-vector mixing included, compound assignments too)
// in both modes and checks the modules with spirv-val.
func TestF16OperatorsValidate(t *testing.T) {
	for _, x := range f16Types() {
		ys := []*ir.Type{x}
		if x.Kind == ir.KindVec {
			ys = append(ys, ir.F16)
		}
		for _, y := range ys {
			var exprs []func([]ir.Expr) ir.Expr
			var stmts []ir.Stmt
			for op := ir.OpAdd; op <= ir.OpGe; op++ {
				rt, err := ir.BinaryResultType(op, x, y)
				if err != nil {
					continue
				}
				op := op
				exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return bin(op, ps[0], ps[1]) })
				if op.Info().Compound && ir.Identical(rt, x) {
					v := fmt.Sprintf("v%d", op)
					stmts = append(stmts, varDecl(v, x, param("p0", x)), assignOp(op, local(v, x), param("p1", y)))
				}
			}
			exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return un(ir.OpNeg, ps[0]) })
			t.Run(fmt.Sprintf("%v,%v", x, y), func(t *testing.T) {
				m := phonyKernel([]*ir.Type{x, y}, exprs)
				m.Funcs = append([]*ir.Func{fn("compound", params("p0", x, "p1", y), ir.Void, stmts...)}, m.Funcs...)
				k := m.Funcs[len(m.Funcs)-1]
				k.Body.Stmts = append(k.Body.Stmts, exprStmt(callFn(m.Funcs[0], param("p0", x), param("p1", y))))
				validateBothModes(t, m)
			})
		}
	}
}

// f16BuiltinSignatures returns the f16 argument lists b accepts: n
// arguments of one f16 type, mix's scalar factor, ldexp's i32 exponent.
func f16BuiltinSignatures(b ir.Builtin) [][]*ir.Type {
	var out [][]*ir.Type
	try := func(ts ...*ir.Type) {
		if _, err := ir.BuiltinResultType(b, ts); err == nil {
			out = append(out, ts)
		}
	}
	n := b.Info().Args
	for _, t := range f16Types() {
		same := make([]*ir.Type, n)
		for i := range same {
			same[i] = t
		}
		try(same...)
		switch n {
		case 2:
			try(t, t.WithScalar(ir.I32)) // ldexp
		case 3:
			if t.Kind == ir.KindVec {
				try(t, t, ir.F16) // mix(vecN, vecN, f16)
			}
		}
	}
	return out
}

// TestF16BuiltinsValidate emits every pure builtin on every f16 overload
// (both modes) and checks the modules with spirv-val: GLSL.std.450 takes
// 16-bit floats wherever it takes 32-bit ones. The builtins that must have
// an f16 overload (WGSL's float builtins) are listed, so a signature
// check that drops f16 fails here.
func TestF16BuiltinsValidate(t *testing.T) {
	found := map[string]bool{}
	for b := ir.Builtin(1); int(b) < len(ir.Builtins); b++ {
		if ir.Builtins[b].Name == "" || !b.Info().Pure() {
			continue
		}
		sigs := f16BuiltinSignatures(b)
		if len(sigs) == 0 {
			continue
		}
		found[b.String()] = true
		t.Run(b.String(), func(t *testing.T) {
			if (b == ir.BModf || b == ir.BFrexp) && !ir.FrexpResult(ir.F16).Struct.Fields[0].Type.HasF16() {
				// ir types modf(f16) and frexp(f16) as the f32 result
				// structs (ir/entry.go splitResults has no f16 ones), which
				// SPIR-V rightly refuses; frexp16 waits for them.
				t.Skip("ir.ModfResult/FrexpResult have no f16 structs yet")
			}
			for _, sig := range sigs {
				validateBothModes(t, phonyKernel(sig, []func([]ir.Expr) ir.Expr{func(ps []ir.Expr) ir.Expr { return bi(b, ps...) }}))
			}
		})
	}
	for _, name := range []string{"abs", "min", "max", "clamp", "sign", "floor", "ceil", "round", "trunc", "fract",
		"sqrt", "inverseSqrt", "pow", "exp", "exp2", "log", "log2", "sin", "cos", "tan", "asin", "acos", "atan",
		"atan2", "cross", "length", "normalize", "distance", "step", "smoothstep", "fma", "degrees", "radians",
		"mix", "dot", "saturate", "sinh", "cosh", "tanh", "reflect", "faceForward", "ldexp", "modf", "frexp"} {
		assert.True(t, found[name], "%s has no f16 overload", name)
	}
}

// TestF16ConversionsValidate emits every value conversion between bool,
// i32, u32, f32 and f16 scalars and vectors of one width.
func TestF16ConversionsValidate(t *testing.T) {
	scalars := []*ir.Type{ir.Bool, ir.I32, ir.U32, ir.F32, ir.F16}
	for _, w := range []int{1, 2, 3, 4} {
		shape := func(s *ir.Type) *ir.Type {
			if w == 1 {
				return s
			}
			return ir.Vec(w, s)
		}
		for _, from := range scalars {
			var exprs []func([]ir.Expr) ir.Expr
			for _, to := range scalars {
				if from.Kind != ir.KindF16 && to.Kind != ir.KindF16 {
					continue
				}
				to := shape(to)
				exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return conv(to, ps[0]) })
			}
			t.Run(fmt.Sprintf("from %v", shape(from)), func(t *testing.T) {
				validateBothModes(t, phonyKernel([]*ir.Type{shape(from)}, exprs))
			})
		}
	}
}

// TestF16MatricesValidate emits matCxR<f16> arithmetic (+, -, matrix
// times scalar, vector and matrix, each way round), transpose and
// determinant for every shape.
func TestF16MatricesValidate(t *testing.T) {
	for c := 2; c <= 4; c++ {
		for r := 2; r <= 4; r++ {
			mt := ir.MatOf(c, r, ir.F16)
			mv, vm := ir.Vec(c, ir.F16), ir.Vec(r, ir.F16)
			other := ir.MatOf(r, c, ir.F16) // mat(c×r) * mat(r×c)
			exprs := []func([]ir.Expr) ir.Expr{
				func(ps []ir.Expr) ir.Expr { return bin(ir.OpAdd, ps[0], ps[0]) },
				func(ps []ir.Expr) ir.Expr { return bin(ir.OpSub, ps[0], ps[0]) },
				func(ps []ir.Expr) ir.Expr { return bin(ir.OpMul, ps[0], ps[1]) },
				func(ps []ir.Expr) ir.Expr { return bin(ir.OpMul, ps[1], ps[0]) },
				func(ps []ir.Expr) ir.Expr { return bin(ir.OpMul, ps[0], ps[2]) },
				func(ps []ir.Expr) ir.Expr { return bin(ir.OpMul, ps[3], ps[0]) },
				func(ps []ir.Expr) ir.Expr { return bin(ir.OpMul, ps[0], ps[4]) },
				func(ps []ir.Expr) ir.Expr { return bi(ir.BTranspose, ps[0]) },
			}
			if c == r {
				exprs = append(exprs, func(ps []ir.Expr) ir.Expr { return bi(ir.BDeterminant, ps[0]) })
			}
			t.Run(mt.String(), func(t *testing.T) {
				validateBothModes(t, phonyKernel([]*ir.Type{mt, ir.F16, mv, vm, other}, exprs))
			})
		}
	}
}

// dis is our disassembly of words.
func dis(t testing.TB, words []uint32) string {
	t.Helper()
	text, err := Disassemble(words)
	require.NoError(t, err)
	return text
}

// capabilities lists the module's OpCapability operands by name.
func capabilities(t testing.TB, words []uint32) []string {
	var caps []string
	for _, m := range regexp.MustCompile(`OpCapability (\w+)`).FindAllStringSubmatch(dis(t, words), -1) {
		caps = append(caps, m[1])
	}
	return caps
}

// TestF16Capabilities checks which capabilities each use of f16 declares
// (SPIR-V §3.31; f16.go's comment): Float16 for the type; besides it
// StorageBuffer16BitAccess for a StorageBuffer block holding f16 (the
// kernel ABI's buffers, var<storage>), UniformAndStorageBuffer16BitAccess
// for a Uniform one, StorageInputOutput16 for stage IO — and nothing
// beyond Shader without f16.
func TestF16Capabilities(t *testing.T) {
	// fn k(a: u32) -> u32 { return u32(f16(a) * 2.0h); }: f16 only in
	// registers.
	a := param("a", ir.U32)
	inRegisters := module(fn("k", params("a", ir.U32), ir.U32, ret(conv(ir.U32, bin(ir.OpMul, conv(ir.F16, a), f16(2))))))
	assert.Equal(t, []string{"Shader", "Float16"}, capabilities(t, emitValid(t, inRegisters, "k", DefaultOptions())))

	// fn k(a: f16) -> f16: the ABI's storage buffers hold f16.
	abi := module(fn("k", params("a", ir.F16), ir.F16, ret(param("a", ir.F16))))
	assert.Equal(t, []string{"Shader", "Float16", "StorageBuffer16BitAccess"}, capabilities(t, emitValid(t, abi, "k", DefaultOptions())))

	noF16 := module(fn("k", params("a", ir.F32), ir.F32, ret(param("a", ir.F32))))
	assert.Equal(t, []string{"Shader"}, capabilities(t, emitValid(t, noF16, "k", DefaultOptions())))
}

// TestF16Constants checks the literal word of f16 constants: the
// binary16 bits in the low half, the high half zero (SPIR-V §2.2.1) —
// 1.5 = 0x3e00, -2.0 = 0xc000 (not sign-extended), 65504 = 0x7bff, the
// smallest subnormal 2^-24 = 0x0001 — and that our disassembly prints
// them as spirv-dis does (0x1.8p+0, -0x1p+1, 0x1.ffcp+15, 0x1p-24).
func TestF16Constants(t *testing.T) {
	vals := []float32{1.5, -2, 65504, 0x1p-24}
	want := []uint32{0x3e00, 0xc000, 0x7bff, 0x0001}
	texts := []string{"0x1.8p+0", "-0x1p+1", "0x1.ffcp+15", "0x1p-24"}
	var parts []ir.Expr
	for _, v := range vals {
		parts = append(parts, f16(v))
	}
	x := param("x", ir.U32)
	// Index a let array with a run-time index so the constants are not
	// folded into one composite only.
	m := module(fn("k", params("x", ir.U32), ir.F16, ret(index(cons(ir.ArrayOf(ir.F16, 4), parts...), x))))
	words := emitValid(t, m, "k", DefaultOptions())
	f16Type := uint32(0)
	found := map[uint32]bool{}
	for i := headerLength; i < len(words); {
		n, op := int(words[i]>>16), opcode(words[i]&0xffff)
		in := words[i : i+n]
		if op == opTypeFloat && in[2] == 16 {
			f16Type = in[1]
		}
		if op == opConstant && in[1] == f16Type && f16Type != 0 {
			found[in[3]] = true
		}
		i += n
	}
	for _, w := range want {
		assert.True(t, found[w], "no OpConstant %%half with literal word %#08x", w)
	}
	ours := dis(t, words)
	assert.Equal(t, spirvDis(t, words), ours)
	for _, s := range texts {
		assert.Contains(t, ours, "OpConstant %"+fmt.Sprint(f16Type)+" "+s)
	}
}

// TestF16Lowerings checks the instructions of the f16 lowerings whose
// operands are WGSL's rules (hand-derived constants: 65504 = 0x7bff,
// -65504 = 0xfbff, 1.0 = 0x3c00): f16 → i32 and u32 are clamped to f16's
// finite range in portable mode, since every finite f16 fits both
// (WGSL #floating-point-conversion) — [-65504, 65504] and [0, 65504] —
// and not in raw mode; saturate is FClamp(x, 0.0, 1.0); bool → f16 is
// OpSelect of 1.0 and 0.0; f32 ↔ f16 is OpFConvert.
func TestF16Lowerings(t *testing.T) {
	h := param("h", ir.F16)
	cases := []struct {
		name string
		x    ir.Expr
		want []string // regular expressions over our disassembly, in order
		raw  []string
	}{
		{"f16 to i32", conv(ir.I32, h), []string{`FClamp %\d+ %(\d+) %(\d+)`, `OpConvertFToS`}, []string{`OpConvertFToS`}},
		{"f16 to u32", conv(ir.U32, h), []string{`FClamp`, `OpConvertFToU`}, []string{`OpConvertFToU`}},
		{"f32 to f16", conv(ir.F16, conv(ir.F32, h)), []string{`OpFConvert`, `OpFConvert`}, nil},
		{"saturate", bi(ir.BSaturate, h), []string{`FClamp`}, nil},
		{"bool to f16", conv(ir.F16, bin(ir.OpLt, h, f16(0))), []string{`OpSelect`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := module(fn("k", params("h", ir.F16), c.x.Type(), ret(c.x)))
			words := emitValid(t, m, "k", DefaultOptions())
			text := dis(t, words)
			consts := f16ConstIDs(words)
			for _, re := range c.want {
				assert.Regexp(t, re, text)
			}
			switch c.name {
			case "f16 to i32":
				assert.Regexp(t, fmt.Sprintf(`FClamp %%\d+ %%%d %%%d`, consts[0xfbff], consts[0x7bff]), text)
			case "f16 to u32":
				assert.Regexp(t, fmt.Sprintf(`FClamp %%\d+ %%%d %%%d`, consts[0], consts[0x7bff]), text)
			case "saturate":
				assert.Regexp(t, fmt.Sprintf(`FClamp %%\d+ %%%d %%%d`, consts[0], consts[0x3c00]), text)
			case "bool to f16":
				assert.Regexp(t, fmt.Sprintf(`OpSelect %%\d+ %%\d+ %%%d %%%d`, consts[0x3c00], consts[0]), text)
			}
			if c.raw != nil {
				raw := dis(t, emitValid(t, m, "k", Options{Mode: Raw}))
				assert.NotContains(t, raw, "FClamp", "raw mode converts directly")
			}
		})
	}
}

// f16ConstIDs maps the literal word of each f16 OpConstant of words to
// its result id.
func f16ConstIDs(words []uint32) map[uint32]uint32 {
	f16Type := uint32(0)
	out := map[uint32]uint32{}
	for i := headerLength; i < len(words); {
		n, op := int(words[i]>>16), opcode(words[i]&0xffff)
		in := words[i : i+n]
		switch {
		case op == opTypeFloat && in[2] == 16:
			f16Type = in[1]
		case op == opConstant && f16Type != 0 && in[1] == f16Type:
			out[in[3]] = in[2]
		case op == opConstantNull && f16Type != 0 && in[1] == f16Type:
			out[0] = in[2]
		}
		i += n
	}
	return out
}

// lines returns the lines of text containing s.
func lines(text, s string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}
