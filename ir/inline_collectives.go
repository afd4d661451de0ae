package ir

// InlineCollectives is InlineBarriers for a reference that runs subgroup
// operations, as well as barriers, only in the entry point's own body
// (interp's subgroups: a subgroup builtin's dynamic instance is keyed by
// its call site and the iteration counts of the loops around it, which
// needs every call on the way inlined): every call of a function that
// calls a barrier builtin or a subgroup or quad builtin (ClassSubgroup),
// directly or through other calls, is inlined, with InlineBarriers'
// rules (evaluation order kept, returns through a one-iteration loop,
// workgroupUniformLoad as a let's whole initializer).
//
// m is returned unchanged when the entry point needs none of it; else a
// copy whose entry point is replaced (its other functions are shared).
func InlineCollectives(m *Module, entry string) *Module {
	return inlineCallers(m, entry, ClassBarrier, ClassSubgroup)
}
