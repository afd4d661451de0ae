package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/report"
)

type execFlags struct {
	// The case flags as typed, for testcase.Load (loadOptions parses
	// them); command is the subcommand, for messages (exec, view);
	// recorded: a case file's recorded --flat and --spirv are the
	// defaults, as repro replays them (view), where exec takes them from
	// its flags.
	caseFlags
	recorded       bool
	adapters       []string
	asJSON, noGPU  bool
	timeout        time.Duration
	compileTimeout time.Duration // each dispatch's compile phase (--compile-timeout)
	saveCase       string
	allRows        bool
	png            string         // directory of one PNG picture per run
	devs           []check.Device // open adapters to run on (nil: open fl.adapters)
}

func newExecCmd(g *globalFlags) *cobra.Command {
	var fl execFlags
	cmd := &cobra.Command{
		Use:     "exec FILE.wgsl | VERT.wgsl FRAG.wgsl",
		Short:   "Run one kernel in the reference interpreter and on GPU adapters, and compare per invocation",
		Long:    helpText("exec"),
		Example: helpText("exec.example"),
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.given, fl.command = changedFlags(cmd), "exec"
			fl.fragmentFile = secondFile(args)
			return runExec(cmd.Context(), g, args[0], fl, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addCaseFlags(f, &fl)
	g.addStrictFlag(f)
	f.BoolVar(&fl.asJSON, "json", false, "print one JSON object instead of a table")
	f.BoolVar(&fl.allRows, "all-rows", false, "show every invocation in the table (by default, past 16 invocations only the first 4 and the disagreeing ones)")
	f.StringVar(&fl.saveCase, "save-case", "", "also write the run as a case file (module, inputs, reference, observed runs, verdict) for 'gpudiff repro' and shaders/regress")
	f.StringVar(&fl.png, "png", "", "also write one PNG picture per run (the reference too) into this directory: outputs coloured by value, disagreeing cells marked, with a legend")
	return cmd
}

// addCaseFlags adds the flags that say which case to run and where (exec
// and view share them).
func addCaseFlags(f *pflag.FlagSet, fl *execFlags) {
	f.StringVar(&fl.kernel, "kernel", "", "entry point or kernel function to run (default: the module's entry point, else the only function no other function calls)")
	f.StringVar(&fl.vertex, "vertex", "", "draws: the @vertex entry point (default: the module's only one, or the only one whose outputs the fragment entry point's inputs match)")
	f.StringVar(&fl.fragment, "fragment", "", "draws: the @fragment entry point drawn after the vertex entry point (default: the module's only one)")
	f.IntVar(&fl.invocations, "invocations", 0, "number of invocations (default: the inputs' length, else 64)")
	f.StringVar(&fl.inputs, "inputs", "", "JSON file mapping each kernel parameter to an array of per-invocation values (default: NAME.inputs.json beside NAME.wgsl, if any)")
	f.Uint64Var(&fl.seed, "seed", 1, "seed of the generated arguments when --inputs is not given, for --fill edges and random (setting it also skips NAME.inputs.json)")
	f.StringVar(&fl.fill, "fill", "", "how to make up the inputs --inputs does not give: zero, iota (element index), small (1 + index mod 16; floats a quarter of that), edges (edge values first, then seeded) or random (seeded); default: edges for a function kernel's arguments, small for an entry point's bindings (setting it also skips NAME.inputs.json)")
	f.StringArrayVar(&fl.adapters, "adapter", nil, "adapter to run on: a short name from 'gpudiff adapters', a prefix (vulkan), or all; repeatable (default: the first Vulkan adapter)")
	f.StringVar(&fl.mode, "mode", "portable", "emission mode: portable (WGSL's rules spelled out with guards) or raw (operators as written)")
	f.BoolVar(&fl.noGPU, "no-gpu", false, "run only the interpreter paths")
	f.BoolVar(&fl.flat, "flat", false, "also flatten the kernel and run its branchless twin <kernel>_flat")
	f.DurationVar(&fl.timeout, "timeout", 30*time.Second, "time limit of each dispatch once its pipeline is compiled (a dispatch that exceeds it hangs: a timeout, a finding)")
	f.DurationVar(&fl.compileTimeout, "compile-timeout", worker.DefaultCompileTimeout, "time limit of each dispatch's compile phase, shader module and pipeline creation (one that exceeds it is verdict slow-compile: a performance note, exit 0 if nothing else fails)")
	f.BoolVar(&fl.spirv, "spirv", false, "also run gpudiff's SPIR-V of each function on each adapter (format \"spirv\")")
	f.StringVar(&fl.workgroups, "workgroups", "1", "compute entry points: the dispatch size X[,Y[,Z]] (default: the inputs' \"workgroups\", else 1)")
	f.StringVar(&fl.stage, "stage", "compute", stageFlagHelp)
	f.StringVar(&fl.size, "size", "16x16", "fragment entry points and draws: the render target WxH in pixels, one invocation per pixel (default: a draw's inputs' \"size\", else 16x16)")
}

func runExec(ctx context.Context, g *globalFlags, path string, fl execFlags, stdout, stderr io.Writer) error {
	o, err := execLoadOptions(g, fl, stderr)
	if err != nil {
		return err
	}
	if each, m := testcase.EachEntryIn(path, o); len(each) > 1 {
		return runEach(ctx, g, path, fl, each, m, stdout, stderr)
	}
	x, err := executeFile(ctx, g, path, fl, o, stderr)
	if err != nil {
		return err
	}
	if err := writeExecuted(x, fl, stdout); err != nil {
		return err
	}
	return execExit(x)
}

// secondFile is a draw's fragment file, the second of exec's and view's
// arguments (VERT.wgsl FRAG.wgsl), "" for one file.
func secondFile(args []string) string {
	if len(args) == 2 {
		return args[1]
	}
	return ""
}

// execLoadOptions checks exec's and view's flags (before any file is
// read or any run made: exit 2) and parses the case flags.
func execLoadOptions(g *globalFlags, fl execFlags, stderr io.Writer) (testcase.LoadOptions, error) {
	if err := checkFlags(fl.command, fl.given, check.AtLeast("invocations", int64(fl.invocations), 1), check.Positive("timeout", fl.timeout)); err != nil {
		return testcase.LoadOptions{}, err
	}
	if err := os.MkdirAll(fl.png, 0o755); fl.png != "" && err != nil { // before any run: exit 2, no dispatch
		return testcase.LoadOptions{}, usagef("gpudiff exec: --png: %v", err)
	}
	o, err := g.loadOptions(fl.caseFlags, stderr)
	o.Recorded = fl.recorded
	return o, err
}

// executeFile runs the case that path and o name (testcase.Load: a module's
// kernel or entry point, or a case file) on the interpreter and fl's
// adapters.
func executeFile(ctx context.Context, g *globalFlags, path string, fl execFlags, o testcase.LoadOptions, stderr io.Writer) (*check.Result, error) {
	c, err := testcase.Load(path, o)
	if err != nil {
		return nil, loadErr(fl.command, err)
	}
	devs := fl.devs
	if !fl.noGPU && devs == nil {
		var closeAll func()
		if devs, closeAll, err = openDevicesLimits(fl.adapters, fl.compileTimeout, fl.timeout, 1, c.Module.UsesSubgroups(c.Func.Name), stderr); err != nil {
			return nil, usagef("gpudiff %s: --adapter: %v", fl.command, err)
		}
		defer closeAll()
	}
	x, err := check.Execute(ctx, c, check.CaseOptions(c, check.Options{Devices: devs, Interp: g.interpOptions(), Flatten: g.flattenOptions()}))
	if err != nil {
		return nil, inputErr(err)
	}
	return x, nil
}

// writeExecuted saves and prints what exec does for x: the case file
// (--save-case) and the pictures (--png) (report.SaveRun), then the table
// or the JSON document (--json).
func writeExecuted(x *check.Result, fl execFlags, stdout io.Writer) error {
	if err := report.SaveRun(x, fl.saveCase, fl.png, version()); err != nil {
		return usagef("gpudiff %s: %v", fl.command, err)
	}
	if fl.asJSON {
		return report.WriteCaseJSON(stdout, x, nil)
	}
	report.WriteCaseTable(stdout, x, report.ExecOptions{AllRows: fl.allRows, Color: colorOn(stdout)})
	return nil
}

// execExit is exec's and view's exit for x (README "Exit codes"; its
// class is check's): flatten's refusal is an input error with its
// positioned message.
func execExit(x *check.Result) error {
	if e := x.Exit(); e == check.ExitFlatten {
		return inputErr(x.FlattenErr)
	} else if code := exitOfClass[e]; code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// runEach runs each entry point of a module in turn (testcase.EachEntry;
// README "Several entry points") on one set of adapters, as exec runs
// one, saving a case file per failing entry point (check.EachCasePath),
// and prints them (report.WriteEntries); its exit code is the worst
// (worstExit). A refusal or internal error's message goes to stderr too,
// named after its entry point; a usage error of the command line is every
// entry point's, so it ends the run, returned as is with nothing written.
func runEach(ctx context.Context, g *globalFlags, path string, fl execFlags, each []testcase.LoadOptions, m *ir.Module, stdout, stderr io.Writer) error {
	if !fl.noGPU {
		closeAll, err := func() {}, error(nil)
		variants := false // lavapipe's subgroup-size variants, for entry points with subgroup operations
		for _, o := range each {
			variants = variants || m.Func(o.Kernel) != nil && m.UsesSubgroups(o.Kernel)
		}
		if fl.devs, closeAll, err = openDevicesLimits(fl.adapters, fl.compileTimeout, fl.timeout, 1, variants, stderr); err != nil {
			return usagef("gpudiff exec: --adapter: %v", err)
		}
		defer closeAll()
	}
	runs, worst := make([]report.EntryRun, len(each)), exitOK
	for i, o := range each {
		x, err := executeFile(ctx, g, path, fl, o, stderr)
		if err == nil {
			if err = report.SaveRun(x, check.EachCasePath(fl.saveCase, o.Kernel, x.Exit()), fl.png, version()); err == nil {
				err = execExit(x)
			}
		}
		code := exitCode(err, io.Discard)
		if ee := (*exitError)(nil); x == nil && errors.As(err, &ee) && ee.commandLine {
			return err
		}
		runs[i] = report.EntryRun{Name: o.Kernel, Outcome: x, Exit: code}
		if err != nil && (x == nil || code == exitUsage || code == exitInternal) {
			runs[i].Err = err.Error()
			fmt.Fprintf(stderr, "gpudiff exec: entry point %s: %v\n", o.Kernel, err)
		}
		worst = worstExit(worst, code)
	}
	if err := report.WriteEntries(stdout, runs, worst, fl.asJSON, report.ExecOptions{AllRows: fl.allRows, Color: colorOn(stdout)}); err != nil || worst == exitOK {
		return err
	}
	return &exitError{code: worst}
}
