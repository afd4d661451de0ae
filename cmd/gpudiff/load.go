package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// caseFlags are the case flags as typed (exec's and view's; export-amber's
// subset) and which of them were given; loadOptions parses them into the
// loader's values. command names the subcommand in messages.
type caseFlags struct {
	command                             string
	given                               map[string]bool
	kernel, inputs                      string
	vertex, fragment                    string // --vertex, --fragment: a draw's entry points
	fragmentFile                        string // a draw's second file (FRAG.wgsl of exec VERT.wgsl FRAG.wgsl)
	invocations                         int
	seed                                uint64
	fill, mode, workgroups, stage, size string
	flat, spirv                         bool
}

// loadOptions are the case flags cf, parsed (a flag not given stays
// unset: testcase.Load decides its default from the kind and a case
// file's record), with what the global flags say: the files are read
// within the source-size limit, parsed with --override's constants, and a
// kernel's or dispatch's invocations are bounded by the limits
// (testcase.Load decides which file, kernel and inputs a command line
// names). A bad flag value is a usage error naming the flag (exit 2);
// warnings about flags that change nothing go to stderr.
func (g *globalFlags) loadOptions(cf caseFlags, stderr io.Writer) (testcase.LoadOptions, error) {
	o := testcase.LoadOptions{Kernel: cf.kernel, Inputs: cf.inputs, VertexEntry: cf.vertex, FragmentEntry: cf.fragment, Fragment: cf.fragmentFile}
	given := func(name string) bool { return cf.given[name] }
	if given("seed") {
		o.Seed = new(cf.seed)
	}
	if given("invocations") {
		o.Invocations = cf.invocations
	}
	if given("flat") {
		o.Flat = new(cf.flat)
	}
	if given("spirv") {
		o.SPIRV = new(cf.spirv)
	}
	var err error
	if given("fill") {
		if o.Fill, err = testcase.ParseFill(cf.fill); err != nil {
			return o, usagef("gpudiff %s: --fill: %v", cf.command, err)
		}
	}
	if given("mode") {
		if o.Mode, err = wgsl.ParseMode(cf.mode); err != nil {
			return o, usagef("gpudiff %s: --mode: %v", cf.command, err)
		}
	}
	if given("workgroups") {
		wg, err := testcase.ParseWorkgroups(cf.workgroups)
		if err != nil {
			return o, usagef("gpudiff %s: --workgroups %s: %v", cf.command, cf.workgroups, err)
		}
		o.Workgroups = &wg
	}
	if given("size") {
		size, err := testcase.ParseSize(cf.size)
		if err != nil {
			return o, usagef("gpudiff %s: --size %s: %v", cf.command, cf.size, err)
		}
		o.Size = &size
	}
	if given("stage") {
		if o.Stages, err = parseStages(cf.command, cf.stage); err != nil {
			return o, err
		}
	}
	g.limitLoad(&o, cf.command, stderr)
	return o, nil
}

// limitLoad sets what the global flags say about loading any file (the
// source-size limit, --override's constants, the invocation limits) and
// where the loader's warnings go.
func (g *globalFlags) limitLoad(o *testcase.LoadOptions, command string, stderr io.Writer) {
	o.Overrides, o.ReadFile, o.CheckKernel, o.MaxInvocations = g.overrides.Overrides(), g.lim.ReadSource, g.lim.CheckKernel, g.lim.Invocations
	if stderr != nil {
		o.Warn = stderr
		o.WarnFlag = func(msg string) { fmt.Fprintf(stderr, "gpudiff %s: warning: %s\n", command, msg) }
	}
}

// loadErr is a loader error of subcommand command as the user reads it:
// a flag that does not apply (testcase.FlagError) after "gpudiff
// COMMAND: ", a render pipeline's case that command does not write
// (testcase.RenderCaseError), else inputErr's.
func loadErr(command string, err error) error {
	var fe *testcase.FlagError
	if errors.As(err, &fe) {
		return usagef("gpudiff %s: %s", command, fe.Msg)
	}
	var re *testcase.RenderCaseError
	if errors.As(err, &re) {
		return usagef("gpudiff %s: %s, which %s does not write (it writes compute pipelines only)", command, re.Error(), command)
	}
	return inputErr(err)
}

// moduleOptions are the loader's options of a command without case flags
// (emit, flatten, repro): the global flags' limits and overrides only.
func (g *globalFlags) moduleOptions() testcase.LoadOptions {
	var o testcase.LoadOptions
	g.limitLoad(&o, "", nil)
	return o
}
