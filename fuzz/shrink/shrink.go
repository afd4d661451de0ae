// Package shrink minimizes failing cases (skeleton: the edits land next).
package shrink

import "github.com/gpudiff/gpudiff/ir"

// Case is a module, its kernel and the kernel's arguments per invocation
// (Args[invocation][param]).
type Case struct {
	Module *ir.Module
	Kernel string
	Args   [][]ir.Value
}

// Stream returns c's one-step smaller variants one at a time (none yet).
func Stream(c Case) func() (Case, bool) { return func() (Case, bool) { return Case{}, false } }
