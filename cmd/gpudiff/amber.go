package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/report/amber"
)

type amberFlags struct {
	caseFlags // the case flags as typed (kernel, inputs, invocations, seed, mode)
	out, only string
	flat      bool // the twin's script
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
			fl.given, fl.command = changedFlags(cmd), "export-amber"
			return runAmber(g, args[0], fl, cmd.OutOrStdout())
		},
	}
	f := cmd.Flags()
	f.StringVarP(&fl.out, "output", "o", "", "write the script to this file (default: stdout)")
	f.StringVar(&fl.kernel, "kernel", "", "entry point or kernel function (default: the case's, else the module's compute entry point, else the only function no other function calls)")
	f.StringVar(&fl.inputs, "inputs", "", "JSON file mapping each kernel parameter to an array of per-invocation values")
	f.IntVar(&fl.invocations, "invocations", testcase.DefaultInvocations, "invocations when neither a case record nor an inputs file gives the arguments")
	f.Uint64Var(&fl.seed, "seed", 1, "seed of the generated arguments when neither a case record nor an inputs file gives them")
	f.StringVar(&fl.mode, "mode", "", "emission mode of the SPIR-V: portable or raw (default: the case's recorded mode, else portable)")
	f.BoolVar(&fl.flat, "flat", false, "export the flattened twin <kernel>_flat instead of the kernel")
	g.addStrictFlag(f)
	f.StringVar(&fl.only, "only", "", "comma-separated invocation indices to keep (default: all)")
	return cmd
}

func runAmber(g *globalFlags, path string, fl amberFlags, stdout io.Writer) error {
	if fl.given["invocations"] && fl.invocations < 1 {
		return usagef("gpudiff export-amber: --invocations must be ≥ 1, got %d", fl.invocations)
	}
	o, err := g.loadOptions(fl.caseFlags, nil)
	if err != nil {
		return err
	}
	o.KernelOnly = true
	c, err := testcase.Load(path, o)
	if err != nil {
		return loadErr("export-amber", err)
	}
	script, err := amber.ExportCase(c, fl.only, amber.Options{Flat: fl.flat, Flatten: g.flattenOptions(), Name: path, Tool: "gpudiff " + version()})
	if err != nil {
		return inputErr(fmt.Errorf("gpudiff export-amber: %w", err))
	}
	return writeOutput(stdout, fl.out, []byte(script.Text))
}
