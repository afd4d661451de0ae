package testcase

import (
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Several entry points (README "Several entry points"): a module with more
// than one entry point of the stage that runs by default (compute, else
// fragment; wgsl.DefaultRunsEntry) and no --kernel runs each in turn, one
// single-entry case per entry point, as a corpus run expects every entry
// point checked. A case file, --kernel, or one entry point is one case.

// EachEntry returns the case options exec runs in turn for path: one per
// entry point of the default stage, in module order (those outside the
// gpudiff subset too, so that each is refused where it is written), each
// o with Kernel naming it and, unless --inputs, --seed or --fill is given,
// Inputs the NAME.inputs.json beside NAME.wgsl (keyed by binding name, one
// inputs file serves every entry point). It returns nil when path names
// one case — a case file, o.Kernel set, at most one such entry point, or
// a module without entry points, a draw whose second file, --vertex or
// --fragment is given — and when path does not read or parse (Load then
// says why, as for one case). A draw's module with several fragment entry
// points runs each, each after the vertex entry point its inputs match
// (Load's rule; several: an ambiguity it reports).
func EachEntry(path string, o LoadOptions) []LoadOptions {
	each, _ := EachEntryIn(path, o)
	return each
}

// EachEntryIn is EachEntry with the module it read (nil where it returns
// nil), for a caller that asks the module more (exec: whether one entry
// point uses subgroup operations, to open lavapipe's size variants).
func EachEntryIn(path string, o LoadOptions) ([]LoadOptions, *ir.Module) {
	if o.Kernel != "" || o.Fragment != "" || o.VertexEntry != "" || o.FragmentEntry != "" {
		return nil, nil
	}
	probe := o
	probe.Warn = nil // Load notes what the module's loading says, once per case
	m, src, err := LoadModule(path, probe)
	if err != nil || IsCase(src) {
		return nil, nil
	}
	names := entryNames(m, ir.StageCompute, "@compute")
	if len(names) == 0 {
		names = entryNames(m, ir.StageFragment, "@fragment")
	}
	if len(names) < 2 {
		return nil, nil
	}
	inputs := ""
	if o.Inputs == "" && o.Seed == nil && o.Fill == "" {
		inputs = BesideInputs(path, "")
	}
	out := make([]LoadOptions, len(names))
	for i, name := range names {
		out[i] = o
		out[i].Kernel = name
		if inputs != "" {
			out[i].Inputs = inputs
		}
	}
	return out, m
}

// entryNames are m's entry points of stage st — inside the subset, and
// those outside it whose text carries attr — in source order.
func entryNames(m *ir.Module, st ir.Stage, attr string) []string {
	type named struct {
		pos  ir.Pos
		name string
	}
	var eps []named
	for _, f := range m.EntryPoints() {
		if f.Stage == st {
			eps = append(eps, named{f.Pos, f.Name})
		}
	}
	for _, o := range m.Opaque {
		if o.EntryPoint && strings.Contains(o.Text, attr) {
			eps = append(eps, named{o.Pos, o.Name})
		}
	}
	sort.SliceStable(eps, func(i, j int) bool {
		a, b := eps[i].pos, eps[j].pos
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	names := make([]string, len(eps))
	for i, e := range eps {
		names[i] = e.name
	}
	return names
}
