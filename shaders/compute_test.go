package shaders

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
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// computeValue converts a JSON array of numbers to a binding value of
// type t (an array, runtime-sized or fixed, of i32/u32/f32 or their
// atomics): the shapes the compute corpus uses.
func computeValue(t *testing.T, typ *ir.Type, raw json.RawMessage) ir.Value {
	var nums []float64
	if typ.Elem == nil || json.Unmarshal(raw, &nums) != nil {
		// Structs, arrays of vectors or structs: the JSON shape exec reads.
		v, err := ir.UnmarshalValue(typ, raw)
		require.NoError(t, err)
		return v
	}
	elem := typ.Elem
	if elem.Kind == ir.KindAtomic {
		elem = elem.Elem
	}
	v := ir.Value{Type: typ}
	for _, x := range nums {
		var bits uint32
		switch elem.Kind {
		case ir.KindF32:
			bits = math.Float32bits(float32(x))
		case ir.KindI32:
			bits = uint32(int32(x))
		default:
			bits = uint32(x)
		}
		v.Elems = append(v.Elems, ir.ScalarVal(elem, bits))
	}
	return v
}

// TestComputeShadersMatchHandDerivedExpectations runs every
// shaders/compute/NAME.wgsl entry point in the reference dispatch with
// NAME.inputs.json and checks the final read_write bindings and the
// number of data races against NAME.expected.json, derived by hand
// (each shader's comment says how).
func TestComputeShadersMatchHandDerivedExpectations(t *testing.T) {
	files, err := filepath.Glob("compute/*.wgsl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".wgsl")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := wgsl.Parse(path, src)
			require.NoError(t, err)
			require.True(t, wgsl.IsEntryMode(m, ""))
			f, err := wgsl.Entry(m, "")
			require.NoError(t, err)
			var in, want map[string]json.RawMessage
			b, err := os.ReadFile(strings.TrimSuffix(path, ".wgsl") + ".inputs.json")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &in))
			b, err = os.ReadFile(strings.TrimSuffix(path, ".wgsl") + ".expected.json")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &want))
			checkEntryExpectations(t, m, f.Name, in, want)
		})
	}
}

// checkEntryExpectations dispatches the entry point fn of m in the
// reference with the inputs in (NAME.inputs.json, its "workgroups"
// included) and compares the races and read_write bindings with want
// (NAME.expected.json, derived by hand): a number is exact and
// determinate, "indeterminate" any value, {"oneOf": [...]} and/or
// {"range": [lo, hi]} the set of values WGSL allows there.
func checkEntryExpectations(t *testing.T, m *ir.Module, fn string, in, want map[string]json.RawMessage) {
	t.Helper()
	d, err := interp.CompileEntry(m, fn)
	require.NoError(t, err, fn)
	var wg [3]uint32
	require.NoError(t, json.Unmarshal(in["workgroups"], &wg))
	bufs := map[string]ir.Value{}
	for _, g := range d.Vars() {
		if raw, ok := in[g.Name]; ok {
			bufs[g.Name] = computeValue(t, g.T, raw)
		}
	}
	res, err := d.Run(bufs, wg, interp.Options{})
	require.NoError(t, err, fn)
	var races int
	require.NoError(t, json.Unmarshal(want["races"], &races))
	assert.Len(t, res.Races, races, "%s: %v", fn, res.Races)
	for k, raw := range want {
		if k == "races" {
			continue
		}
		out, ok := res.Buffers[k]
		require.True(t, ok, k)
		elems := expectedLeaves(t, out.Value.Type, raw)
		got := valueLeaves(out.Value, nil)
		require.Len(t, got, len(elems), k)
		for i, e := range elems {
			if s, ok := e.(string); ok && s == "indeterminate" {
				assert.True(t, out.Indeterminate != nil && out.Indeterminate[i], "%s: %s[%d] indeterminate", fn, k, i)
				assert.True(t, allowedAt(out.Allowed, i).IsAny(), "%s: %s[%d]: any value, not %s", fn, k, i, allowedAt(out.Allowed, i).Format(got[i].Type))
				continue
			}
			if set, ok := e.(map[string]any); ok {
				require.True(t, out.Indeterminate != nil && out.Indeterminate[i], "%s: %s[%d] indeterminate", fn, k, i)
				have := allowedAt(out.Allowed, i)
				var vals, wantVals []float64
				for _, b := range have.Values {
					vals = append(vals, leafNumber(ir.Value{Type: got[i].Type, Bits: b}))
				}
				for _, v := range asList(set["oneOf"]) {
					wantVals = append(wantVals, v.(float64))
				}
				assert.ElementsMatch(t, wantVals, vals, "%s: %s[%d] allowed values %s", fn, k, i, have.Format(got[i].Type))
				if r := asList(set["range"]); r != nil {
					require.True(t, have.HasRange, "%s: %s[%d] allowed range, have %s", fn, k, i, have.Format(got[i].Type))
					assert.Equal(t, r, []any{leafNumber(ir.Value{Type: got[i].Type, Bits: have.Lo}), leafNumber(ir.Value{Type: got[i].Type, Bits: have.Hi})}, "%s: %s[%d] range", fn, k, i)
				} else {
					assert.False(t, have.HasRange, "%s: %s[%d] no range: %s", fn, k, i, have.Format(got[i].Type))
				}
				continue
			}
			assert.Equal(t, e.(float64), leafNumber(got[i]), "%s: %s[%d]", fn, k, i)
			if out.Indeterminate != nil {
				assert.False(t, out.Indeterminate[i], "%s: %s[%d] determinate", fn, k, i)
			}
		}
	}
}

func allowedAt(a []ir.ValueSet, i int) ir.ValueSet {
	if i < len(a) {
		return a[i]
	}
	return ir.ValueSet{}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// leafNumber is a scalar as a JSON number.
func leafNumber(v ir.Value) float64 {
	switch v.Type.Kind {
	case ir.KindF32:
		return float64(math.Float32frombits(v.Bits))
	case ir.KindI32:
		return float64(int32(v.Bits))
	}
	return float64(v.Bits)
}

// expectedLeaves flattens an expected binding value (the JSON shape of
// typ, any leaf possibly "indeterminate") into its scalar leaves in
// ir.Type.ComponentTypes order: struct members in declaration order.
func expectedLeaves(t *testing.T, typ *ir.Type, raw json.RawMessage) []any {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []any{s}
	}
	var set map[string]any
	if typ.IsScalar() && json.Unmarshal(raw, &set) == nil {
		return []any{set}
	}
	switch typ.Kind {
	case ir.KindAtomic:
		return expectedLeaves(t, typ.Elem, raw)
	case ir.KindStruct:
		var obj map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &obj))
		var out []any
		for _, f := range typ.Struct.Fields {
			out = append(out, expectedLeaves(t, f.Type, obj[f.Name])...)
		}
		return out
	case ir.KindArray, ir.KindRuntimeArray, ir.KindVec:
		var items []json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &items))
		var out []any
		for _, it := range items {
			out = append(out, expectedLeaves(t, typ.Elem, it)...)
		}
		return out
	}
	var f float64
	require.NoError(t, json.Unmarshal(raw, &f))
	return []any{f}
}

// valueLeaves appends v's scalar leaves to out, in order.
func valueLeaves(v ir.Value, out []ir.Value) []ir.Value {
	if v.Elems == nil {
		return append(out, v)
	}
	for _, e := range v.Elems {
		out = valueLeaves(e, out)
	}
	return out
}

// TestNonUniformBarrierIsAnError: a barrier reached by only some
// invocations of a workgroup is an error, positioned at the barrier —
// statically by the front end's uniformity analysis (WGSL #uniformity),
// and at run time by the reference for IR that bypasses it (the uniform
// condition params[0] > 0u replaced by li < 2u).
func TestNonUniformBarrierIsAnError(t *testing.T) {
	bad := "@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) li: u32) {\n  if (li < 2u) {\n    workgroupBarrier();\n  }\n}\n"
	_, err := wgsl.Parse("bad.wgsl", []byte(bad))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad.wgsl:4:5")

	ok := "@group(0) @binding(0) var<storage, read> params: array<u32, 1>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) li: u32) {\n  if (params[0] > 0u) {\n    workgroupBarrier();\n  }\n}\n"
	m, err := wgsl.Parse("nu.wgsl", []byte(ok))
	require.NoError(t, err)
	f := m.Func("main")
	iff := f.Body.Stmts[0].(*ir.If)
	iff.Cond = &ir.Binary{Pos: iff.Cond.Position(), Op: ir.OpLt, T: ir.Bool,
		X: &ir.Ident{Name: "li", T: ir.U32, Ref: ir.RefParam}, Y: &ir.Lit{Val: ir.ScalarVal(ir.U32, 2)}}
	d, err := interp.CompileEntry(m, "main")
	require.NoError(t, err)
	one := ir.Value{Type: ir.ArrayOf(ir.U32, 1), Elems: []ir.Value{ir.ScalarVal(ir.U32, 1)}}
	_, err = d.Run(map[string]ir.Value{"params": one}, [3]uint32{1, 1, 1}, interp.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nu.wgsl:5:5: interp: barrier reached by only some invocations of a workgroup")
}
