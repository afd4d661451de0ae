package check

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// testBatchPrograms generates the first n programs of seed that reach the
// GPU, flattened, as batch members.
func testBatchPrograms(t testing.TB, seed uint64, n int) ([]batchProgram, [][][]ir.Value) {
	var out []batchProgram
	var allArgs [][][]ir.Value
	for i := 0; len(out) < n; i++ {
		ps := gen.ProgramSeed(seed, i)
		p := gen.Generate(ps, gen.Config{})
		if p.OutsideSubset == gen.OutsideRecursion {
			continue
		}
		mod := ir.CloneModule(p.Module)
		funcs := []string{p.Kernel}
		if tw, err := flatten.Function(mod, p.Kernel, flatten.Options{}); err == nil {
			funcs = append(funcs, tw.Name)
		} else {
			mod = p.Module
		}
		abi, err := ir.NewKernelABI(mod, p.Kernel)
		require.NoError(t, err)
		args := gen.Inputs(ps, mod.Func(p.Kernel).Params, 16)
		in, err := abi.EncodeInputs(args)
		require.NoError(t, err)
		out = append(out, batchProgram{mod: mod, funcs: funcs, abi: abi, in: in, n: 16, label: fmt.Sprintf("p%d/", i)})
		allArgs = append(allArgs, args)
	}
	return out, allArgs
}

// TestBatchRunsEachFunctionAsItsOwnDispatch: every function of a batch
// module computes, on lavapipe, in WGSL and in SPIR-V, exactly the output
// bytes its own module computes — where the interpreter says the outputs
// are determinate (an out-of-bounds read or an overflow may legitimately
// come out differently).
func TestBatchRunsEachFunctionAsItsOwnDispatch(t *testing.T) {
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	progs, args := testBatchPrograms(t, 11, 6)
	for start := 0; start < len(progs); start += 3 {
		bm, err := buildBatch(progs[start : start+3])
		require.NoError(t, err)
		for _, format := range []oracle.Format{oracle.FormatWGSL, oracle.FormatSPIRV} {
			k := kernelOf(t, bm.mod, bm.kernel, format)
			job := harness.Dispatch{Input: bm.in, OutputSize: bm.records * bm.abi.OutputStride, Invocations: bm.records}
			out, err := d.Run(context.Background(), k, job)
			require.NoError(t, err, "%s\n%s", format, ir.Print(bm.mod))
			for v, bv := range bm.variants {
				p := progs[start+bv.prog]
				got := bm.outputs(v, out, p.n)
				want, err := d.Run(context.Background(), kernelOf(t, p.mod, bv.fn, format),
					harness.Dispatch{Input: p.in, OutputSize: p.n * bv.abi.OutputStride, Invocations: p.n})
				require.NoError(t, err)
				res, err := Execute(context.Background(), (&testcase.KernelCase{Module: p.mod, Kernel: bv.fn, Args: args[start+bv.prog]}).Case(), Options{})
				require.NoError(t, err)
				for i := 0; i < p.n; i++ {
					if determinate(res, i) {
						s := bv.abi.OutputStride
						assert.True(t, bytes.Equal(want[i*s:(i+1)*s], got[i*s:(i+1)*s]),
							"%s %s invocation %d: batch %x, own module %x", format, bm.labels[v], i, got[i*s:(i+1)*s], want[i*s:(i+1)*s])
					}
				}
			}
		}
	}
}

func kernelOf(t testing.TB, m *ir.Module, fn string, format oracle.Format) harness.Kernel {
	k, err := EmitKernel(m, fn, Path{Format: format, Stage: oracle.StageCompute}, wgsl.Portable, "")
	require.NoError(t, err)
	return k
}

func determinate(res *Result, i int) bool {
	for _, e := range res.Reference[i] {
		for _, ind := range e.Indeterminate {
			if ind {
				return false
			}
		}
	}
	return true
}
