package main

import (
	"github.com/gpudiff/gpudiff/check"
)

// loadOptions are o, subcommand cmd's case flags, with what the global
// flags say: the files are read within the source-size limit, parsed with
// --override's constants, and a kernel's or dispatch's invocations are
// bounded by the limits (check.Load decides which file, kernel and inputs a
// command line names).
func (g *globalFlags) loadOptions(cmd string, o check.LoadOptions) check.LoadOptions {
	o.Command, o.Overrides, o.ReadFile, o.CheckKernel, o.MaxInvocations = cmd, g.overrides.Overrides(), g.lim.ReadSource, g.lim.CheckKernel, g.lim.Invocations
	return o
}
