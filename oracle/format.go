package oracle

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
