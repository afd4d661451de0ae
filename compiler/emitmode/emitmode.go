// Package emitmode is the emission mode shared by gpudiff's two emitters,
// compiler/wgsl and compiler/spirv, and by everything that picks one (the
// campaign, case files, the CLI): one type, so a mode chosen once reaches
// both emitters without a conversion (ARCHITECTURE.md "Emission modes").
// wgsl.Mode and spirv.Mode are aliases of Mode.
//
// It owns the two modes and their spelling; it must never know how an
// emitter implements a mode (that is each emitter's documentation).
package emitmode

import "fmt"

// Mode selects how an emitter spells the operations whose WGSL meaning a
// backend compiler or driver might not honour.
type Mode string

const (
	// Portable spells out WGSL's run-time rules (guarded integer division
	// and remainder, masked shift counts, clamped float→int conversion,
	// clamped indices, …): a disagreement with the reference is a bug in
	// gpudiff, the compiler or the driver, not a spec gap.
	Portable Mode = "portable"
	// Raw emits operators as written: the stack under test must implement
	// WGSL's rules itself (conformance and vendor comparison).
	Raw Mode = "raw"
)

// Parse parses "portable" or "raw" ("" means Portable). Errors: any other
// string, as `unknown mode "x" (want portable or raw)`.
func Parse(s string) (Mode, error) {
	switch Mode(s) {
	case "", Portable:
		return Portable, nil
	case Raw:
		return Raw, nil
	}
	return "", fmt.Errorf("unknown mode %q (want portable or raw)", s)
}
