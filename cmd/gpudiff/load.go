package main

import (
	"github.com/gpudiff/gpudiff/check"
)

// loadOptions are the check.LoadOptions of subcommand cmd before its case
// flags: the files are read within the source-size limit, parsed with
// --override's constants, and a kernel's or dispatch's invocations are
// bounded by the limits (check.Load decides which file, kernel and inputs a
// command line names).
func (g *globalFlags) loadOptions(cmd string) check.LoadOptions {
	return check.LoadOptions{Command: cmd, Overrides: g.overrides.Overrides(), ReadFile: g.lim.ReadSource,
		CheckKernel: g.lim.CheckKernel, MaxInvocations: g.lim.Invocations}
}
