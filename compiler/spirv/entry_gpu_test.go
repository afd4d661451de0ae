package spirv

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// TestComputeEntryPointsMatchReferenceOnLavapipe runs every compute
// shader that has NAME.inputs.json (shaders/compute and testdata/compute)
// as written on lavapipe from gpudiff's SPIR-V, portable and raw, through
// the harness's bindings dispatch, and compares every leaf of every
// read_write binding with the reference dispatch (interp.CompileEntry,
// Run) bit for bit, skipping the leaves the reference calls
// indeterminate (a race). The buffers are laid out by this package's
// host layout (layout.go), so a wrong Offset or ArrayStride shows up as a
// mismatch, not only a wrong decoration.
func TestComputeEntryPointsMatchReferenceOnLavapipe(t *testing.T) {
	dev := gpu(t)
	for _, glob := range []string{"../../shaders/compute/*.inputs.json", "testdata/compute/*.inputs.json"} {
		files, err := filepath.Glob(glob)
		require.NoError(t, err)
		require.NotEmpty(t, files, glob)
		for _, inPath := range files {
			path := strings.TrimSuffix(inPath, ".inputs.json") + ".wgsl"
			t.Run(strings.TrimSuffix(filepath.Base(path), ".wgsl"), func(t *testing.T) {
				src, err := os.ReadFile(path)
				require.NoError(t, err)
				m, err := wgsl.Parse(filepath.Base(path), src)
				require.NoError(t, err)
				ep, err := wgsl.Entry(m, "")
				require.NoError(t, err)
				raw, err := os.ReadFile(inPath)
				require.NoError(t, err)
				var in map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(raw, &in))
				var wg [3]uint32
				require.NoError(t, json.Unmarshal(in["workgroups"], &wg))

				d, err := interp.CompileEntry(m, ep.Name)
				require.NoError(t, err)
				vals := map[string]ir.Value{}
				var bufs []harness.BufferBinding
				var outs []*ir.SharedVar
				for _, v := range sharedUsed(m, ep.Name) {
					if v.Space == ir.SpaceWorkgroup {
						continue
					}
					js, ok := in[v.Name]
					require.True(t, ok, "%s: no input for binding %s", inPath, v.Name)
					val := jsonValue(t, v.T, js)
					vals[v.Name] = val
					kind := harness.BindingUniform
					if v.Space == ir.SpaceStorage {
						kind = harness.BindingReadOnly
						if v.Access == ir.AccessReadWrite {
							kind = harness.BindingStorage
							outs = append(outs, v)
						}
					}
					data := make([]byte, hostBytes(v.T, val))
					encodeHost(data, v.T, val)
					bufs = append(bufs, harness.BufferBinding{Group: uint32(v.Group), Binding: uint32(v.Binding), Kind: kind, Data: data})
				}
				ref, err := d.Run(vals, wg, interp.Options{})
				require.NoError(t, err)
				for _, o := range bothModes {
					words := emitValid(t, m, ep.Name, o)
					got, err := dev.Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: ep.Name},
						harness.Dispatch{Buffers: bufs, Workgroups: wg})
					if usesAtomics(m, ep.Name) {
						// wgpu 0.19.4 reads SPIR-V through naga's front end,
						// which has no atomics yet (gfx-rs/wgpu#4489; OpAtomicIAdd
						// and the others arrived in later naga releases): the
						// module is refused before it reaches Vulkan. When this
						// fails, the stack reads atomics: compare them too.
						require.Error(t, err, "%s, %s: wgpu now reads SPIR-V atomics", dev.Info().Name, o.Mode)
						assert.Contains(t, err.Error(), "unsupported instruction Atomic")
						continue
					}
					if gap := NagaGap(words); gap != "" {
						// f16, subgroups and the other gaps NagaGap names:
						// refused at shader-module creation, as it says.
						require.Error(t, err, "%s, %s: wgpu now reads this module (%s): drop the gap", dev.Info().Name, o.Mode, gap)
						assert.Contains(t, err.Error(), "In wgpuDeviceCreateShaderModule")
						if !vkrunAvailable() {
							continue
						}
						// Run it on lavapipe through Vulkan directly instead.
						got, err = vkRunBindings(t, words, ep.Name, wg, bufs), nil
					}
					require.NoError(t, err, "%s, %s", dev.Info().Name, o.Mode)
					off := 0
					compared := 0
					for _, v := range outs {
						n := hostBytes(v.T, vals[v.Name])
						want := ref.Buffers[v.Name]
						leaves := hostLeaves(v.T, want.Value, 0, v.Name, nil)
						for i, l := range leaves {
							if want.Indeterminate != nil && want.Indeterminate[i] {
								if i < len(want.Allowed) && !want.Allowed[i].IsAny() {
									// An allowed set: the run must be in it.
									g := ir.Value{Type: l.t, Bits: ir.ScalarBits(got[off+l.off:], l.t)}
									assert.True(t, oracle.Contains(want.Allowed[i], g, 0), "%s mode: %s = %v, allowed %s", o.Mode, l.path, g, want.Allowed[i].Format(l.t))
									compared++
								}
								continue
							}
							g := ir.ScalarBits(got[off+l.off:], l.t)
							assert.Equal(t, l.bits, g, "%s mode: %s = %#x, reference %#x", o.Mode, l.path, g, l.bits)
							compared++
						}
						off += n
					}
					if determinate(ref) {
						assert.Positive(t, compared, "no determinate leaf compared")
					}
				}
			})
		}
	}
}

// jsonValue converts a JSON value (a number, an array, an object keyed by
// member name) to a value of binding type t (an atomic as its scalar, a
// runtime-sized array with as many elements as given).
func jsonValue(t *testing.T, typ *ir.Type, raw json.RawMessage) ir.Value {
	t.Helper()
	switch typ.Kind {
	case ir.KindAtomic:
		return jsonValue(t, typ.Elem, raw)
	case ir.KindI32, ir.KindU32, ir.KindF32, ir.KindF16:
		var x float64
		require.NoError(t, json.Unmarshal(raw, &x), "%s for %v", raw, typ)
		switch typ.Kind {
		case ir.KindI32:
			return ir.ScalarVal(typ, uint32(int32(x)))
		case ir.KindU32:
			return ir.ScalarVal(typ, uint32(x))
		case ir.KindF16:
			return ir.F16Val(float32(x))
		}
		return ir.ScalarVal(typ, math.Float32bits(float32(x)))
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray, ir.KindMat: // a matrix: its columns
		var elems []json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &elems), "%s for %v", raw, typ)
		if typ.Kind != ir.KindRuntimeArray {
			require.Len(t, elems, typ.Len, "%v", typ)
		}
		v := ir.Value{Type: typ}
		for _, e := range elems {
			v.Elems = append(v.Elems, jsonValue(t, typ.Elem, e))
		}
		return v
	case ir.KindStruct:
		var fields map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &fields), "%s for %v", raw, typ)
		v := ir.Value{Type: typ}
		for _, f := range typ.Struct.Fields {
			fr, ok := fields[f.Name]
			require.True(t, ok, "no member %s for %v", f.Name, typ)
			v.Elems = append(v.Elems, jsonValue(t, f.Type, fr))
		}
		return v
	}
	t.Fatalf("jsonValue: binding type %v", typ)
	return ir.Value{}
}

// hostBytes is the byte size of value v of binding type t.
func hostBytes(t *ir.Type, v ir.Value) int {
	// The binding's Block struct rounds its size up to its alignment (a
	// bare vec3 binding is 16 bytes, as ir.BindingBytes allocates it).
	return roundUp(hostAlign(t), hostDataBytes(t, v))
}

func hostDataBytes(t *ir.Type, v ir.Value) int {
	switch t.Kind {
	case ir.KindRuntimeArray:
		return len(v.Elems) * hostStride(t)
	case ir.KindStruct:
		if t.HasRuntimeArray() {
			offs := hostOffsets(t.Struct)
			last := len(offs) - 1
			return offs[last] + hostDataBytes(t.Struct.Fields[last].Type, v.Elems[last])
		}
	}
	return hostSize(t)
}

// leaf is one scalar of a binding: its byte offset and bits.
type leaf struct {
	off  int
	bits uint32
	path string
	t    *ir.Type
}

// hostLeaves lists the scalars of v (binding type t, at byte offset off)
// in the reference's leaf order, with their offsets under the host layout.
func hostLeaves(t *ir.Type, v ir.Value, off int, path string, out []leaf) []leaf {
	switch t.Kind {
	case ir.KindAtomic:
		return hostLeaves(t.Elem, v, off, path, out)
	case ir.KindVec:
		for i, e := range v.Elems {
			out = append(out, leaf{off + ir.ScalarSize(t.Elem)*i, e.Bits, fmt.Sprintf("%s[%d]", path, i), t.Elem})
		}
		return out
	case ir.KindMat:
		// Columns ir.ArrayStride apart (WGSL #alignment-and-size).
		for j, col := range v.Elems {
			out = hostLeaves(t.Elem, col, off+j*ir.ArrayStride(t), fmt.Sprintf("%s[%d]", path, j), out)
		}
		return out
	case ir.KindArray, ir.KindRuntimeArray:
		for i, e := range v.Elems {
			out = hostLeaves(t.Elem, e, off+i*hostStride(t), fmt.Sprintf("%s[%d]", path, i), out)
		}
		return out
	case ir.KindStruct:
		offs := hostOffsets(t.Struct)
		for i, f := range t.Struct.Fields {
			out = hostLeaves(f.Type, v.Elems[i], off+offs[i], path+"."+f.Name, out)
		}
		return out
	}
	return append(out, leaf{off, v.Bits, path, t})
}

// encodeHost writes v (binding type t) into b under the host layout.
func encodeHost(b []byte, t *ir.Type, v ir.Value) {
	for _, l := range hostLeaves(t, v, 0, "", nil) {
		ir.PutScalar(b[l.off:], l.t, l.bits)
	}
}

// usesAtomics reports whether the call graph of name has an atomic builtin.
func usesAtomics(m *ir.Module, name string) bool {
	for _, f := range m.CallGraph(name) {
		if ir.Any(f.Body, func(n ir.Node) bool { _, ok := n.(*ir.Atomic); return ok }) {
			return true
		}
	}
	return false
}

// determinate reports whether some leaf of the reference's bindings is
// determinate or has an allowed set (something a run can be compared with).
func determinate(ref *interp.DispatchResult) bool {
	for _, o := range ref.Buffers {
		if o.Indeterminate == nil {
			return true
		}
		for i, ind := range o.Indeterminate {
			if !ind || i < len(o.Allowed) && !o.Allowed[i].IsAny() {
				return true
			}
		}
	}
	return false
}
