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
		draw      drawFlags
	)
	cmd := &cobra.Command{
		Use:     "flatten FILE.wgsl | VERT.wgsl FRAG.wgsl",
		Short:   "Print the module with the branchless, call-free twin <kernel>_flat of each kernel",
		Long:    helpText("flatten"),
		Example: helpText("flatten.example"),
		Args:    cobra.RangeArgs(1, 2),
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
			draw.fragmentFile = secondFile(args)
			if draw.fragmentFile != "" || draw.vertex != "" || draw.fragment != "" {
				// A draw's two stages: each entry point's twin, printed
				// in its module (both modules, each after a comment
				// naming it, when the draw has two).
				vm, fm, vs, fs, err := g.drawModules(m, kernel, draw)
				if err != nil {
					return err
				}
				for _, st := range []struct {
					m    *ir.Module
					name string
				}{{vm, vs.Name}, {fm, fs.Name}} {
					if _, err := flatten.Function(st.m, st.name, opts); err != nil {
						return inputErr(err)
					}
				}
				if stats {
					st.Write(cmd.ErrOrStderr())
				}
				text := ir.Print(vm)
				if fm != vm {
					text = "// vertex stage module " + vm.File + "\n" + text + "\n// fragment stage module " + fm.File + "\n" + ir.Print(fm)
				}
				return writeOutput(cmd.OutOrStdout(), out, []byte(text))
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
	f.StringVar(&draw.vertex, "vertex", "", "draws: flatten this @vertex entry point and the @fragment one drawn after it (--fragment, or the module's only one)")
	f.StringVar(&draw.fragment, "fragment", "", "draws: flatten this @fragment entry point and the @vertex one before it (--vertex, or the one its inputs match)")
	f.IntVar(&maxUnroll, "max-unroll", 0, "maximum total loop-body copies, nesting multiplies (default 4096)")
	g.addStrictFlag(f)
	f.StringVarP(&out, "output", "o", "", "write to this file (atomically) instead of standard output")
	f.BoolVar(&verify, "verify-passes", false, "verify the twin (ir.Verify) after every pass; a failure is an internal error naming the pass")
	f.BoolVar(&stats, "stats", false, "print to standard error, per closed-set dispatch (a switch whose arms call same-signature functions with the same arguments), the candidates it declares and those the tag-set analysis prunes, then the totals; then the loops: how many were unrolled, kept as uniform loops and kept as masked loops")
	f.StringVar(&loops, "loops", "auto", "what becomes of loops: auto (unroll those with a proven bound within --max-unroll, keep the others as loops of the twin), unroll (unroll all; refuse a loop without a bound), mask (keep every loop as a loop of the twin)")
	f.StringVar(&dumpAfter, "dump-after", "", "print the twin to standard error after each run of this pass that changed it, or after every pass with 'all' (passes: "+strings.Join(flatten.PassNames(), ", ")+")")
	return cmd
}
