package testcase

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// BindingBuffers lays out vals, binding values by variable name in the
// shape interp and the generators take them (an atomic as its scalar, a
// runtime-sized array with any number of elements), as buffers of m's
// storage and uniform bindings (ir.NewBuffer: the host-shareable layout,
// WGSL #memory-layouts). The error names the binding and the component
// that does not fit ("binding out: [3].pos: has type i32, want u32"),
// positioned at the binding's declaration, or a name that is no storage
// or uniform binding of m.
func BindingBuffers(m *ir.Module, vals map[string]ir.Value) (map[string]ir.Buffer, error) {
	out := make(map[string]ir.Buffer, len(vals))
	for name, v := range vals {
		g := m.SharedVar(name)
		if g == nil || g.Space == ir.SpaceWorkgroup {
			return nil, fmt.Errorf("the module has no storage or uniform binding named %q", name)
		}
		b, err := ir.NewBuffer(g.T, v)
		if err != nil {
			return nil, &ir.Error{File: m.File, Pos: g.Pos, Pass: "check", Msg: fmt.Sprintf("binding %s: %v", name, err)}
		}
		out[name] = b
	}
	return out, nil
}

// MustBindingBuffers is BindingBuffers for values made to fit their
// bindings (the generators' gen.Bindings and gen.EntryBindings, a case
// file's parsed bindings): a misfit there is gpudiff's own bug, and it
// panics.
func MustBindingBuffers(m *ir.Module, vals map[string]ir.Value) map[string]ir.Buffer {
	out, err := BindingBuffers(m, vals)
	if err != nil {
		panic(fmt.Sprintf("check: internal error: %v", err))
	}
	return out
}

// BindingValues decodes buffers into binding values (ir.Buffer.Value:
// 40 bytes per leaf, for the small cases that edit or print values:
// shrinking, case files, tests). A buffer shorter than its type's fixed
// part decodes to its type's ZeroBinding.
func BindingValues(bufs map[string]ir.Buffer) map[string]ir.Value {
	out := make(map[string]ir.Value, len(bufs))
	for name, b := range bufs {
		v, err := b.Value()
		if err != nil {
			v = ir.ZeroBinding(b.Type)
		}
		out[name] = v
	}
	return out
}
