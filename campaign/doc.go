// Package campaign runs gpudiff's campaigns: it generates programs
// (fuzz/gen), checks each with check's stages, shrinks every new failure
// (fuzz/shrink), saves it as a case file into a corpus, de-duplicates
// failures by signature (Signature, Form, Bugs), tells known ones from new
// ones with a baseline (package baseline), and journals every program so
// an interrupted campaign resumes exactly (Journal). A campaign is
// described by one Spec (spec.go: validated, serialized as its journal's
// header, resumed from one); Open, Run.Execute and Close run it, and
// RunCampaign is the run itself; Summary and ProgramRecord are what it
// reports. A campaign
// split over machines (Config.Shard) is put back together from its shards'
// journals by MergeJournals (merge.go): the records, summary and case files
// one machine running the whole campaign has.
//
// Programs go through a pipeline (pipeline.go) whose stages are check's:
// check.Prepare on the CPU, the dispatches of Execution.Kernel and
// Execution.Dispatch on each device, check.Execution.Judge in the
// collector — so a campaign's verdicts are Execute's.
//
// Batching several programs into one shader module is check's batched
// execution step (check.NewBatch, check.RunUnit: check/batch.go, the
// renaming of the programs' declarations in ir/rename.go); the campaign
// decides, with a per-device tuner, whether it pays. A batched run counts
// only when it agrees with the reference: a program with a finding that
// rests on a batched run is executed again unbatched (check.Execute), so
// records and case files are those of the unbatched path.
//
// campaign never decides semantics (interp), never transforms programs
// (flatten, compiler/...), never judges or attributes a run itself (check,
// oracle), and reaches GPUs only through check.Device values it is given.
package campaign
