package wgsl

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// EmitEntry returns a WGSL module that runs the compute entry point entry
// of m as written (ARCHITECTURE.md "Entry points as written"): the
// structs, private globals and functions of entry's call graph (entry
// itself with its @compute @workgroup_size and @builtin attributes,
// rewritten for mode like every emitted function), the helpers portable
// mode needs, and every shared variable of the module — var<workgroup>,
// and var<storage>/var<uniform> with their @group/@binding, atomics and
// runtime-sized arrays as declared — so the bindings a dispatch supplies
// are exactly the module's. No kernel ABI wrapper is added; the entry
// point keeps its name. Errors: an unknown name or a function that is
// not a compute entry point.
func EmitEntry(m *ir.Module, entry string, opts EmitOptions) (string, error) {
	f := m.Func(entry)
	if f == nil || f.Stage != ir.StageCompute {
		return "", fmt.Errorf("emit: no compute entry point %q in module", entry)
	}
	mode := opts.Mode
	if mode == "" {
		mode = Portable
	}
	if mode != Portable && mode != Raw {
		return "", fmt.Errorf("emit: unknown mode %q", mode)
	}
	e := newEmitter(m, entry, mode)
	e.omitSubgroups = opts.OmitSubgroupsEnable
	// Shared variables' types may name structs the functions do not.
	var extra []*ir.Type
	for _, v := range m.Shared {
		e.namer.Reserve(v.Name)
		extra = append(extra, v.T)
	}
	e.structs = usedStructs(m, e.funcs, e.globals, extra...)
	e.prepare()
	var b strings.Builder
	for _, v := range m.Shared {
		b.WriteString(v.Decl() + "\n")
	}
	for _, v := range m.Textures {
		e.namer.Reserve(v.Name)
		b.WriteString(v.Decl() + "\n")
	}
	// The shared declarations go after the structs they may name and
	// before the functions; WGSL allows any order of module-scope
	// declarations, so they simply follow the emitted body's structs.
	return e.directives(extra...) + b.String() + "\n" + e.body.String(), nil
}
