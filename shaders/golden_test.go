package shaders

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/txtar"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// The stage goldens (cf. cue's cuetxtar and go/printer's goldens): each
// testdata/golden/NAME.txtar holds one input, input.wgsl (and optionally
// inputs.json, in `gpudiff exec --inputs` form), and then what every stage
// makes of it, one section each:
//
//	ir.wgsl        the front end's IR, as the canonical printer prints it
//	flat.wgsl      every kernel's flattened twin (or flatten's refusal)
//	portable.wgsl  the WGSL emitter, portable mode: each kernel's and each
//	               twin's call graph (wgsl.EmitFunctions)
//	raw.wgsl       the same in raw mode
//	spirv.asm      gpudiff's SPIR-V of each kernel and twin, portable mode,
//	               disassembled
//	spirv-raw.asm  the same in raw mode (only where the file has it)
//	interp.json    the reference: each kernel's arguments and outputs per
//	               invocation, on inputs.json (else 8 seeded invocations)
//
// The sections pin text that was reviewed by reading; -update rewrites
// every section a file has and adds the default ones it lacks (all but
// spirv-raw.asm). What the text computes is checked independently of the
// goldens: each twin agrees with its kernel in the interpreter, and the
// emitted WGSL parses back.

var (
	defaultGoldenSections = []string{"ir.wgsl", "flat.wgsl", "portable.wgsl", "raw.wgsl", "spirv.asm", "interp.json"}
	goldenSectionOrder    = []string{"input.wgsl", "inputs.json", "ir.wgsl", "flat.wgsl", "portable.wgsl", "raw.wgsl", "spirv.asm", "spirv-raw.asm", "interp.json"}
)

func TestStageGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			require.NoError(t, err)
			sections := map[string]int{}
			for i, f := range ar.Files {
				sections[f.Name] = i
			}
			in, ok := sections["input.wgsl"]
			require.True(t, ok, "no input.wgsl section")
			got := stageOutputs(t, ar.Files[in].Data, sectionData(ar, sections, "inputs.json"))

			if *update {
				for _, name := range defaultGoldenSections {
					if _, ok := sections[name]; !ok {
						ar.Files = append(ar.Files, txtar.File{Name: name})
						sections[name] = len(ar.Files) - 1
					}
				}
				var files []txtar.File // in canonical order
				for _, name := range goldenSectionOrder {
					if i, ok := sections[name]; ok {
						f := ar.Files[i]
						if v, ok := got[name]; ok {
							f.Data = []byte(v)
						}
						files = append(files, f)
					}
				}
				require.Len(t, files, len(ar.Files), "unknown section in %s", path)
				ar.Files = files
				require.NoError(t, os.WriteFile(path, txtar.Format(ar), 0o644))
				return
			}
			checked := 0
			for _, f := range ar.Files {
				if f.Name == "input.wgsl" || f.Name == "inputs.json" {
					continue
				}
				v, ok := got[f.Name]
				require.True(t, ok, "unknown section %s", f.Name)
				assert.Equal(t, string(f.Data), v, "section %s (run go test ./shaders -run TestStageGoldens -update and review the diff)", f.Name)
				checked++
			}
			assert.Positive(t, checked, "no stage sections (run with -update)")
		})
	}
}

func sectionData(ar *txtar.Archive, sections map[string]int, name string) []byte {
	if i, ok := sections[name]; ok {
		return ar.Files[i].Data
	}
	return nil
}

// stageOutputs runs every stage on src and returns each section's text.
// Independently of the goldens it requires that every twin agrees with
// its kernel in the interpreter and that the emitted WGSL parses back.
func stageOutputs(t *testing.T, src, inputs []byte) map[string]string {
	out := map[string]string{}
	m, err := wgsl.Parse("input.wgsl", src)
	require.NoError(t, err)
	out["ir.wgsl"] = ir.Print(m)
	kernels := m.Kernels()
	require.NotEmpty(t, kernels)

	var flat strings.Builder
	funcs := slices.Clone(kernels) // every kernel, then every twin
	twins := map[string]string{}
	for _, k := range kernels {
		twin, err := flatten.Function(m, k, flatten.Options{Strict: true})
		if flat.Len() > 0 {
			flat.WriteString("\n")
		}
		if err != nil {
			require.True(t, flatten.IsRefusal(err), "flatten %s: %v", k, err)
			fmt.Fprintf(&flat, "// %s refused:\n// %s\n", k, strings.ReplaceAll(err.Error(), "\n", "\n// "))
			continue
		}
		flat.WriteString(ir.PrintFunc(twin))
		twins[k] = twin.Name
		funcs = append(funcs, twin.Name)
	}
	out["flat.wgsl"] = flat.String()

	for _, mode := range []struct {
		section string
		mode    wgsl.Mode
	}{{"portable.wgsl", wgsl.Portable}, {"raw.wgsl", wgsl.Raw}} {
		var b strings.Builder
		for i, fn := range funcs {
			text, err := wgsl.EmitFunctions(m, fn, wgsl.EmitOptions{Mode: mode.mode})
			require.NoError(t, err)
			_, err = wgsl.Parse(mode.section, []byte(text))
			require.NoError(t, err, "the emitted WGSL of %s parses back:\n%s", fn, text)
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "// %s\n%s", fn, text)
		}
		out[mode.section] = b.String()
	}
	for _, mode := range []struct {
		section string
		opts    spirv.Options
	}{{"spirv.asm", spirv.DefaultOptions()}, {"spirv-raw.asm", spirv.Options{Mode: spirv.Raw, DebugNames: true}}} {
		var b strings.Builder
		for i, fn := range funcs {
			words, err := spirv.Emit(m, fn, mode.opts)
			require.NoError(t, err)
			text, err := spirv.Disassemble(words)
			require.NoError(t, err)
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "; %s\n%s", fn, text)
		}
		out[mode.section] = b.String()
	}

	var ref strings.Builder
	for _, k := range kernels {
		f := m.Func(k)
		args := gen.Inputs(3, f.Params, 8)
		if inputs != nil {
			args, err = testcase.ParseInputs("inputs.json", inputs, f)
			require.NoError(t, err)
		}
		res, err := interp.Run(m, k, args, interp.Options{})
		require.NoError(t, err)
		abi, err := ir.NewKernelABI(m, k)
		require.NoError(t, err)
		var names []string
		for _, o := range abi.Outputs {
			names = append(names, o.Name)
		}
		fmt.Fprintf(&ref, "// %s\n", k)
		for i, r := range res {
			if r.Err != nil {
				fmt.Fprintf(&ref, "%d: error: %v\n", i, r.Err)
				continue
			}
			exp := make([]oracle.Expected, len(r.Outputs))
			for j, o := range r.Outputs {
				exp[j] = oracle.Expected{Value: o.Value, Indeterminate: o.Indeterminate, Tolerance: o.Tolerance, Why: o.Why}
			}
			fmt.Fprintf(&ref, "%d: %s -> %s\n", i, argsJSON(f, args[i]), bytes.TrimSpace(oracle.InvocationJSON(exp, names)))
		}
		if tw, ok := twins[k]; ok {
			twinRes, err := interp.Run(m, tw, args, interp.Options{})
			require.NoError(t, err)
			for i := range res {
				if res[i].Err != nil {
					continue
				}
				require.NoError(t, twinRes[i].Err)
				want := make([]oracle.Expected, len(res[i].Outputs))
				got := make([]oracle.Expected, len(res[i].Outputs))
				for j := range want {
					o, g := res[i].Outputs[j], twinRes[i].Outputs[j]
					want[j] = oracle.Expected{Value: o.Value, Indeterminate: o.Indeterminate, Tolerance: o.Tolerance}
					got[j] = oracle.Expected{Value: g.Value, Indeterminate: g.Indeterminate, Tolerance: g.Tolerance}
				}
				outcome, diffs := oracle.CompareInvocation(want, got, names)
				assert.NotEqual(t, oracle.Differ, outcome, "%s disagrees with %s at invocation %d: %v", tw, k, i, diffs)
			}
		}
	}
	out["interp.json"] = ref.String()
	return out
}

// argsJSON prints one invocation's arguments as a JSON object keyed by
// parameter name.
func argsJSON(f *ir.Func, args []ir.Value) string {
	exp := make([]oracle.Expected, len(args))
	names := make([]string, len(args))
	for i, a := range args {
		exp[i] = oracle.Expected{Value: a}
		names[i] = f.Params[i].Name
	}
	return string(bytes.TrimSpace(oracle.InvocationJSON(exp, names)))
}
