package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/report"
)

func newFlattenCmd(g *globalFlags) *cobra.Command {
	var (
		kernel    string
		maxUnroll int
		out       string
		verify    bool
		dumpAfter string
		stats     bool
		loops     string
	)
	cmd := &cobra.Command{
		Use:     "flatten FILE.wgsl",
		Short:   "Print the module with the branchless, call-free twin <kernel>_flat of each kernel",
		Long:    helpText("flatten"),
		Example: helpText("flatten.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, _, err := testcase.LoadModule(args[0], g.moduleOptions())
			if err != nil {
				return inputErr(err)
			}
			if err := checkFlags("flatten", changedFlags(cmd), check.AtLeast("max-unroll", int64(maxUnroll), 1)); err != nil {
				return err
			}
			if err := flatten.CheckLoops(loops); err != nil {
				return usagef("gpudiff flatten: %v", err)
			}
			if maxUnroll == 0 {
				maxUnroll = g.lim.Unroll
			}
			opts := g.flattenOptions()
			opts.MaxUnroll, opts.VerifyPasses, opts.Loops = maxUnroll, verify, loops
			if err := opts.DumpAfter(dumpAfter, cmd.ErrOrStderr()); err != nil {
				return usagef("gpudiff flatten: %v", err)
			}
			var st report.FlattenStats
			if stats {
				st.Collect(&opts)
			}
			if kernel != "" {
				// --kernel names a function kernel or an entry point (an
				// entry point flattens to an entry point: flatten's doc,
				// "Entry points"), as on every subcommand (testcase.KindOf).
				if _, _, err := check.EmitFunc(m, kernel, true, opts); err != nil {
					return inputErr(err)
				}
			} else if err := flatten.Module(m, opts); err != nil {
				return inputErr(err)
			}
			if stats {
				st.Write(cmd.ErrOrStderr())
			}
			return writeOutput(cmd.OutOrStdout(), out, []byte(ir.Print(m)))
		},
	}
	f := cmd.Flags()
	f.StringVar(&kernel, "kernel", "", "flatten only this function (default: every kernel)")
	f.IntVar(&maxUnroll, "max-unroll", 0, "maximum total loop-body copies, nesting multiplies (default 4096)")
	g.addStrictFlag(f)
	f.StringVarP(&out, "output", "o", "", "write to this file (atomically) instead of standard output")
	f.BoolVar(&verify, "verify-passes", false, "verify the twin (ir.Verify) after every pass; a failure is an internal error naming the pass")
	f.BoolVar(&stats, "stats", false, "print to standard error, per closed-set dispatch (a switch whose arms call same-signature functions with the same arguments), the candidates it declares and those the tag-set analysis prunes, then the totals; then the loops: how many were unrolled, kept as uniform loops and kept as masked loops")
	f.StringVar(&loops, "loops", "auto", "what becomes of loops: auto (unroll those with a proven bound within --max-unroll, keep the others as loops of the twin), unroll (unroll all; refuse a loop without a bound), mask (keep every loop as a loop of the twin)")
	f.StringVar(&dumpAfter, "dump-after", "", "print the twin to standard error after each run of this pass that changed it, or after every pass with 'all' (passes: "+strings.Join(flatten.PassNames(), ", ")+")")
	return cmd
}
