// Package testcase is the case model and its files, the first half of the
// single-case check (ARCHITECTURE.md "Data flow", "Kinds of case"): Case,
// one case of any kind (Kind: a function kernel, a compute entry point, a
// fragment entry point; NewKernelCase, NewComputeCase) and its kind views
// (KernelCase, ComputeCase, FragmentCase); the one case loader (Load:
// a path, an inputs file and the case flags become a Case — which kind a
// module runs, KindOf; which inputs win; how an inputs file reads); the
// made-up inputs (Fill, FillArgs, FillBindings, FillTextures); the
// textures and samplers a case gives (TextureJSON, SamplerJSON,
// CompleteTextures, the texel formats as the case model reads them:
// TexelFormat); shrinking candidates that keep a case's inputs
// (Case.WithFunction); and the case-file encoding (CaseRecord, MarshalCase,
// WriteCase — atomic —, ParseCase, ParseInputs, ParseBindings, InputsJSON,
// BindingsJSON, EntryInputsJSON).
//
// A case file's record is filled from an executed case's result by
// package check (check.NewCaseRecord); testcase knows nothing of
// execution, judging or attribution: a finding is recorded as its JSON
// form (FindingRecord).
package testcase
