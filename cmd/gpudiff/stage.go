package main

import (
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/oracle"
)

// stageFlagHelp is the help text of exec's, run's and drivers' --stage.
const stageFlagHelp = "pipeline stage of the GPU runs: compute (the kernel ABI's @compute entry point), fragment " +
	"(its @fragment twin, one fragment per invocation over a full-screen triangle) or both"

// parseStages parses a --stage value of command cmd: "compute",
// "fragment" or "both" (compute, then fragment).
func parseStages(cmd, s string) ([]oracle.Stage, error) {
	stages, err := check.ParseStages(s)
	if err != nil {
		return nil, usagef("gpudiff %s: --stage: %v", cmd, err)
	}
	return stages, nil
}
