package wgsl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// ptExprGens builds generators of random const-expressions of the types
// bool, i32, u32 and f32, up to a depth, mixing abstract and concrete
// literals, operators, conversions and builtins. Binary operations are
// parenthesized, so every expression is syntactically valid; many are
// invalid WGSL (overflow, division by zero, shifts by ≥ 32, values out of
// range), which is the point.
type ptExprGens struct {
	cache map[string]gopter.Gen
}

func (g *ptExprGens) expr(typ string, depth int) gopter.Gen {
	key := fmt.Sprintf("%s/%d", typ, depth)
	if gg, ok := g.cache[key]; ok {
		return gg
	}
	leaves := map[string][]interface{}{
		"i32":  {"0i", "1i", "-3i", "7", "-8", "2147483647i", "i32(-2147483648)", "65536i", "100"},
		"u32":  {"0u", "1u", "3u", "7", "4294967295u", "0x80000000u", "65536u", "100"},
		"f32":  {"0.0", "1.5f", "-2.25", "3.0f", "0.1", "1e10f", "-0.5f", "1e38", "7"},
		"bool": {"true", "false"},
	}
	leaf := gen.OneConstOf(leaves[typ]...)
	if depth == 0 {
		g.cache[key] = leaf
		return leaf
	}
	sub := func(t string) gopter.Gen { return g.expr(t, depth-1) }
	str := func(v interface{}) string { return v.(string) }
	bin := func(ops []interface{}, t string) gopter.Gen {
		return gopter.CombineGens(gen.OneConstOf(ops...), sub(t), sub(t)).Map(func(v []interface{}) string {
			return "(" + str(v[1]) + " " + str(v[0]) + " " + str(v[2]) + ")"
		})
	}
	call := func(f string, ts ...string) gopter.Gen {
		var gs []gopter.Gen
		for _, t := range ts {
			gs = append(gs, sub(t))
		}
		return gopter.CombineGens(gs...).Map(func(v []interface{}) string {
			parts := make([]string, len(v))
			for i, x := range v {
				parts[i] = str(x)
			}
			return f + "(" + strings.Join(parts, ", ") + ")"
		})
	}
	gens := []gopter.Gen{leaf}
	switch typ {
	case "i32", "u32":
		gens = append(gens,
			bin([]interface{}{"+", "-", "*", "/", "%", "&", "|", "^"}, typ),
			gopter.CombineGens(gen.OneConstOf("<<", ">>"), sub(typ), gen.UInt32Range(0, 40)).Map(func(v []interface{}) string {
				return fmt.Sprintf("(%s %s %du)", str(v[1]), str(v[0]), v[2].(uint32))
			}),
			call("min", typ, typ), call("max", typ, typ), call("clamp", typ, typ, typ),
			call("select", typ, typ, "bool"), call("countOneBits", typ), call("reverseBits", typ),
			call("firstLeadingBit", typ), call(typ, "f32"))
		if typ == "i32" {
			gens = append(gens, call("abs", typ), call("i32", "u32"), call("sign", typ))
		} else {
			gens = append(gens, call("u32", "i32"))
		}
	case "f32":
		gens = append(gens,
			bin([]interface{}{"+", "-", "*", "/"}, typ),
			call("min", typ, typ), call("max", typ, typ), call("abs", typ), call("floor", typ),
			call("ceil", typ), call("trunc", typ), call("round", typ), call("sign", typ),
			call("select", typ, typ, "bool"), call("f32", "i32"), call("f32", "u32"), call("step", typ, typ))
	case "bool":
		for _, t := range []string{"i32", "u32", "f32"} {
			gens = append(gens, bin([]interface{}{"<", "<=", ">", ">=", "==", "!="}, t))
		}
		gens = append(gens, bin([]interface{}{"&&", "||", "==", "!="}, "bool"), call("!", "bool"), call("bool", "i32"))
	}
	gg := gen.OneGenOf(gens...)
	g.cache[key] = gg
	return gg
}

// TestConstEvalAgreesWithTint is a property: for random const-expressions,
// gpudiff and Tint either both reject the module or both accept it and
// fold the expression to the same value, bit for bit except that +0.0 and
// -0.0 are the same value (WGSL #differences-from-ieee754 lets an
// implementation ignore the sign of a zero, and Tint's abs, division and
// addition do; gpudiff follows IEEE-754). For that reason the generator
// has no bitcast of float values. Tint's verdict and value come from
// Dawn on SwiftShader (ptTintValues): a rejected module fails shader-module
// creation, an accepted one returns the value Tint folded.
func TestConstEvalAgreesWithTint(t *testing.T) {
	g := &ptExprGens{cache: map[string]gopter.Gen{}}
	params := gopter.DefaultTestParametersWithSeed(20240611)
	params.MinSuccessfulTests = 150
	properties := gopter.NewProperties(params)
	for _, typ := range []string{"i32", "u32", "f32", "bool"} {
		typ := typ
		properties.Property(typ+" const-expressions fold as in Tint", prop.ForAll(func(expr string) string {
			src := "fn k0() -> " + typ + " { return " + expr + "; }\n"
			tint := ptTintValues(t, src, []string{typ})
			m, err := Parse("p.wgsl", []byte(src))
			switch {
			case err != nil && tint.err != nil:
				return ""
			case err != nil:
				return "gpudiff rejects what tint accepts: " + err.Error()
			case tint.err != nil:
				return "tint rejects what gpudiff accepts: " + tint.err.Error()
			}
			lit, ok := m.Func("k0").Body.Stmts[0].(*ir.Return).Value.(*ir.Lit)
			if !ok {
				return "not folded to a Lit"
			}
			want := tint.vals[0]
			if typ == "f32" && want.F32() == 0 && lit.Val.F32() == 0 {
				return ""
			}
			if !ir.Equal(want, lit.Val) {
				return fmt.Sprintf("tint folds to %v, gpudiff to %v", want, lit.Val)
			}
			return ""
		}, g.expr(typ, 3)))
	}
	properties.TestingRun(t)
}
