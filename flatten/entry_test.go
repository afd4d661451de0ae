package flatten_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// entryValue converts a dispatch input to a binding
// value of type typ: a scalar or an array of scalars or their atomics from
// JSON numbers, anything else (structs, vectors, arrays of them) as exec
// reads it (ir.UnmarshalValue).
func entryValue(t *testing.T, typ *ir.Type, raw json.RawMessage) ir.Value {
	scalar := func(elem *ir.Type, x float64) ir.Value {
		if elem.Kind == ir.KindAtomic {
			elem = elem.Elem
		}
		switch elem.Kind {
		case ir.KindF32:
			return ir.ScalarVal(elem, math.Float32bits(float32(x)))
		case ir.KindI32:
			return ir.ScalarVal(elem, uint32(int32(x)))
		}
		return ir.ScalarVal(elem, uint32(x))
	}
	var nums []float64
	if typ.Kind != ir.KindArray && typ.Kind != ir.KindRuntimeArray || json.Unmarshal(raw, &nums) != nil {
		if typ.IsScalar() || typ.Kind == ir.KindAtomic {
			var x float64
			require.NoError(t, json.Unmarshal(raw, &x))
			return scalar(typ, x)
		}
		// Structs, vectors, arrays of vectors or structs: the JSON shape
		// exec reads (ir.UnmarshalValue).
		v, err := ir.UnmarshalValue(typ, raw)
		require.NoError(t, err)
		return v
	}
	v := ir.Value{Type: typ}
	for _, x := range nums {
		v.Elems = append(v.Elems, scalar(typ.Elem, x))
	}
	return v
}

// sameBuffers requires the twin's final bindings to equal the original's:
// values, indeterminate leaves and tolerances. The reasons' text may
// differ (it quotes each function's own expressions).
func sameBuffers(t *testing.T, want, got map[string]interp.Output, msg ...any) {
	t.Helper()
	strip := func(m map[string]interp.Output) map[string]interp.Output {
		out := map[string]interp.Output{}
		for k, o := range m {
			o.Why = ""
			out[k] = o
		}
		return out
	}
	require.Equal(t, strip(want), strip(got), msg...)
}

// entryCase is a compute shader with its dispatch inputs.
type entryCase struct {
	name, src string
	in        map[string]json.RawMessage
}

// dispatch runs entry point name of m on the case's inputs.
func (c entryCase) dispatch(t *testing.T, m *ir.Module, name string) *interp.DispatchResult {
	d, err := interp.CompileEntry(m, name)
	require.NoError(t, err, name)
	var wg [3]uint32
	require.NoError(t, json.Unmarshal(c.in["workgroups"], &wg))
	bufs := map[string]ir.Value{}
	for _, g := range d.Vars() {
		if raw, ok := c.in[g.Name]; ok {
			bufs[g.Name] = entryValue(t, g.T, raw)
		}
	}
	res, err := d.Run(bufs, wg, interp.Options{})
	require.NoError(t, err, name)
	return res
}

// computeCases reads every ../shaders/compute shader with its inputs.
func computeCases(t *testing.T) []entryCase {
	files, err := filepath.Glob("../shaders/compute/*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out []entryCase
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		b, err := os.ReadFile(strings.TrimSuffix(path, ".wgsl") + ".inputs.json")
		require.NoError(t, err)
		var in map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(b, &in))
		out = append(out, entryCase{name: filepath.Base(path), src: string(src), in: in})
	}
	return out
}

// TestEntryTwinsAgreeInDispatch flattens every shaders/compute entry
// point and runs original and twin as whole dispatches in the reference
// (same buffers, same workgroups): the final bindings, their
// indeterminate leaves and the data races found must be identical. The
// twin is a @compute entry point with the original's workgroup size and
// builtin parameters, and has the twin shape (flatten's finalcheck): no
// control flow but guards.
func TestEntryTwinsAgreeInDispatch(t *testing.T) {
	for _, c := range computeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			m, err := wgsl.Parse(c.name, []byte(c.src))
			require.NoError(t, err)
			f, err := wgsl.Entry(m, "")
			require.NoError(t, err)
			twin, err := flatten.Function(m, f.Name, flatten.Options{Strict: true})
			require.NoError(t, err)
			assert.Equal(t, f.Name+"_flat", twin.Name)
			assert.Equal(t, ir.StageCompute, twin.Stage)
			assert.Equal(t, f.WorkgroupSize, twin.WorkgroupSize)
			require.Len(t, twin.Params, len(f.Params))
			for i, p := range f.Params {
				assert.Equal(t, p.Builtin, twin.Params[i].Builtin)
			}
			require.NoError(t, ir.Verify(m))
			// The twin is valid WGSL, uniformity analysis included.
			_, err = wgsl.Parse("twin.wgsl", []byte(ir.Print(m)))
			require.NoError(t, err, "%s", ir.Print(m))
			want := c.dispatch(t, m, f.Name)
			got := c.dispatch(t, m, twin.Name)
			sameBuffers(t, want.Buffers, got.Buffers, "twin:\n%s", ir.PrintFunc(twin))
			assert.Equal(t, want.Races, got.Races, "twin:\n%s", ir.PrintFunc(twin))
		})
	}
}

// TestEntryTwinsAgreeOnRandomBindings is the property: for every
// shaders/compute shader, original and twin agree (bindings,
// indeterminacy, races) on 25 random contents of its bindings (the
// shapes of NAME.inputs.json, values in [0, 8) so that they are indexes,
// counts and flags the shaders branch on).
func TestEntryTwinsAgreeOnRandomBindings(t *testing.T) {
	for _, c := range computeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			m, err := wgsl.Parse(c.name, []byte(c.src))
			require.NoError(t, err)
			f, err := wgsl.Entry(m, "")
			require.NoError(t, err)
			twin, err := flatten.Function(m, f.Name, flatten.Options{})
			require.NoError(t, err)
			rng := rand.New(rand.NewSource(1))
			for n := 0; n < 25; n++ {
				v := entryCase{name: c.name, in: map[string]json.RawMessage{}}
				for k, raw := range c.in {
					var nums []float64
					if k == "workgroups" || json.Unmarshal(raw, &nums) != nil {
						v.in[k] = raw
						continue
					}
					for i := range nums {
						nums[i] = float64(rng.Intn(8))
					}
					b, _ := json.Marshal(nums)
					v.in[k] = b
				}
				want := v.dispatch(t, m, f.Name)
				got := v.dispatch(t, m, twin.Name)
				sameBuffers(t, want.Buffers, got.Buffers, "inputs %v", v.in)
				require.Equal(t, want.Races, got.Races, "inputs %v", v.in)
			}
		})
	}
}

// TestEntryRefusals: a barrier under non-uniform control flow (IR that
// bypassed the front end's uniformity analysis: the uniform condition
// params[0] > 0u replaced by li < 2u, or an early return of some
// invocations before it) and atomicCompareExchangeWeak under a predicate
// are refused, positioned at the construct, saying why.
func TestEntryRefusals(t *testing.T) {
	const uniformIf = "@group(0) @binding(0) var<storage, read> params: array<u32, 1>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) li: u32) {\n  if (params[0] > 0u) {\n    workgroupBarrier();\n  }\n}\n"
	liLt2 := func(pos ir.Pos) ir.Expr {
		return &ir.Binary{Pos: pos, Op: ir.OpLt, T: ir.Bool,
			X: &ir.Ident{Pos: pos, Name: "li", T: ir.U32, Ref: ir.RefParam}, Y: &ir.Lit{Pos: pos, Val: ir.ScalarVal(ir.U32, 2)}}
	}
	t.Run("non-uniform if", func(t *testing.T) {
		m, err := wgsl.Parse("nu.wgsl", []byte(uniformIf))
		require.NoError(t, err)
		iff := m.Func("main").Body.Stmts[0].(*ir.If)
		iff.Cond = liLt2(iff.Cond.Position())
		_, err = flatten.Function(m, "main", flatten.Options{})
		require.Error(t, err)
		assert.True(t, flatten.IsRefusal(err), "%v", err)
		assert.Contains(t, err.Error(), "nu.wgsl:5:5: flatten: workgroupBarrier under non-uniform control flow")
		assert.Nil(t, m.Func("main_flat"))
	})
	t.Run("uniform if is kept", func(t *testing.T) {
		m, err := wgsl.Parse("u.wgsl", []byte(uniformIf))
		require.NoError(t, err)
		tw, err := flatten.Function(m, "main", flatten.Options{})
		require.NoError(t, err)
		assert.Contains(t, ir.PrintFunc(tw), "if (cond) {\n    workgroupBarrier();\n  }")
	})
	t.Run("non-uniform return before a barrier", func(t *testing.T) {
		src := "@group(0) @binding(0) var<storage, read> params: array<u32, 1>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) li: u32) {\n  if (params[0] > 0u) {\n    return;\n  }\n  workgroupBarrier();\n}\n"
		m, err := wgsl.Parse("ret.wgsl", []byte(src))
		require.NoError(t, err)
		iff := m.Func("main").Body.Stmts[0].(*ir.If)
		iff.Cond = liLt2(iff.Cond.Position())
		_, err = flatten.Function(m, "main", flatten.Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "ret.wgsl:7:3: flatten: workgroupBarrier under non-uniform control flow")
	})
	t.Run("predicated compare-exchange", func(t *testing.T) {
		src := "@group(0) @binding(0) var<storage, read_write> a: array<atomic<u32>, 4>;\n@group(0) @binding(1) var<storage, read_write> out: array<u32, 4>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) li: u32) {\n  if (li < 2u) {\n    let r = atomicCompareExchangeWeak(&a[li], 0u, 1u);\n    out[li] = r.old_value;\n  }\n}\n"
		m, err := wgsl.Parse("cx.wgsl", []byte(src))
		require.NoError(t, err)
		_, err = flatten.Function(m, "main", flatten.Options{})
		require.Error(t, err)
		assert.True(t, flatten.IsRefusal(err), "%v", err)
		assert.Contains(t, err.Error(), "cx.wgsl:6:13: flatten: atomicCompareExchangeWeak under a predicate")
	})
}

var updateEntryGoldens = flag.Bool("update-entry", false, "rewrite testdata/entry/*.txtar flat.wgsl sections")

// TestEntryGoldens: testdata/entry/NAME.txtar holds a compute shader
// (input.wgsl) with its dispatch (inputs.json, as shaders/compute's) and
// the twin flatten gives (flat.wgsl, reviewed by reading). Independently
// of the text, the twin must agree with the original in the reference
// dispatch. -update-entry rewrites flat.wgsl.
func TestEntryGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/entry/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			sec := map[string]int{}
			for i, f := range ar.Files {
				sec[f.Name] = i
			}
			c := entryCase{name: "input.wgsl", src: string(ar.Files[sec["input.wgsl"]].Data)}
			require.NoError(t, json.Unmarshal(ar.Files[sec["inputs.json"]].Data, &c.in))
			m, err := wgsl.Parse(c.name, []byte(c.src))
			require.NoError(t, err)
			f, err := wgsl.Entry(m, "")
			require.NoError(t, err)
			twin, err := flatten.Function(m, f.Name, flatten.Options{Strict: true})
			require.NoError(t, err)
			want, got := c.dispatch(t, m, f.Name), c.dispatch(t, m, twin.Name)
			sameBuffers(t, want.Buffers, got.Buffers)
			require.Equal(t, want.Races, got.Races)
			text := ir.PrintFunc(twin)
			i, ok := sec["flat.wgsl"]
			if *updateEntryGoldens {
				if !ok {
					ar.Files = append(ar.Files, txtar.File{Name: "flat.wgsl"})
					i = len(ar.Files) - 1
				}
				ar.Files[i].Data = []byte(text)
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			require.True(t, ok, "no flat.wgsl section (run with -update-entry)")
			assert.Equal(t, string(ar.Files[i].Data), text, fmt.Sprintf("%s: flat.wgsl (go test ./flatten -run TestEntryGoldens -update-entry, and review)", path))
		})
	}
}
