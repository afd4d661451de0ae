package interp

import "github.com/gpudiff/gpudiff/ir"

// CompileGeneral compiles name as a countOps compilation does: every
// operation its general kernel, no fast path and nothing fused (fuse.go).
// The external tests run generated programs both ways.
func CompileGeneral(m *ir.Module, name string) (*Program, error) {
	return compile(m, name, compileOpts{countOps: true})
}
