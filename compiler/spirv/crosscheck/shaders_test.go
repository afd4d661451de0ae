package crosscheck

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// shadersDir is the hand-written corpus (shaders/ at the module root).
const shadersDir = "../../../shaders"

// corpusShader is one shaders/**/NAME.wgsl with its optional
// NAME.inputs.json and NAME.expected.json (format: shaders/doc.go).
type corpusShader struct {
	path     string
	m        *ir.Module
	kernel   string
	inputs   map[string]json.RawMessage
	expected struct {
		Kernel    string            `json:"kernel"`
		Reference []json.RawMessage `json:"reference"`
	}
	hasExpected bool
	// entry marks a compute entry point as written (shaders/compute):
	// kernel is the entry point, emitted as written (spirv.Emit); its
	// inputs and expected outputs are bindings, not kernel-ABI records, so
	// TestShadersOnGPU leaves it to compiler/spirv's
	// TestComputeEntryPointsMatchReferenceOnLavapipe.
	entry bool
}

func loadShaders(t *testing.T) []*corpusShader {
	var out []*corpusShader
	err := filepath.WalkDir(shadersDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".wgsl") {
			return err
		}
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		s := &corpusShader{path: path}
		rel, _ := filepath.Rel(shadersDir, path)
		s.m, err = wgsl.Parse("shaders/"+rel, src)
		require.NoError(t, err, path)
		if wgsl.IsEntryMode(s.m, "") {
			ep, err := wgsl.Entry(s.m, "")
			require.NoError(t, err, path)
			s.kernel, s.entry = ep.Name, true
			out = append(out, s)
			return nil
		}
		stem := strings.TrimSuffix(path, ".wgsl")
		if raw, err := os.ReadFile(stem + ".inputs.json"); err == nil {
			require.NoError(t, json.Unmarshal(raw, &s.inputs), stem+".inputs.json")
		}
		if raw, err := os.ReadFile(stem + ".expected.json"); err == nil {
			require.NoError(t, json.Unmarshal(raw, &s.expected), stem+".expected.json")
			s.hasExpected = true
		}
		// A file with expected outputs names its kernel; otherwise every
		// kernel candidate of the module is emitted.
		names := []string{s.expected.Kernel}
		if !s.hasExpected {
			names = s.m.Kernels()
		}
		for _, name := range names {
			k, err := wgsl.Kernel(s.m, name)
			require.NoError(t, err, path)
			c := *s
			c.kernel = k.Name
			out = append(out, &c)
		}
		return nil
	})
	require.NoError(t, err, "walking %s", shadersDir)
	require.NotEmpty(t, out, "no shaders under %s", shadersDir)
	return out
}

// args decodes NAME.inputs.json by the kernel's parameters.
func (s *corpusShader) args(t *testing.T) [][]ir.Value {
	f := s.m.Func(s.kernel)
	var args [][]ir.Value
	for j, p := range f.Params {
		var vals []json.RawMessage
		require.NoError(t, json.Unmarshal(s.inputs[p.Name], &vals), "%s: inputs for %s", s.path, p.Name)
		if args == nil {
			args = make([][]ir.Value, len(vals))
			for i := range args {
				args[i] = make([]ir.Value, len(f.Params))
			}
		}
		require.Len(t, vals, len(args), "%s: inputs for %s", s.path, p.Name)
		for i, raw := range vals {
			v, err := ir.UnmarshalValue(p.T, raw)
			require.NoError(t, err, "%s: %s[%d]", s.path, p.Name, i)
			args[i][j] = v
		}
	}
	if len(f.Params) == 0 {
		args = make([][]ir.Value, len(s.expected.Reference))
	}
	return args
}

// expectedOutputs decodes invocation i of NAME.expected.json: the bare
// value of a return-only kernel, else an object keyed by output name.
func (s *corpusShader) expectedOutputs(t *testing.T, abi *ir.KernelABI, i int) []ir.Value {
	raw := s.expected.Reference[i]
	if len(abi.Outputs) == 1 && abi.Outputs[0].Name == "ret" {
		v, err := ir.UnmarshalValue(abi.Outputs[0].T, raw)
		require.NoError(t, err, "%s: reference[%d]", s.path, i)
		return []ir.Value{v}
	}
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &obj), "%s: reference[%d]", s.path, i)
	out := make([]ir.Value, len(abi.Outputs))
	for j, o := range abi.Outputs {
		v, err := ir.UnmarshalValue(o.T, obj[o.Name])
		require.NoError(t, err, "%s: reference[%d].%s", s.path, i, o.Name)
		out[j] = v
	}
	return out
}

// TestShadersValidate emits the kernel of every shaders/**/*.wgsl (every
// kernel candidate of a file without expected outputs; the entry point
// of a module as written) in both modes and requires spirv-val to accept
// each module.
func TestShadersValidate(t *testing.T) {
	shaders := loadShaders(t)
	var jobs []valJob
	for _, s := range shaders {
		for _, o := range bothModes {
			words, err := spirv.Emit(s.m, s.kernel, o)
			require.NoError(t, err, s.path)
			jobs = append(jobs, valJob{name: s.path + ":" + s.kernel + " " + string(o.Mode), words: words, text: ir.Print(s.m)})
		}
	}
	for _, b := range validateAll(t, jobs) {
		t.Errorf("spirv-val rejects %s", b)
	}
	t.Logf("%d shader kernels, %d modules validated", len(shaders), len(jobs))
}

// TestShadersOnGPU runs every shader that has inputs and expected outputs
// through our SPIR-V (portable mode) on lavapipe and compares with
// NAME.expected.json, whose values come from native Go implementations or
// hand derivations (shaders/doc.go), never from a GPU. Leaves the
// reference interpreter reports indeterminate are skipped; f32 leaves may
// differ by the interpreter's WGSL error bound for them.
func TestShadersOnGPU(t *testing.T) {
	dev := gpu(t)
	ran := 0
	for _, s := range loadShaders(t) {
		if s.entry || !s.hasExpected || s.inputs == nil && len(s.m.Func(s.kernel).Params) > 0 {
			continue
		}
		t.Run(strings.TrimPrefix(s.path, shadersDir+"/"), func(t *testing.T) {
			args := s.args(t)
			require.Len(t, s.expected.Reference, len(args))
			words, err := spirv.Emit(s.m, s.kernel, spirv.DefaultOptions())
			require.NoError(t, err)
			abi, err := ir.NewKernelABI(s.m, s.kernel)
			require.NoError(t, err)
			ref, err := interp.Run(s.m, s.kernel, args, interp.Options{})
			require.NoError(t, err)
			in, err := abi.EncodeInputs(args)
			require.NoError(t, err)
			out, err := dev.Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: spirv.EntryPoint},
				harness.Dispatch{Input: in, OutputSize: len(args) * abi.OutputStride, Invocations: len(args)})
			require.NoError(t, err)
			got, err := abi.DecodeOutputs(out, len(args))
			require.NoError(t, err)
			for i := range args {
				want := s.expectedOutputs(t, abi, i)
				for j, o := range abi.Outputs {
					var ind []bool
					var tol []float64
					if ref[i].Err == nil {
						ind, tol = ref[i].Outputs[j].Indeterminate, ref[i].Outputs[j].Tolerance
					}
					gl, wl := leaves(got[i][j]), leaves(want[j])
					for l := range wl {
						if ind != nil && ind[l] {
							continue
						}
						bound := 0.0
						if tol != nil {
							bound = tol[l]
						}
						assert.True(t, leafEqual(gl[l], wl[l], bound), "invocation %d %v, output %s leaf %d: GPU %v, expected %v",
							i, args[i], o.Name, l, gl[l], wl[l])
					}
				}
			}
		})
		ran++
	}
	t.Logf("%d shaders run on lavapipe", ran)
}
