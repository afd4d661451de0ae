package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

func newFlattenCmd(g *globalFlags) *cobra.Command {
	var (
		kernel    string
		maxUnroll int
		strict    bool
		out       string
		verify    bool
		dumpAfter string
	)
	cmd := &cobra.Command{
		Use:   "flatten FILE.wgsl",
		Short: "Print the module with the branchless, call-free twin <kernel>_flat of each kernel",
		Long: `flatten adds to the module the flattened twin <name>_flat of the kernel (or of
every kernel) and prints the module as WGSL. The twin has no if, loop, switch,
break, continue or user call, and a single return at its end: ifs become
select, early returns a live mask, bounded loops are unrolled with break and
continue masks, calls are inlined.

Constructs outside flatten's subset (recursion, unbounded loops, unrolling past
--max-unroll, builtins outside the whitelist, uniformity-dependent operations
under non-uniform control flow) are refused with file:line:col: flatten: … and
exit code 2; nothing is printed then.`,
		Example: `  gpudiff flatten shaders/examples/shade.wgsl
  gpudiff flatten shaders/examples/tonemap.wgsl --kernel tonemap --max-unroll 256 --strict -o tonemap_flat.wgsl
  gpudiff flatten shaders/examples/shade.wgsl --verify-passes --dump-after lower`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, _, err := g.loadModule(args[0])
			if err != nil {
				return err
			}
			if err := checkFlags("flatten", changedFlags(cmd), intAtLeast("max-unroll", int64(maxUnroll), 1)); err != nil {
				return err
			}
			if maxUnroll == 0 {
				maxUnroll = g.lim.Unroll
			}
			opts := g.flattenOptions()
			opts.MaxUnroll, opts.Strict, opts.VerifyPasses = maxUnroll, strict, verify
			if dumpAfter != "" {
				if dumpAfter != "all" && !slices.Contains(flatten.PassNames(), dumpAfter) {
					return usagef("gpudiff flatten: --dump-after: no pass %q (passes: all, %s)", dumpAfter, strings.Join(flatten.PassNames(), ", "))
				}
				stderr := cmd.ErrOrStderr()
				opts.AfterPass = func(pass string, twin *ir.Func) {
					if dumpAfter == "all" || pass == dumpAfter {
						fmt.Fprintf(stderr, "// after %s:\n%s\n", pass, ir.PrintFunc(twin))
					}
				}
			}
			if kernel != "" {
				if _, err := pickKernel(m, kernel); err != nil {
					return err
				}
				if _, err := flatten.Function(m, kernel, opts); err != nil {
					return inputErr(err)
				}
			} else if err := flatten.Module(m, opts); err != nil {
				return inputErr(err)
			}
			return writeOutput(cmd.OutOrStdout(), out, []byte(ir.Print(m)))
		},
	}
	f := cmd.Flags()
	f.StringVar(&kernel, "kernel", "", "flatten only this function (default: every kernel)")
	f.IntVar(&maxUnroll, "max-unroll", 0, "maximum total loop-body copies, nesting multiplies (default 4096)")
	f.BoolVar(&strict, "strict", false, "fail on residuals the folds should have removed (constant-condition select, unfolded identity, all-constant call, !const)")
	f.StringVarP(&out, "output", "o", "", "write to this file (atomically) instead of standard output")
	f.BoolVar(&verify, "verify-passes", false, "verify the twin (ir.Verify) after every pass; a failure is an internal error naming the pass")
	f.StringVar(&dumpAfter, "dump-after", "", "print the twin to standard error after each run of this pass that changed it, or after every pass with 'all' (passes: "+strings.Join(flatten.PassNames(), ", ")+")")
	return cmd
}
