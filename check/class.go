package check

import (
	"strings"

	"github.com/gpudiff/gpudiff/oracle"
)

// Class is the stable identifier of what a finding or a divergence
// implicates (ARCHITECTURE.md "The oracle and its verdicts"). Case files,
// campaign records and reports, signatures (the first '/'-part) and
// baselines hold its string, and corpus file names begin with it: a
// class's string never changes.
//
// Three attributions produce classes. Attribute (this package) compares
// one case's runs on every path; the campaign adds ClassFlattenRefused
// for a generated program; the driver matrix (drivers) compares one
// corpus across every adapter, and has finer classes for the same
// comparisons because it sees every adapter's run of the same module.
type Class string

// Classes of Attribute (one case, every path), most specific first: the
// order Attribute sorts its findings in (ClassRank).
const (
	// ClassFlatten: the twin disagrees with the original in the reference
	// interpreter — a flatten bug, no GPU involved. Attribute and the
	// driver matrix both produce it.
	ClassFlatten Class = "flatten"
	// ClassPredication: on one stack the original agrees with the
	// reference and the flattened twin does not — the stack miscompiles
	// the branchless form (or flatten, when the twin also disagrees in
	// the interpreter). Attribute.
	ClassPredication Class = "predication"
	// ClassSPIRV: gpudiff's SPIR-V of a function disagrees where the WGSL
	// of the same function agrees on the adapter — gpudiff's SPIR-V
	// emitter or the stack's SPIR-V path. Attribute.
	ClassSPIRV Class = "spirv"
	// ClassStage: the fragment-stage run of a function disagrees where its
	// compute-stage run of the same format agrees on the adapter — the
	// stack's fragment path (the driver compiles and runs fragment
	// shaders by other code than compute shaders), or gpudiff's fragment
	// wrapper. Attribute and the driver matrix.
	ClassStage Class = "stage"
	// ClassVendor: the stack's WGSL run disagrees with the reference and
	// other adapters (another implementation on the same driver, or the
	// other drivers) agree — vendor divergence; the finding's Implicates
	// says whether the compiler or the driver is implicated. Attribute.
	ClassVendor Class = "vendor"
	// ClassStack: the stack's WGSL run disagrees with the reference and
	// the runs do not separate compiler, driver and gpudiff's own emitter
	// or interpreter. Attribute and the driver matrix both produce it.
	ClassStack Class = "stack"
	// ClassCompileError: the stack rejected gpudiff's module (a failure
	// verdict, oracle.CompileError) — gpudiff's emitter if the module is
	// invalid, else the stack's compiler. Attribute.
	ClassCompileError Class = Class(oracle.CompileError)
	// ClassCrash: the stack crashed or lost the device running the kernel
	// (oracle.Crash) — the driver or the implementation. Attribute.
	ClassCrash Class = Class(oracle.Crash)
	// ClassTimeout: the dispatch compiled but did not finish running in
	// time (oracle.Timeout) — a driver hang or a miscompiled loop. A
	// stack that does not finish compiling in time (oracle.SlowCompile)
	// is no finding: a performance note (SlowCompiles). Attribute.
	ClassTimeout Class = Class(oracle.Timeout)
	// ClassError: gpudiff itself could not run or judge the case (the
	// reference interpreter did not finish an invocation, a run could not
	// be decoded, a program could not be executed: oracle.Error) —
	// gpudiff, or the case's limits. Attribute and the campaign.
	ClassError Class = Class(oracle.Error)
)

// The shader's own class: what it implicates is the shader under test,
// never a stack.
const (
	// ClassRace: the shader has a data race (WGSL #memory-model; the
	// reference reports both accesses). Its racing leaves were compared
	// against the values WGSL allows, so a run outside them is still a
	// stack finding beside it. AttributeEntry produces it; exec's verdict
	// is race (exit 4).
	ClassRace Class = Class(oracle.Race)
)

// The campaign's class: its expectation of a generated program, beyond
// what Attribute compares.
const (
	// ClassFlattenRefused: flatten refused (or failed on) a program inside
	// its subset, or did not refuse a recursive one loudly — flatten.
	// The campaign (package campaign) produces it.
	ClassFlattenRefused Class = "flatten-refused"
)

// The driver matrix's classes (drivers): each names what a divergence
// implicates and is decided by comparing the run with its neighbours in
// the matrix — the same function and format on the other adapters, the
// other format on the same adapter, and the hazards of gpudiff's raw
// SPIR-V. ClassFlatten and ClassStack (above) are the matrix's classes
// too.
const (
	// ClassCompiler: the implementation's shader compiler (naga, Tint) —
	// another implementation agrees on the same driver, or the differing
	// invocations are exactly those that reach an operation SPIR-V leaves
	// undefined where WGSL defines it (the compiler must guard it), or
	// gpudiff's own SPIR-V of the same function agrees on the adapter, or
	// the implementation differs on every driver while another agrees.
	ClassCompiler Class = "compiler"
	// ClassDriver: the driver — the same implementation (so the same
	// compiler output, same backend API) agrees on another driver, and no
	// undefined operation explains the difference.
	ClassDriver Class = "driver"
	// ClassDriverOrBackend: the driver or the implementation's backend for
	// this API — the implementation agrees only on drivers of another API,
	// whose code its compiler writes differently.
	ClassDriverOrBackend Class = "driver-or-backend"
	// ClassSPIRVPath: gpudiff's SPIR-V emitter or the implementation's
	// SPIR-V front end — the WGSL of the same function agrees on the
	// adapter, or the stack rejects gpudiff's SPIR-V.
	ClassSPIRVPath Class = "spirv-path"
	// ClassUndefinedSPIRV: not a stack bug — every differing invocation
	// executes an instruction of gpudiff's raw SPIR-V in a domain SPIR-V
	// leaves undefined, so any result is allowed (raw mode only).
	ClassUndefinedSPIRV Class = "undefined-spirv"
	// ClassReference: every adapter differs — gpudiff's interpreter or WGSL
	// emitter is the first suspect.
	ClassReference Class = "reference"
	// ClassHarness: gpudiff could not run the case (setup or decoding).
	ClassHarness Class = "harness"
)

// FailureClass is the class of a run that failed with verdict v (a
// CompileError, Crash, Timeout or Error run): the verdict's own string.
func FailureClass(v oracle.Verdict) Class { return Class(v) }

// classRank orders Attribute's classes, most specific first (the order of
// the constants above); every other class ranks after them, equal.
func classRank(c Class) int {
	for i, k := range []Class{ClassFlatten, ClassPredication, ClassSPIRV, ClassStage, ClassVendor, ClassStack, ClassCompileError, ClassCrash, ClassTimeout, ClassError} {
		if c == k {
			return i
		}
	}
	return 99
}

// BlamesFlatten reports whether class c blames flatten (ClassFlatten,
// ClassFlattenRefused).
func BlamesFlatten(c Class) bool { return c == ClassFlatten || c == ClassFlattenRefused }

// JoinClasses joins the strings of cs with sep (strings.Join for classes).
func JoinClasses(cs []Class, sep string) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, sep)
}
