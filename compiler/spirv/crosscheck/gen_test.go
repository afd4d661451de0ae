package crosscheck

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// generatedPrograms returns perProfile programs of every generator
// profile (seeds 1.., sizes cycling through 10, 30 and 60).
func generatedPrograms(perProfile int) []*gen.Program {
	var out []*gen.Program
	sizes := []int{10, 30, 60}
	for _, p := range gen.Profiles() {
		if p.Entry {
			// Compute entry points have bindings, not kernel arguments:
			// compiler/spirv's TestComputeEntryPoints* and fuzz/gen's
			// compute tests run them.
			continue
		}
		for i := 0; i < perProfile; i++ {
			seed := uint64(i + 1)
			out = append(out, gen.Generate(seed, gen.Config{Size: sizes[i%len(sizes)], Profile: p}))
		}
	}
	return out
}

func programName(p *gen.Program, cfgIndex int) string {
	return fmt.Sprintf("program %d (seed %d)", cfgIndex, p.Seed)
}

// valJob is one module for spirv-val.
type valJob struct {
	name  string
	words []uint32
	text  string // the program, shown when the module is rejected
}

// validateAll runs spirv-val on every job with one worker per CPU and
// returns "name: complaint" for each rejected module.
func validateAll(t *testing.T, jobs []valJob) []string {
	val := tool(t, "spirv-val")
	dir := t.TempDir()
	var mu sync.Mutex
	var bad []string
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				path := filepath.Join(dir, fmt.Sprintf("m%d.spv", i))
				buf := make([]byte, 4*len(jobs[i].words))
				for k, w := range jobs[i].words {
					buf[4*k], buf[4*k+1], buf[4*k+2], buf[4*k+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
				}
				if err := os.WriteFile(path, buf, 0o644); err != nil {
					panic(err)
				}
				out, err := exec.Command(val, "--target-env", "vulkan1.1", path).CombinedOutput()
				if err != nil {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("%s: %s\n%s", jobs[i].name, strings.TrimSpace(string(out)), jobs[i].text))
					mu.Unlock()
				}
				os.Remove(path)
			}
		}()
	}
	for i := range jobs {
		work <- i
	}
	close(work)
	wg.Wait()
	return bad
}

// TestGeneratedProgramsValidate emits 600 generated programs (100 per
// generator profile, sizes 10/30/60) in both modes and requires every
// module to pass spirv-val; programs outside the subset by recursion must
// be refused with a positioned "recursion" error instead.
func TestGeneratedProgramsValidate(t *testing.T) {
	progs := generatedPrograms(100)
	require.GreaterOrEqual(t, len(progs), 500)
	var jobs []valJob
	recursive := 0
	for i, p := range progs {
		for _, o := range bothModes {
			words, err := spirv.Emit(p.Module, p.Kernel, o)
			if p.OutsideSubset == gen.OutsideRecursion {
				e := firstError(t, err)
				assert.Contains(t, e.Msg, "recursion", programName(p, i))
				recursive++
				continue
			}
			require.NoError(t, err, "%s:\n%s", programName(p, i), p)
			jobs = append(jobs, valJob{name: fmt.Sprintf("%s %s", programName(p, i), o.Mode), words: words, text: p.String()})
		}
	}
	bad := validateAll(t, jobs)
	t.Logf("%d programs, %d modules validated, %d refused for recursion", len(progs), len(jobs), recursive/2)
	for i, b := range bad {
		if i == 3 {
			t.Errorf("… and %d more", len(bad)-3)
			break
		}
		t.Errorf("spirv-val rejects %s", b)
	}
}

// leafEqual compares one leaf scalar of a GPU output with the reference:
// bits must match, except that an f32 may differ by the reference's
// tolerance and zero may come back as either sign (WGSL allows flushing
// subnormals and does not pin the sign of zero for inexact results).
func leafEqual(got, want ir.Value, tol float64) bool {
	if got.Bits == want.Bits {
		return true
	}
	if want.Type.Kind != ir.KindF32 {
		return false
	}
	g, w := float64(got.F32()), float64(want.F32())
	if isZeroish(g) && isZeroish(w) {
		return true
	}
	return math.Abs(g-w) <= tol
}

func isZeroish(f float64) bool { return math.Abs(f) < 0x1p-126 }

func leaves(v ir.Value) []ir.Value {
	if v.Elems == nil {
		return []ir.Value{v}
	}
	var out []ir.Value
	for _, e := range v.Elems {
		out = append(out, leaves(e)...)
	}
	return out
}

// TestGeneratedProgramsMatchInterpOnGPU runs 120 generated programs (20
// per profile) in portable mode on lavapipe, 32 invocations each (the
// generator's edge values first), and compares every output leaf with the
// reference interpreter: two independent implementations of WGSL's
// semantics. Indeterminate leaves are skipped; f32 leaves get the
// reference's tolerance.
func TestGeneratedProgramsMatchInterpOnGPU(t *testing.T) {
	dev := gpu(t)
	const invocations = 32
	ran, compared, skipped := 0, 0, 0
	for i, p := range generatedPrograms(20) {
		if p.OutsideSubset == gen.OutsideRecursion {
			continue
		}
		name := programName(p, i)
		words, err := spirv.Emit(p.Module, p.Kernel, spirv.DefaultOptions())
		require.NoError(t, err, name)
		f := p.Module.Func(p.Kernel)
		args := gen.Inputs(p.Seed, f.Params, invocations)
		ref, err := interp.Run(p.Module, p.Kernel, args, interp.Options{})
		require.NoError(t, err, name)
		abi, err := ir.NewKernelABI(p.Module, p.Kernel)
		require.NoError(t, err)
		in, err := abi.EncodeInputs(args)
		require.NoError(t, err)
		out, err := dev.Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: spirv.EntryPoint},
			harness.Dispatch{Input: in, OutputSize: invocations * abi.OutputStride, Invocations: invocations})
		require.NoError(t, err, "%s:\n%s", name, p)
		got, err := abi.DecodeOutputs(out, invocations)
		require.NoError(t, err)
		ran++
		mismatches := 0
		for inv := range ref {
			if ref[inv].Err != nil {
				skipped++
				continue
			}
			for j, o := range ref[inv].Outputs {
				gl, wl := leaves(got[inv][j]), leaves(o.Value)
				for l := range wl {
					if o.Indeterminate != nil && o.Indeterminate[l] {
						skipped++
						continue
					}
					tol := 0.0
					if o.Tolerance != nil {
						tol = o.Tolerance[l]
					}
					compared++
					if !leafEqual(gl[l], wl[l], tol) {
						mismatches++
						if mismatches <= 3 {
							t.Errorf("%s, invocation %d %v, output %s leaf %d: GPU %v, reference %v", name, inv, args[inv], abi.Outputs[j].Name, l, gl[l], wl[l])
						}
					}
				}
			}
		}
		if mismatches > 0 {
			t.Logf("%s:\n%s", name, p)
		}
	}
	t.Logf("%d programs on lavapipe, %d leaves compared, %d indeterminate or failed in the reference", ran, compared, skipped)
}
