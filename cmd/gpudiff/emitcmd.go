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
	)
	cmd := &cobra.Command{
		Use:     "emit FILE.wgsl",
		Short:   "Emit the runnable WGSL or SPIR-V of a kernel (or of its flattened twin)",
		Long:    helpText("emit"),
		Example: helpText("emit.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			md, err := wgsl.ParseMode(mode)
			if err != nil {
				return usagef("gpudiff emit: --mode: %v", err)
			}
			m, _, err := testcase.LoadModule(args[0], g.moduleOptions())
			if err != nil {
				return inputErr(err)
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
	fl.StringVar(&format, "format", "wgsl", "output format: wgsl, spirv or spirv-asm")
	fl.StringVar(&mode, "mode", "portable", "emission mode: portable or raw")
	fl.BoolVar(&flat, "flat", false, "emit the flattened twin <kernel>_flat")
	fl.StringVar(&stage, "stage", "compute", "stage of the kernel ABI's entry point: compute or fragment (a @fragment entry point as written is emitted as written)")
	g.addStrictFlag(fl)
	fl.StringVarP(&out, "output", "o", "", "write to this file (atomically) instead of standard output")
	return cmd
}
