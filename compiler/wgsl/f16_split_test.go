package wgsl

import (
	"testing"

	"github.com/gpudiff/gpudiff/ir"
)

// modf and frexp of f16 return __modf_result_f16 / __frexp_result_vecN_f16
// (WGSL #modf-builtin, #frexp-builtin: fract and whole of the argument's
// type, exp of i32s), and a run-time bitcast between vec2<f16> and u32
// keeps its 32 bits (WGSL #bitcast-builtin): all lower to the IR.
func TestF16SplitsAndBitcastsLower(t *testing.T) {
	src := "enable f16;\nfn k(x: u32, y: f16) -> f32 {\n  let v = bitcast<vec2<f16>>(x);\n  let m = modf(y);\n  let f = frexp(vec2<f16>(y, 1.0h));\n  return f32(v.x + m.fract + f.fract.y) + f32(f.exp.x) + f32(bitcast<u32>(v));\n}"
	m, err := Parse("s.wgsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	ir.Inspect(m.Func("k").Body, func(n ir.Node) bool {
		switch e := n.(type) {
		case *ir.BuiltinCall:
			if e.Fn == ir.BModf || e.Fn == ir.BFrexp {
				types = append(types, e.T.String())
			}
		case *ir.Bitcast:
			types = append(types, e.X.Type().String()+"->"+e.T.String())
		}
		return true
	})
	want := map[string]bool{"u32->vec2<f16>": true, "__modf_result_f16": true, "__frexp_result_vec2_f16": true, "vec2<f16>->u32": true}
	for _, s := range types {
		delete(want, s)
	}
	if len(want) != 0 {
		t.Errorf("lowered %v; missing %v", types, want)
	}
}
