package shaders

import (
	"encoding/json"
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

// paddedKernel has a runtime-sized array of structs with padding inside
// and after each element (v: vec3 at 0, n at 12, w: vec4 at 16, k at 32,
// stride 48) beside a uniform binding, and a race: invocation 1 reads
// what invocation 0 writes in the same epoch (out[0].k), so out[1].k is
// one of the two values (an allowed set) and the race is reported.
const paddedKernel = `struct S {
  v: vec3<f32>,
  n: u32,
  w: vec4<f32>,
  k: f32,
}
struct P { scale: f32, add: u32, pad0: u32, pad1: u32 }
@group(0) @binding(0) var<uniform> p: P;
@group(0) @binding(1) var<storage, read_write> out: array<S>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  out[i].v = out[i].v * p.scale;
  out[i].n = out[i].n + p.add;
  out[i].w.y = f32(i);
  if (i == 0u) { out[0].k = 7.0; }
  if (i == 1u) { out[1].k = out[0].k; }
}
`

// TestRunBuffersAgreesWithRun: Dispatch.RunBuffers, given each binding
// as the bytes of the value Run is given (ir.NewBuffer), returns leaf for
// leaf what Run returns — the same bits (Buffer.Leaf(i) against the
// value's leaf i), indeterminate marks, tolerances, allowed sets, reasons
// and races — for every shaders/compute shader (atomics, barriers,
// races, allowed sets, out-of-bounds accesses, uniform bindings, runtime
// arrays of structs) and paddedKernel (padding in a runtime array's
// elements). Run's results are checked against hand-derived values by
// TestComputeShadersMatchHandDerivedExpectations, so this pins
// RunBuffers to them. A binding nothing writes comes back as the
// caller's own bytes; a written one in bytes of its own, the caller's
// untouched. RunBuffers gives the same on 1, 2 and 3 workers.
func TestRunBuffersAgreesWithRun(t *testing.T) {
	files, err := filepath.Glob("compute/*.wgsl")
	require.NoError(t, err)
	type tcase struct {
		name string
		src  []byte
		in   map[string]json.RawMessage
	}
	var cases []tcase
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		raw, err := os.ReadFile(strings.TrimSuffix(f, ".wgsl") + ".inputs.json")
		require.NoError(t, err)
		var in map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &in))
		cases = append(cases, tcase{f, src, in})
	}
	var padded map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(`{"workgroups": [1, 1, 1],
 "p": {"scale": 2, "add": 5, "pad0": 0, "pad1": 0},
 "out": [{"v": [1, 2, 3], "n": 1, "w": [1, 1, 1, 1], "k": 0},
         {"v": [4, 5, 6], "n": 2, "w": [2, 2, 2, 2], "k": 0},
         {"v": [7, 8, 9], "n": 3, "w": [3, 3, 3, 3], "k": 0},
         {"v": [0, 0, 1], "n": 4, "w": [4, 4, 4, 4], "k": 0}]}`), &padded))
	cases = append(cases, tcase{"padded.wgsl", []byte(paddedKernel), padded})

	var races, allowed, atomics, uniforms, shared int
	for _, c := range cases {
		m, err := wgsl.Parse(c.name, c.src)
		require.NoError(t, err)
		f, err := wgsl.Entry(m, "")
		require.NoError(t, err, c.name)
		d, err := interp.CompileEntry(m, f.Name)
		require.NoError(t, err, c.name)
		var wg [3]uint32
		require.NoError(t, json.Unmarshal(c.in["workgroups"], &wg))
		vals := map[string]ir.Value{}
		bufs := map[string]ir.Buffer{}
		before := map[string][]byte{}
		for _, g := range d.Vars() {
			raw, ok := c.in[g.Name]
			if !ok || g.Space == ir.SpaceWorkgroup {
				continue
			}
			vals[g.Name] = computeValue(t, g.T, raw)
			b, err := ir.NewBuffer(g.T, vals[g.Name])
			require.NoError(t, err, "%s: %s", c.name, g.Name)
			bufs[g.Name] = b
			before[g.Name] = append([]byte(nil), b.Bytes...)
			if g.Space == ir.SpaceUniform {
				uniforms++
			}
		}
		want, err := d.Run(vals, wg, interp.Options{})
		require.NoError(t, err, c.name)
		got, err := d.RunBuffers(bufs, wg, interp.Options{})
		require.NoError(t, err, c.name)
		for _, workers := range []int{1, 2, 3} {
			// The same on any number of workers (interp/parallel.go).
			again, err := d.RunBuffers(bufs, wg, interp.Options{Workers: workers})
			require.NoError(t, err, c.name)
			require.Equal(t, got, again, "%s on %d workers", c.name, workers)
		}
		assert.Equal(t, want.Races, got.Races, c.name)
		races += len(want.Races)
		require.Len(t, got.Buffers, len(want.Buffers), c.name)
		for name, w := range want.Buffers {
			g := got.Buffers[name]
			require.NotNil(t, g.Buffer.Type, "%s: %s has a buffer", c.name, name)
			assert.Zero(t, g.Value.Type, "%s: %s has no value", c.name, name)
			leaves := valueLeaves(w.Value, nil)
			require.Equal(t, len(leaves), bufferLeaves(g.Buffer), "%s: %s leaves", c.name, name)
			for i, l := range leaves {
				gl := g.Buffer.Leaf(i)
				if gl.Type.Kind != l.Type.Kind || gl.Bits != l.Bits {
					assert.Failf(t, "leaf differs", "%s: %s leaf %d (%s): RunBuffers %v, Run %v", c.name, name, i, g.Buffer.LeafPath(i), gl, l)
				}
			}
			assert.Equal(t, w.Indeterminate, g.Indeterminate, "%s: %s", c.name, name)
			assert.Equal(t, w.Tolerance, g.Tolerance, "%s: %s", c.name, name)
			assert.Equal(t, w.Allowed, g.Allowed, "%s: %s", c.name, name)
			assert.Equal(t, w.Why, g.Why, "%s: %s", c.name, name)
			if w.Allowed != nil {
				allowed++
			}
			if strings.Contains(d.Vars()[indexOf(d, name)].T.String(), "atomic") {
				atomics++
			}
			if in, ok := bufs[name]; ok {
				assert.Equal(t, before[name], in.Bytes, "%s: %s: the caller's bytes are not written", c.name, name)
				if len(in.Bytes) > 0 && &in.Bytes[0] == &g.Buffer.Bytes[0] {
					shared++
					assert.True(t, ir.Equal(w.Value, vals[name]), "%s: %s shared yet changed", c.name, name)
				}
			}
		}
	}
	// No bindings given: each starts zeroed, paddedKernel's runtime-sized
	// array of structs with no element (ir.ZeroBuffer: no bytes) in both,
	// the uniform struct 16 bytes.
	m, err := wgsl.Parse("padded.wgsl", []byte(paddedKernel))
	require.NoError(t, err)
	d, err := interp.CompileEntry(m, "main")
	require.NoError(t, err)
	want, err := d.Run(nil, [3]uint32{1, 1, 1}, interp.Options{})
	require.NoError(t, err)
	got, err := d.RunBuffers(nil, [3]uint32{1, 1, 1}, interp.Options{})
	require.NoError(t, err)
	assert.Empty(t, want.Buffers["out"].Value.Elems)
	assert.Zero(t, got.Buffers["out"].Buffer.RuntimeLength())
	assert.Len(t, got.Buffers["p"].Buffer.Bytes, 16)

	// The corpus exercises what the comparison is about.
	assert.Positive(t, races, "races")
	assert.Positive(t, allowed, "allowed sets")
	assert.Positive(t, atomics, "atomic bindings")
	assert.Positive(t, uniforms, "uniform bindings")
	assert.Positive(t, shared, "read-only bindings shared")
}

func indexOf(d *interp.Dispatch, name string) int {
	for i, g := range d.Vars() {
		if g.Name == name {
			return i
		}
	}
	return -1
}

// bufferLeaves is g.Buffer.Leaves(), which (at this commit) panics for a
// type without a runtime-sized array: the fixed part's leaves then, as
// ir.Type.ComponentTypes counts them.
func bufferLeaves(b ir.Buffer) int {
	if ir.Buffer.RuntimeLength(b) == 0 && !hasRuntimeArray(b.Type) {
		return len(b.Type.ComponentTypes())
	}
	return b.Leaves()
}

func hasRuntimeArray(t *ir.Type) bool {
	switch t.Kind {
	case ir.KindRuntimeArray:
		return true
	case ir.KindStruct:
		return hasRuntimeArray(t.Struct.Fields[len(t.Struct.Fields)-1].Type)
	}
	return false
}
