package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/report/amber"
)

type amberFlags struct {
	out         string
	kernel      string
	inputs      string
	invocations int
	seed        uint64
	mode        string
	flat        bool
	only        string
	changed     map[string]bool
}

func newAmberCmd(g *globalFlags) *cobra.Command {
	var fl amberFlags
	cmd := &cobra.Command{
		Use:   "export-amber CASE",
		Short: "Write an Amber script that replays a case with gpudiff's SPIR-V and the reference's expected values",
		Long: `export-amber writes an Amber script (github.com/google/amber) for a case: a case
file (with its own kernel, inputs, mode, seed and verdict), or a .wgsl kernel
with --inputs FILE (default: NAME.inputs.json beside it, else --invocations
arguments from --seed) and --kernel K.

The script holds gpudiff's own SPIR-V of the kernel (--flat: of its flattened
twin) as SPIR-V assembly (spirv-dis when installed, else gpudiff's
disassembler) with TARGET_ENV spv1.3, the input and output storage buffers
with the exact bytes of the kernel ABI at DESCRIPTOR_SET 0 BINDING 0 and 1,
one RUN of ceil(n/64) workgroups, and an EXPECT (IDX = byte offset) for every
determinate output leaf of the reference interpreter; the output is viewed as
uint32 (u32, bool), int32 and float through COPY so that each EXPECT compares
its own type. The WGSL source, seed, verdict and tool version are # comments.
Run it with: amber -v 1.1 case.amber

--mode defaults to the case file's recorded mode, else portable. --only keeps
the listed invocations (e.g. the ones a divergence names), for a smaller repro.

Exit codes: 0 written; 2 usage or input error.`,
		Example: `  gpudiff export-amber findings/lavapipe_loop_exit_wrap.wgsl -o case.amber
  gpudiff export-amber shaders/conformance/div_by_zero_i32.wgsl --mode raw --only 0 -o div0.amber
  gpudiff export-amber shaders/examples/tonemap.wgsl --kernel tonemap --inputs shaders/examples/tonemap.inputs.json --flat -o tonemap_flat.amber`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.changed = map[string]bool{}
			cmd.Flags().Visit(func(f *pflag.Flag) { fl.changed[f.Name] = true })
			return runAmber(g, args[0], fl, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "output", "o", "", "write the script to this file (default: stdout)")
	f.StringVar(&fl.kernel, "kernel", "", "kernel function (default: the case's, else the only function no other function calls)")
	f.StringVar(&fl.inputs, "inputs", "", "JSON file mapping each kernel parameter to an array of per-invocation values")
	f.IntVar(&fl.invocations, "invocations", defaultInvocations, "invocations when neither a case record nor an inputs file gives the arguments")
	f.Uint64Var(&fl.seed, "seed", 1, "seed of the generated arguments when neither a case record nor an inputs file gives them")
	f.StringVar(&fl.mode, "mode", "", "emission mode of the SPIR-V: portable or raw (default: the case's recorded mode, else portable)")
	f.BoolVar(&fl.flat, "flat", false, "export the flattened twin <kernel>_flat instead of the kernel")
	f.StringVar(&fl.only, "only", "", "comma-separated invocation indices to keep (default: all)")
	return cmd
}

func runAmber(g *globalFlags, path string, fl amberFlags, stdout io.Writer) error {
	m, src, err := g.loadModule(path)
	if err != nil {
		return err
	}
	saved, rec, err := loadCase(path, src)
	if err != nil {
		return err
	}
	opts := amber.Options{Flat: fl.flat, Flatten: g.flattenOptions(), Name: path, Tool: "gpudiff " + version(), Source: string(src)}
	if saved != nil {
		opts.Source = string(src[:bytes.LastIndex(src, []byte(check.CaseMarker))])
		opts.Seed, opts.Verdict = rec.Seed, rec.Verdict
	}
	mode := wgsl.Portable
	if saved != nil && rec.Mode != "" {
		if mode, err = wgsl.ParseMode(rec.Mode); err != nil {
			return usagef("%s: case record: %v", path, err)
		}
	}
	if fl.changed["mode"] {
		if mode, err = wgsl.ParseMode(fl.mode); err != nil {
			return usagef("gpudiff export-amber: --mode: %v", err)
		}
	}
	opts.Mode = mode
	kernel := fl.kernel
	if saved != nil && kernel == "" {
		kernel = saved.Kernel
	}
	f, err := pickKernel(m, kernel)
	if err != nil {
		return err
	}
	var args [][]ir.Value
	inputs := fl.inputs
	if inputs == "" && saved == nil {
		if beside := strings.TrimSuffix(path, ".wgsl") + ".inputs.json"; fileExistsAmber(beside) {
			inputs = beside
		}
	}
	switch {
	case fl.inputs == "" && saved != nil && f.Name == saved.Kernel:
		args = saved.Args
	case inputs != "":
		if args, err = g.readInputs(inputs, f); err != nil {
			return err
		}
	default:
		if fl.invocations < 1 {
			return usagef("gpudiff export-amber: --invocations must be ≥ 1, got %d", fl.invocations)
		}
		if err := g.checkKernelLimits(m, f, fl.invocations); err != nil {
			return err
		}
		args = seededInputs(fl.seed, f, fl.invocations)
	}
	if fl.only != "" {
		var kept [][]ir.Value
		for _, s := range strings.Split(fl.only, ",") {
			i, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || i < 0 || i >= len(args) {
				return usagef("gpudiff export-amber: --only: %q is not an invocation index in [0, %d)", s, len(args))
			}
			kept = append(kept, args[i])
		}
		args = kept
	}
	script, err := amber.Export(newCase(m, f, args), opts)
	if err != nil {
		return inputErr(fmt.Errorf("gpudiff export-amber: %w", err))
	}
	return writeOutput(stdout, fl.out, []byte(script.Text))
}

func fileExistsAmber(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
