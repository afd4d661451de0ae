package shrink

import "github.com/gpudiff/gpudiff/ir"

// Internals the external tests check candidates against.

// Smaller reports whether a is strictly smaller than b in the shrinker's
// measure.
func Smaller(a, b Case) bool { return measureOf(a).less(measureOf(b)) }

// Unbounded counts the loops of the kernel's call graph ir.BoundLoop
// cannot bound.
func Unbounded(m *ir.Module, kernel string) int { return unbounded(m, kernel) }

// Hazards counts const-expression and indeterminacy hazards.
func Hazards(m *ir.Module, kernel string) int { return hazards(m, kernel) }
