// Package drivers builds gpudiff's driver matrix: one corpus (conformance
// kernels, case files, generated programs) run on every adapter — as the
// original kernel and its flattened twin, as WGSL and as gpudiff's own
// SPIR-V where the implementation takes SPIR-V — each run judged against
// the reference interpreter (check.Execute), and every divergence
// attributed to the component it implicates by comparing it with its
// neighbours in the matrix (check.AttributeRow on the case's check.Row,
// which drivers fills from its cells; its check.Class classes): another WebGPU
// implementation on the same driver (the shader compiler), the same
// implementation on other drivers (the driver), gpudiff's SPIR-V against
// the implementation's WGSL path on one adapter (the WGSL compiler or
// gpudiff's emitter), and operations of gpudiff's raw SPIR-V that the
// differing invocations execute where SPIR-V leaves the result undefined
// (FindHazards: then the compiler that passed the operation on unguarded
// is at fault, not the driver).
//
// A compute entry point as written (a corpus .wgsl whose kernel is one,
// with NAME.inputs.json's bindings and workgroups or gen.EntryBindings; an
// entry case file; a generated program of the compute profile) is one
// row too: check.ExecuteEntry dispatches it per adapter, and its result,
// taken as one invocation (the dispatch) whose outputs are the read_write
// bindings (EntryResult.AsResult), fills the cells and is attributed as a
// kernel's is, except that undefined SPIR-V operations are not probed in
// a dispatch. The runs an adapter cannot take (gpudiff's SPIR-V of atomics
// on wgpu) stay in their cells as Skipped, with the reason, never judged
// and never a divergence; SPIR-V on Dawn, which takes WGSL only, is left
// out of its cells as for a function kernel.
//
// With Options.Stages a function kernel's runs are made in the compute
// and/or the fragment stage (check.Options.Stages): each run carries its
// stage, a run's neighbours are the runs of its own stage, and a
// fragment-stage run that does not agree where the compute run of the same
// function and format on the adapter does is check.ClassStage. The matrix
// then has a row per case and stage (Cell.ForStage, CaseResult.RowStages),
// and a fragment run's key ends in "/fragment".
//
// Its Report (with Adapter, CaseResult, Cell, RunResult, Divergence and
// RuleSummary) is the matrix as data, the JSON document itself; package
// report renders it (text, HTML, JUnit, JSON). drivers compares runs with
// a baseline of known divergences (baseline.ReadKeys, Report.ApplyBaseline),
// keyed case/adapter/function/format[/fragment].
//
// drivers never opens adapters (the caller passes check.Device values),
// never decides semantics (interp) or attributions (check), never changes the programs it runs
// (its hazard probe instruments a copy for the interpreter only), never
// renders its results (package report) and never writes files.
package drivers
