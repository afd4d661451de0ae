package check

import (
	"fmt"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// EmitWGSL is the WGSL that a case of kind k submits for function fn of m
// (its twin's name, for the twin): an entry point as written
// (wgsl.EmitFragment, wgsl.EmitEntry: its own bindings and outputs), a
// function kernel with the kernel ABI's entry point (wgsl.Emit; in the
// fragment stage with fragment). `gpudiff emit` prints it.
func EmitWGSL(k testcase.Kind, m *ir.Module, fn string, mode wgsl.Mode, fragment bool) (string, error) {
	switch k {
	case testcase.KindFragment:
		return wgsl.EmitFragment(m, fn, wgsl.EmitOptions{Mode: mode})
	case testcase.KindCompute:
		return wgsl.EmitEntry(m, fn, wgsl.EmitOptions{Mode: mode})
	}
	src, _, err := wgsl.Emit(m, fn, wgsl.EmitOptions{Mode: mode, Fragment: fragment})
	return src, err
}

// EmitStage parses `gpudiff emit`'s --stage, the stage of the kernel
// ABI's entry point: compute, or fragment (true).
func EmitStage(stage string) (fragment bool, err error) {
	switch stage {
	case "compute":
		return false, nil
	case "fragment":
		return true, nil
	}
	return false, fmt.Errorf("--stage must be compute or fragment, got %q", stage)
}
