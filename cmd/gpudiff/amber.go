package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/report/amber"
)

type amberFlags struct {
	check.LoadOptions // the case flags as given (Given, Kernel, Inputs, Invocations, Seed, Mode)
	out, only         string
	flat              bool // the twin's script
}

func newAmberCmd(g *globalFlags) *cobra.Command {
	var fl amberFlags
	cmd := &cobra.Command{
		Use:     "export-amber CASE",
		Short:   "Write an Amber script that replays a case with gpudiff's SPIR-V and the reference's expected values",
		Long:    helpText("export-amber"),
		Example: helpText("export-amber.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.Given = changedFlags(cmd)
			return runAmber(g, args[0], fl, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "output", "o", "", "write the script to this file (default: stdout)")
	f.StringVar(&fl.Kernel, "kernel", "", "entry point or kernel function (default: the case's, else the module's compute entry point, else the only function no other function calls)")
	f.StringVar(&fl.Inputs, "inputs", "", "JSON file mapping each kernel parameter to an array of per-invocation values")
	f.IntVar(&fl.Invocations, "invocations", check.DefaultInvocations, "invocations when neither a case record nor an inputs file gives the arguments")
	f.Uint64Var(&fl.Seed, "seed", 1, "seed of the generated arguments when neither a case record nor an inputs file gives them")
	f.StringVar(&fl.Mode, "mode", "", "emission mode of the SPIR-V: portable or raw (default: the case's recorded mode, else portable)")
	f.BoolVar(&fl.flat, "flat", false, "export the flattened twin <kernel>_flat instead of the kernel")
	g.addStrictFlag(f)
	f.StringVar(&fl.only, "only", "", "comma-separated invocation indices to keep (default: all)")
	return cmd
}

func runAmber(g *globalFlags, path string, fl amberFlags, stdout io.Writer) error {
	o := g.loadOptions("export-amber", fl.LoadOptions)
	o.KernelOnly = true
	c, err := check.Load(path, o)
	if err != nil {
		return inputErr(err)
	}
	script, err := amber.ExportCase(c, fl.only, amber.Options{Flat: fl.flat, Flatten: g.flattenOptions(), Name: path, Tool: "gpudiff " + version()})
	if err != nil {
		return inputErr(fmt.Errorf("gpudiff export-amber: %w", err))
	}
	return writeOutput(stdout, fl.out, []byte(script.Text))
}
