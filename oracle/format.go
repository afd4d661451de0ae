package oracle

import "fmt"

// Format is the form a run executes a function in: the interpreter's IR,
// or the WGSL or SPIR-V module gpudiff emits for a GPU adapter
// (ARCHITECTURE.md "The oracle and its verdicts": the comparisons pair
// runs by format). Its strings are what run records, case files and
// reports say; they never change.
type Format string

const (
	// FormatIR is a run of the reference interpreter (adapter "interp")
	// on the IR itself: the reference, or the twin's interpreter run.
	FormatIR Format = "ir"
	// FormatWGSL is a GPU run of the WGSL gpudiff emits (the stack's own
	// WGSL compiler: naga, Tint).
	FormatWGSL Format = "wgsl"
	// FormatSPIRV is a GPU run of the SPIR-V gpudiff emits (the stack's
	// SPIR-V front end; not every implementation takes SPIR-V).
	FormatSPIRV Format = "spirv"
)

// Stage is the pipeline stage a GPU run executes its module in (WebGPU
// #GPUShaderStage): the kernel ABI's compute entry point, or its fragment
// entry point drawn over a render target (ARCHITECTURE.md "Kernel ABI").
// The interpreter's runs have no stage (""). Its strings are what run
// records, case files and reports say; they never change.
type Stage string

const (
	// StageCompute is a run of a @compute entry point: workgroups of
	// invocations (every run before stages existed; a record without a
	// stage is one).
	StageCompute Stage = "compute"
	// StageFragment is a run of a @fragment entry point: one fragment per
	// invocation (or per pixel of an entry point's target).
	StageFragment Stage = "fragment"
)

// ParseStage parses "compute" or "fragment".
func ParseStage(s string) (Stage, error) {
	switch Stage(s) {
	case StageCompute, StageFragment:
		return Stage(s), nil
	}
	return "", fmt.Errorf("unknown stage %q (want %q or %q)", s, StageCompute, StageFragment)
}
