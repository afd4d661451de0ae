package flatten_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// entryValue converts a JSON number or array of numbers to a binding
// value of type typ (a scalar, or an array, fixed or runtime-sized, of
// i32/u32/f32 or their atomics): the shapes the compute corpus uses.
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
	if typ.Kind != ir.KindArray && typ.Kind != ir.KindRuntimeArray {
		var x float64
		require.NoError(t, json.Unmarshal(raw, &x))
		return scalar(typ, x)
	}
	var nums []float64
	require.NoError(t, json.Unmarshal(raw, &nums))
	v := ir.Value{Type: typ}
	for _, x := range nums {
		v.Elems = append(v.Elems, scalar(typ.Elem, x))
	}
	return v
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
			t.Logf("twin:\n%s", ir.PrintFunc(twin))
			require.NoError(t, ir.Verify(m))
			want := c.dispatch(t, m, f.Name)
			got := c.dispatch(t, m, twin.Name)
			assert.Equal(t, want.Buffers, got.Buffers, "twin:\n%s", ir.PrintFunc(twin))
			assert.Equal(t, want.Races, got.Races, "twin:\n%s", ir.PrintFunc(twin))
		})
	}
}
