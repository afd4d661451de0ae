// Package check is the single-case check, a stage of gpudiff's data flow
// (ARCHITECTURE.md "Data flow"): it executes one case (a module, its
// kernel and per-invocation arguments) on every path — the reference
// interpreter on the original, the interpreter on the flattened twin, and
// each GPU adapter on the original and the twin as WGSL and as SPIR-V —
// judges every run against the reference (package oracle), attributes the
// disagreements (Attribute, Finding, Class; and AttributeRow, a Row being
// one case's runs on several adapters side by side, as the driver matrix
// fills it), and records a judged case in a case file's record
// (NewCaseRecord, Result.Record, Result.Replay). The case itself — its
// model, the loader, made-up inputs and the case-file encoding — is
// package check/testcase.
//
// Execute is the whole check. It is built from stages that callers who
// schedule the GPU work themselves (the campaign's pipeline) use the same
// way, so that there is one execution path:
//
//	Prepare(c, opts)            the reference, flatten, the twin's run,
//	                            the encoded inputs: an *Execution
//	x.Functions(), x.Paths()    what the GPU runs run (kernel, twin;
//	                            per stage, compute then fragment:
//	                            WGSL, SPIR-V)
//	x.Kernel(f, path)           a function's module, emitted once
//	                            (EmitKernel: the one emission path)
//	x.Dispatch(f, stage)        its dispatch (KernelDispatch)
//	x.NewRun, x.Decode, FailRun a run's identity, its decoded output bytes
//	                            or its failure verdict; Tested drops a
//	                            SPIR-V run an implementation cannot take
//	x.DeviceRuns(ctx, d)        all of one device's runs, in order
//	x.Judge(runs)               the judged Result
//
// Execute = Prepare, DeviceRuns on every device, Judge. The campaign's
// pipeline runs several prepared cases at once with the batched
// execution step (batch.go): NewBatch merges their functions into one
// shader module, RunUnit runs them on a device (the batch module first,
// then each function not covered in a module of its own) and returns
// each case's runs in DeviceRuns' order. Every kind of case goes through
// the same stages: a compute entry point as written (check/entry.go), a
// fragment entry point as written (check/fragment.go: one invocation per
// pixel of its target, its @location outputs read back from colour
// attachments).
//
// check never decides semantics itself (that is interp), never transforms
// programs (flatten, compiler/...), reaches GPUs only through the Device
// interface (harness, or isolated workers), never generates or shrinks
// programs (fuzz/gen, fuzz/shrink) and knows nothing of campaigns
// (package campaign).
package check
