package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/report/amber"
)

func newEmitCmd(g *globalFlags) *cobra.Command {
	var (
		kernel, format, mode, out, stage string
		flat                             bool
		draw                             drawFlags
	)
	cmd := &cobra.Command{
		Use:     "emit FILE.wgsl | VERT.wgsl FRAG.wgsl",
		Short:   "Emit the runnable WGSL or SPIR-V of a kernel (or of its flattened twin)",
		Long:    helpText("emit"),
		Example: helpText("emit.example"),
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			md, err := wgsl.ParseMode(mode)
			if err != nil {
				return usagef("gpudiff emit: --mode: %v", err)
			}
			m, _, err := testcase.LoadModule(args[0], g.moduleOptions())
			if err != nil {
				return inputErr(err)
			}
			draw.fragmentFile = secondFile(args)
			if testcase.IsDrawOf(m, draw.options(kernel)) {
				// A draw: both stages (emitdraw.go).
				if cmd.Flags().Changed("stage") {
					return usagef("gpudiff emit: --stage is the kernel ABI's stage; a draw is emitted as written, its vertex and fragment stages")
				}
				data, err := g.emitDraw(m, kernel, draw, format, md, flat)
				if err != nil {
					return err
				}
				return writeOutput(cmd.OutOrStdout(), out, data)
			}
			fragment, err := check.EmitStage(stage)
			if err != nil {
				return usagef("gpudiff emit: %v", err)
			}
			// An entry point is emitted as written (its own bindings and
			// outputs), a function kernel with the kernel ABI's entry point.
			kind, name, err := check.EmitFunc(m, kernel, flat, g.flattenOptions())
			if err != nil {
				return inputErr(err)
			}
			data, binary, err := amber.Emit(m, kind, name, format, md, fragment)
			if fe := (*amber.FormatError)(nil); errors.As(err, &fe) {
				return usagef("gpudiff emit: %v", err)
			} else if err != nil {
				return inputErr(err)
			}
			if binary && out == "" && terminal(cmd.OutOrStdout()) {
				return usagef("gpudiff emit: refusing to write a SPIR-V binary to a terminal; use -o FILE or --format spirv-asm")
			}
			return writeOutput(cmd.OutOrStdout(), out, data)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&kernel, "kernel", "", "entry point or kernel function (default: the module's entry point, else the only function no other function calls)")
	fl.StringVar(&draw.vertex, "vertex", "", "draws: the @vertex entry point (default: the module's only one, or the only one whose outputs the fragment entry point's inputs match)")
	fl.StringVar(&draw.fragment, "fragment", "", "draws: the @fragment entry point (default: the module's only one)")
	fl.StringVar(&format, "format", "wgsl", "output format: wgsl, spirv or spirv-asm")
	fl.StringVar(&mode, "mode", "portable", "emission mode: portable or raw")
	fl.BoolVar(&flat, "flat", false, "emit the flattened twin <kernel>_flat")
	fl.StringVar(&stage, "stage", "compute", "stage of the kernel ABI's entry point: compute or fragment (a @fragment entry point as written is emitted as written)")
	g.addStrictFlag(fl)
	fl.StringVarP(&out, "output", "o", "", "write to this file (atomically) instead of standard output")
	return cmd
}
