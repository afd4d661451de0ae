package shaders

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// The kernel ABI in the fragment stage (ARCHITECTURE.md "Kernel ABI"): the
// same kernels as in the compute stage, drawn one fragment per invocation
// on every wgpu CPU adapter, as gpudiff's WGSL and as its SPIR-V.

// fragmentAdapters are the adapters the fragment stage is tested on.
var fragmentAdapters = []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe"}

// openFragmentAdapters opens every adapter of fragmentAdapters for the
// test (a missing one fails it: install them with make deps).
func openFragmentAdapters(t *testing.T) []*harness.Device {
	t.Helper()
	var ds []*harness.Device
	for _, name := range fragmentAdapters {
		d, err := harness.Open(name)
		require.NoError(t, err, "the CPU adapters are needed: make deps")
		t.Cleanup(d.Close)
		ds = append(ds, d)
	}
	return ds
}

// fragmentConformance are conformance kernels run in the fragment stage:
// integer division and conversion rules, control flow, bit builtins and
// evaluation order, each compared with its hand-derived values.
var fragmentConformance = []string{
	"div_by_zero_i32", "div_int_min_by_minus_one", "f32_to_i32_saturates", "f32_to_u32_saturates",
	"break_in_switch_in_loop", "continue_runs_continuing", "extract_bits_u32", "insert_bits_i32",
	"count_one_bits_u32", "eval_order_call_args",
}

// TestFragmentStageConformance draws each of fragmentConformance's kernels
// in the fragment stage (portable WGSL and SPIR-V, check.EmitKernel's
// modules and check.KernelDispatch's draw) on every CPU adapter and
// requires every output to equal the hand-derived value.
func TestFragmentStageConformance(t *testing.T) {
	devs := openFragmentAdapters(t)
	for _, name := range fragmentConformance {
		k := loadConformance(t, name)
		in, err := k.abi.EncodeInputs(k.args)
		require.NoError(t, err)
		n := len(k.args)
		for _, format := range []oracle.Format{oracle.FormatWGSL, oracle.FormatSPIRV} {
			p := check.Path{Format: format, Stage: oracle.StageFragment}
			hk, err := check.EmitKernel(k.m, k.name, p, wgsl.Portable, name)
			require.NoError(t, err)
			for _, d := range devs {
				t.Run(name+"/"+string(format)+"/"+d.Info().Name, func(t *testing.T) {
					out, err := d.Run(context.Background(), hk, check.KernelDispatch(in, n, k.abi.OutputStride, oracle.StageFragment))
					require.NoError(t, err)
					records, err := check.KernelOutput(out, n, k.abi.OutputStride, oracle.StageFragment)
					require.NoError(t, err)
					got, err := k.abi.DecodeOutputs(records, n)
					require.NoError(t, err)
					for _, diff := range k.confDiffs(got) {
						t.Errorf("%s (rule: %s)", diff, k.rule)
					}
				})
			}
		}
	}
}

// fragmentKernels are examples and capability-tier kernels run through
// check.Execute in both stages, with their twins.
var fragmentKernels = []string{
	"examples/shade.wgsl", "examples/pcg_hash.wgsl", "tiers/bounded_loops/countdown.wgsl", "tiers/void_globals",
}

// TestFragmentStageAgreesWithCompute runs each of fragmentKernels with
// check.Execute in the compute and the fragment stage, flattened, as WGSL
// and SPIR-V, on every CPU adapter, for seeded arguments (edge values
// first): every run must agree with the reference interpreter, so the
// fragment runs agree with the compute runs too. 300 invocations make a
// full row of the target (256) and part of a second.
func TestFragmentStageAgreesWithCompute(t *testing.T) {
	devs := openFragmentAdapters(t)
	var cdevs []check.Device
	for _, d := range devs {
		cdevs = append(cdevs, d)
	}
	for _, rel := range fragmentKernels {
		path := filepath.Join(rel)
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			entries, err := os.ReadDir(path)
			require.NoError(t, err)
			path = filepath.Join(path, entries[0].Name())
		}
		t.Run(path, func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := wgsl.Parse(path, src)
			require.NoError(t, err)
			f, err := wgsl.Kernel(m, "")
			require.NoError(t, err)
			c := &testcase.KernelCase{Module: m, Kernel: f.Name, Args: gen.Inputs(1, f.Params, 300)}
			res, err := check.Execute(context.Background(), c.Case(), check.Options{Devices: cdevs, Flat: true, SPIRV: true,
				Stages: []oracle.Stage{oracle.StageCompute, oracle.StageFragment}})
			require.NoError(t, err)
			frag := 0
			for _, r := range res.Runs {
				if r.Stage == oracle.StageFragment {
					frag++
				}
				assert.Equal(t, oracle.Pass, r.Verdict, "%s: %s %v", check.RunName(r.Run), r.Message, r.Mismatches)
			}
			assert.Equal(t, len(devs)*2*2, frag, "a fragment run per adapter, function and format")
			assert.Equal(t, oracle.Pass, res.Verdict)
			assert.Empty(t, check.Attribute(res))
		})
	}
}

// fragmentEntries are shaders/fragment's entry points, each with its
// expected outputs at pixel (x, y) derived by hand in its header comment
// (written here from that derivation, not from gpudiff's code).
var fragmentEntries = []struct {
	file string
	want func(x, y int) ir.Value
}{
	{"fragment/checker.wgsl", func(x, y int) ir.Value {
		px, py := float32(x)+0.5, float32(y)+0.5
		if (x/4+y/4)%2 == 0 {
			return fragVec4(px/16, py/16, 0, 1)
		}
		return fragVec4(1-px/16, 1, 1-py/16, 1)
	}},
	{"fragment/rings.wgsl", func(x, y int) ir.Value {
		dx, dy := x-8, y-8
		m := max(abs(dx), abs(dy))
		r := 0
		for r < 4 && m >= 2*r+2 {
			r++
		}
		id := ir.U32Val(uint32(r*1000 + y*16 + x))
		d := ir.CompositeVal(ir.Vec(2, ir.I32), ir.I32Val(int32(dx)), ir.I32Val(int32(dy)))
		return ir.CompositeVal(nil, id, d) // the struct type is the module's (set by the test)
	}},
}

func fragVec4(a, b, c, d float32) ir.Value {
	return ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(a), ir.F32Val(b), ir.F32Val(c), ir.F32Val(d))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestFragmentEntriesHandDerived runs each fragment entry point as written
// (check.ExecuteFragment) over a 16×16 target and a 24×5 one (not square:
// rows and columns cannot be swapped unseen) on every CPU adapter, WGSL
// and SPIR-V, with its flattened twin: the reference must equal the
// hand-derived value at every pixel, bit for bit, and every run must
// agree with the reference.
func TestFragmentEntriesHandDerived(t *testing.T) {
	devs := openFragmentAdapters(t)
	var cdevs []check.Device
	for _, d := range devs {
		cdevs = append(cdevs, d)
	}
	for _, e := range fragmentEntries {
		src, err := os.ReadFile(e.file)
		require.NoError(t, err)
		m, err := wgsl.Parse(e.file, src)
		require.NoError(t, err)
		f, err := wgsl.FragmentEntry(m, "")
		require.NoError(t, err)
		for _, size := range [][2]uint32{{16, 16}, {24, 5}} {
			t.Run(fmt.Sprintf("%s/%dx%d", e.file, size[0], size[1]), func(t *testing.T) {
				res, err := check.Execute(context.Background(), (&testcase.FragmentCase{Module: m, Entry: f.Name, Size: size}).Case(),
					check.Options{Devices: cdevs, Flat: true, SPIRV: true})
				require.NoError(t, err)
				require.Len(t, res.Reference, int(size[0]*size[1]))
				for i, ref := range res.Reference {
					x, y := i%int(size[0]), i/int(size[0])
					want := e.want(x, y)
					if want.Type == nil {
						want.Type = f.Result
					}
					for _, d := range sameLeaves(want, ref[0].Value, nil) {
						t.Errorf("pixel (%d, %d): reference %s, hand-derived %s: %s", x, y, ir.MarshalValue(ref[0].Value), ir.MarshalValue(want), d)
					}
				}
				require.Len(t, res.Runs, 1+len(devs)*2*2, "the twin's interpreter run, then each adapter's four")
				for _, r := range res.Runs {
					assert.Equal(t, oracle.Pass, r.Verdict, "%s: %s %v", check.RunName(r.Run), r.Message, r.Mismatches)
				}
				assert.Equal(t, oracle.Pass, res.Verdict)
			})
		}
	}
}
