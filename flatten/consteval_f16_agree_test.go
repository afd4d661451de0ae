package flatten

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// agreeF16 sweeps binary16 edges: zeros, small integers and halves, the
// integer limit 2048 (2049 is not a binary16), 65504 (the largest
// finite), 2^-11 (half an ulp of 1), 2^-14 (the smallest normal), 2^-24
// (the smallest subnormal) and 0.1h (0x2e66, rounded).
var agreeF16 = []uint16{0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x3e00, 0x4080, 0x4200, 0x6800, 0x7bff, 0xfbff, 0x1000, 0x0400, 0x0001, 0x2e66, 0x63d0}

// TestF16FoldsAgree: for f16 operators, builtins and conversions on every
// combination of edge operands, flatten folds (evalOK) only to the value
// the front end's constant evaluation gives and that the interpreter's
// run-time value allows (within its tolerance: WGSL's rounding freedom),
// and it never folds what the front end rejects as a const-expression
// (an f16 overflow, a zero divisor): flatten's evalError there.
func TestF16FoldsAgree(t *testing.T) {
	hs := make([]ir.Value, len(agreeF16))
	for i, h := range agreeF16 {
		hs[i] = ir.F16Bits(h)
	}
	fs := []ir.Value{ir.F32Val(0.5), ir.F32Val(0.1), ir.F32Val(65504), ir.F32Val(65519), ir.F32Val(70000), ir.F32Val(-3), ir.F32Val(1e-6)}
	is := []ir.Value{ir.I32Val(0), ir.I32Val(-7), ir.I32Val(2048), ir.I32Val(2049), ir.I32Val(65504), ir.I32Val(100000)}
	lit := func(v ir.Value) string {
		switch v.Type.Kind {
		case ir.KindF16:
			return ir.FormatF16(uint16(v.Bits))
		case ir.KindF32:
			return fmt.Sprintf("%gf", v.F32())
		}
		return fmt.Sprintf("i32(%d)", v.I32())
	}
	cases := []agreeCase{}
	add := func(name, result, expr string, vals ...[]ir.Value) {
		cases = append(cases, agreeCase{name, result, expr, vals})
	}
	for _, op := range []string{"+", "-", "*", "/"} {
		add(op, "f16", "%[1]s "+op+" %[2]s", hs, hs)
	}
	for _, op := range []string{"<", "=="} {
		add(op, "bool", "%[1]s "+op+" %[2]s", hs, hs)
	}
	add("unary -", "f16", "-%[1]s", hs)
	for _, fn := range []string{"abs", "floor", "ceil", "trunc", "round", "sign"} {
		add(fn, "f16", fn+"(%[1]s)", hs)
	}
	add("min", "f16", "min(%[1]s, %[2]s)", hs, hs)
	add("max", "f16", "max(%[1]s, %[2]s)", hs, hs)
	add("f32(h)", "f32", "f32(%[1]s)", hs)
	add("i32(h)", "i32", "i32(%[1]s)", hs)
	add("bool(h)", "bool", "bool(%[1]s)", hs)
	add("f16(f32)", "f16", "f16(%[1]s)", fs)
	add("f16(i32)", "f16", "f16(%[1]s)", is)
	names := []string{"a", "b"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ops := make([]any, len(c.vals))
			for i := range c.vals {
				ops[i] = names[i]
			}
			for _, tup := range tuples(c.vals) {
				// The operands are private globals initialized to the
				// literals, so the expression is a run-time one for the
				// interpreter (interp.Run's f16 arguments are not read
				// yet).
				lits := make([]any, len(tup))
				byName := map[string]ir.Value{}
				var decls string
				for j, v := range tup {
					lits[j] = lit(v)
					byName[names[j]] = v
					decls += fmt.Sprintf("var<private> %s: %s = %s;\n", names[j], v.Type, lit(v))
				}
				src := fmt.Sprintf("enable f16;\n%sfn k() -> %s { return %s; }", decls, c.result, fmt.Sprintf(c.expr, ops...))
				m, err := wgsl.Parse("run.wgsl", []byte(src))
				require.NoError(t, err, src)
				runtime := m.Func("k").Body.Stmts[0].(*ir.Return).Value
				constSrc := fmt.Sprintf("enable f16;\nfn k() -> %s { return %s; }", c.result, fmt.Sprintf(c.expr, lits...))
				folded, st := evalNode(withLits(t, runtime, byName))
				cm, feErr := wgsl.Parse("const.wgsl", []byte(constSrc))
				if feErr != nil {
					assert.Equal(t, evalError, st, "%s: the front end rejects it (%v), flatten must not fold it", constSrc, feErr)
					continue
				}
				if st != evalOK {
					continue // left to run time: always allowed
				}
				feLit, ok := cm.Func("k").Body.Stmts[0].(*ir.Return).Value.(*ir.Lit)
				require.True(t, ok, "%s: the front end folds it to a literal", constSrc)
				assert.True(t, ir.Equal(feLit.Val, folded), "%s: front end %v, flatten %v", constSrc, feLit.Val, folded)
				// The interpreter's f16 results come back zero through
				// interp.Run for now; f32(x) is exact for every binary16.
				rm := m
				if c.result == "f16" {
					rsrc := fmt.Sprintf("enable f16;\n%sfn k() -> f32 { return f32(%s); }", decls, fmt.Sprintf(c.expr, ops...))
					rm, err = wgsl.Parse("run32.wgsl", []byte(rsrc))
					require.NoError(t, err, rsrc)
					folded = ir.F32Val(folded.F16())
				}
				invs, err := interp.Run(rm, "k", [][]ir.Value{{}}, interp.Options{})
				require.NoError(t, err)
				require.NoError(t, invs[0].Err, src)
				got := invs[0].Outputs[0]
				if got.Indeterminate != nil && got.Indeterminate[0] {
					t.Errorf("%s: flatten folds to %v what the reference leaves indeterminate (%s)", constSrc, folded, got.Why)
					continue
				}
				tol := 0.0
				if got.Tolerance != nil {
					tol = got.Tolerance[0]
				}
				if folded.Type.IsFloat() {
					assert.LessOrEqual(t, math.Abs(folded.Float()-got.Value.Float()), tol, "%s: flatten %v, interp %v ± %g", constSrc, folded, got.Value, tol)
				} else {
					assert.True(t, ir.Equal(folded, got.Value), "%s: flatten %v, interp %v", constSrc, folded, got.Value)
				}
			}
		})
	}
}
