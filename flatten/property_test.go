package flatten_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// The oracle of flatten: for every invocation, interp(twin) agrees with
// interp(original) on every leaf the original determines (fuzz/oracle's
// comparison: bit-exact for integers and bools, within the WGSL tolerance
// for f32, and a leaf the original determines may not be indeterminate in
// the twin). The twin is checked by running it, never by reading the code
// that built it.

// sameBehaviour runs kernel and twin of m on args and returns a
// description of the first invocation where they disagree, or "".
func sameBehaviour(m *ir.Module, kernel, twin string, args [][]ir.Value) (string, error) {
	ref, err := interp.Run(m, kernel, args, interp.Options{})
	if err != nil {
		return "", fmt.Errorf("interp original: %w", err)
	}
	got, err := interp.Run(m, twin, args, interp.Options{})
	if err != nil {
		return "", fmt.Errorf("interp twin: %w", err)
	}
	abi, err := ir.NewKernelABI(m, kernel)
	if err != nil {
		return "", err
	}
	var names []string
	for _, o := range abi.Outputs {
		names = append(names, o.Name)
	}
	for i := range ref {
		if ref[i].Err != nil {
			continue // the original cannot be run there (step limit): nothing to compare
		}
		if got[i].Err != nil {
			return fmt.Sprintf("invocation %d %v: twin failed: %v", i, args[i], got[i].Err), nil
		}
		outcome, diffs := oracle.CompareInvocation(expected(ref[i].Outputs), expected(got[i].Outputs), names)
		if outcome == oracle.Differ {
			var b strings.Builder
			fmt.Fprintf(&b, "invocation %d, args %v:", i, args[i])
			for _, d := range diffs {
				fmt.Fprintf(&b, " %s want %s got %s;", d.Path, d.Want, d.Got)
			}
			return b.String(), nil
		}
	}
	return "", nil
}

func expected(outs []interp.Output) []oracle.Expected {
	es := make([]oracle.Expected, len(outs))
	for i, o := range outs {
		es[i] = oracle.Expected{Value: o.Value, Indeterminate: o.Indeterminate, Tolerance: o.Tolerance, Why: o.Why}
	}
	return es
}

// shaderFiles lists every .wgsl file under shaders/.
func shaderFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir("../shaders", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".wgsl") {
			files = append(files, path)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// fileInputs reads the invocations of name.inputs.json beside a shader
// ({"param": [v0, v1, …], …}), or returns nil when there is none.
func fileInputs(t *testing.T, wgslPath string, f *ir.Func) [][]ir.Value {
	raw, err := os.ReadFile(strings.TrimSuffix(wgslPath, ".wgsl") + ".inputs.json")
	if err != nil {
		return nil
	}
	var cols map[string][]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &cols), wgslPath)
	n := -1
	for _, p := range f.Params {
		col, ok := cols[p.Name]
		if !ok {
			return nil // inputs for another kernel of the file
		}
		if n < 0 || len(col) < n {
			n = len(col)
		}
	}
	if n < 0 {
		return nil
	}
	args := make([][]ir.Value, n)
	for i := range args {
		for _, p := range f.Params {
			v, err := ir.UnmarshalValue(p.T, cols[p.Name][i])
			require.NoError(t, err, "%s: %s[%d]", wgslPath, p.Name, i)
			args[i] = append(args[i], v)
		}
	}
	return args
}

// TestFlattenPreservesSemanticsOnShaders: for every kernel of every
// shaders/ file, the twin agrees with the original on the file's inputs
// and on 256 generated invocations (edge values first); kernels outside
// the subset are refused with a positioned flatten error instead.
func TestFlattenPreservesSemanticsOnShaders(t *testing.T) {
	flattened := 0
	for _, path := range shaderFiles(t) {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		m, err := wgsl.Parse(filepath.Base(path), src)
		if err != nil {
			continue // refusal fixtures the front end already rejects, or files for other stages
		}
		for _, k := range m.Kernels() {
			t.Run(filepath.Base(path)+"/"+k, func(t *testing.T) {
				mm := ir.CloneModule(m)
				opts := flatten.Options{VerifyPasses: true}
				twin, err := flatten.Function(mm, k, opts)
				if err != nil {
					require.True(t, flatten.IsRefusal(err), "%v", err)
					assert.Contains(t, err.Error(), ": flatten: ")
					t.Logf("refused: %v", err)
					return
				}
				flattened++
				_, err = wgsl.Parse("twin.wgsl", []byte(ir.Print(mm)))
				require.NoError(t, err, "the module with the twin is valid WGSL")
				f := mm.Func(k)
				args := append(fileInputs(t, path, f), gen.Inputs(7, f.Params, 256)...)
				diff, err := sameBehaviour(mm, k, twin.Name, args)
				require.NoError(t, err)
				assert.Empty(t, diff, "twin:\n%s", ir.PrintFunc(twin))
			})
		}
	}
	assert.Greater(t, flattened, 10, "most corpus kernels are inside the subset")
}

// TestFlattenPreservesSemantics: on generated programs (fuzz/gen), every
// program inside the subset flattens — ir.Verify passing after every pass
// — and its twin agrees with the original on 32 invocations; programs the
// generator placed outside the subset are refused. When the original
// module prints as valid WGSL, the module with the twin must too, for the
// front end (no shader-creation error such as a constant zero divisor).
// 1,000 programs of the default profile, and 200 of each other profile
// (control, loops, calls, data, refusal), under GPUDIFF_TEST_LONG=1
// (`make test-long`); `make test` checks the first 250 and 50 of them.
func TestFlattenPreservesSemantics(t *testing.T) {
	for _, profile := range gen.Profiles() {
		if profile.Entry {
			// Compute entry points are dispatched, not called per
			// invocation: TestEntryTwinsAgree* and fuzz/gen's compute
			// tests check their twins.
			continue
		}
		t.Run(profile.Name, func(t *testing.T) {
			t.Parallel()
			params := gopter.DefaultTestParametersWithSeed(20240601)
			params.MinSuccessfulTests = testCount(200, 50)
			if profile.Name == "default" {
				params.MinSuccessfulTests = testCount(1000, 250)
			}
			if testing.Short() {
				params.MinSuccessfulTests /= 10
			}
			props := gopter.NewProperties(params)
			props.Property("interp(twin) == interp(original)", prop.ForAll(
				func(p *gen.Program) string { return checkGenerated(p) },
				gen.Gen(gen.Config{Profile: profile}),
			))
			props.TestingRun(t)
		})
	}
}

// TestKeepingEveryLoopPreservesSemantics: with Options.Loops "mask",
// every loop of a generated program — counted loops of every form, data
// loops, loops in callees and nested in one another, with break, continue
// and return inside — is kept as a loop of the twin instead of unrolled,
// and the twin still agrees with the original on 32 invocations (100
// programs of the loops profile).
func TestKeepingEveryLoopPreservesSemantics(t *testing.T) {
	var loops gen.Profile
	for _, p := range gen.Profiles() {
		if p.Name == "loops" {
			loops = p
		}
	}
	params := gopter.DefaultTestParametersWithSeed(20261127)
	params.MinSuccessfulTests = 100
	if testing.Short() {
		params.MinSuccessfulTests /= 10
	}
	props := gopter.NewProperties(params)
	props.Property("interp(twin with every loop kept) == interp(original)", prop.ForAll(
		func(p *gen.Program) string {
			if p.OutsideSubset == gen.OutsideRecursion {
				return ""
			}
			m := p.Module
			kept := 0
			twin, err := flatten.Function(m, p.Kernel, flatten.Options{Loops: "mask", Strict: true, VerifyPasses: true,
				OnLoop: func(_ ir.Pos, k string) {
					if k != "unrolled" {
						kept++
					}
				}})
			if err != nil {
				return fmt.Sprintf("seed %d: %v\n%s", p.Seed, err, ir.Print(m))
			}
			if strings.Contains(ir.PrintFunc(twin), "loop {") != (kept > 0) {
				return fmt.Sprintf("seed %d: %d kept loops reported, twin:\n%s", p.Seed, kept, ir.PrintFunc(twin))
			}
			args := gen.Inputs(p.Seed, m.Func(p.Kernel).Params, 32)
			diff, err := sameBehaviour(m, p.Kernel, twin.Name, args)
			if err != nil {
				return fmt.Sprintf("seed %d: %v", p.Seed, err)
			}
			if diff != "" {
				return fmt.Sprintf("seed %d: %s\noriginal:\n%s\ntwin:\n%s", p.Seed, diff, ir.ProgramText(m, p.Kernel), ir.PrintFunc(twin))
			}
			return ""
		},
		gen.Gen(gen.Config{Profile: loops}),
	))
	props.TestingRun(t)
}

// checkGenerated is the property on one generated program; "" means it
// holds.
func checkGenerated(p *gen.Program) string {
	m := p.Module
	_, perr := wgsl.Parse("orig.wgsl", []byte(ir.Print(m)))
	origValid := perr == nil // ir.Print is not always valid WGSL (a < b >> c after an identifier)
	if p.OutsideSubset == gen.OutsideUnboundedLoop {
		// Outside what unrolling takes, inside what a kept loop takes:
		// refused with Loops "unroll", flattened (and checked below) by
		// default.
		if _, err := flatten.Function(ir.CloneModule(m), p.Kernel, flatten.Options{Loops: "unroll"}); err == nil || !flatten.IsRefusal(err) {
			return fmt.Sprintf("seed %d: %s program not refused with Loops unroll: %v\n%s", p.Seed, p.OutsideSubset, err, ir.Print(m))
		}
	}
	twin, err := flatten.Function(m, p.Kernel, flatten.Options{Strict: true, VerifyPasses: true})
	if p.OutsideSubset == gen.OutsideRecursion {
		if err == nil || !flatten.IsRefusal(err) {
			return fmt.Sprintf("seed %d: %s program not refused: %v\n%s", p.Seed, p.OutsideSubset, err, ir.Print(m))
		}
		return ""
	}
	if err != nil {
		return fmt.Sprintf("seed %d: %v\n%s", p.Seed, err, ir.Print(m))
	}
	if _, err := wgsl.Parse("twin.wgsl", []byte(ir.Print(m))); err != nil && origValid {
		return fmt.Sprintf("seed %d: the module with the twin is not valid WGSL: %v\ntwin:\n%s", p.Seed, err, ir.PrintFunc(twin))
	}
	args := gen.Inputs(p.Seed, m.Func(p.Kernel).Params, 32)
	diff, err := sameBehaviour(m, p.Kernel, twin.Name, args)
	if err != nil {
		return fmt.Sprintf("seed %d: %v", p.Seed, err)
	}
	if diff != "" {
		return fmt.Sprintf("seed %d: %s\noriginal:\n%s\ntwin:\n%s", p.Seed, diff, ir.ProgramText(m, p.Kernel), ir.PrintFunc(twin))
	}
	return ""
}
