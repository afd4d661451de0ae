package shrink

import "github.com/gpudiff/gpudiff/ir"

// Internals the external tests check candidates against.

// Smaller reports whether a is strictly smaller than b in the shrinker's
// measure.
func Smaller(a, b Case) bool { return measureOf(a).less(measureOf(b)) }

// Unbounded counts the loops of the roots' call graph ir.BoundLoop
// cannot bound.
func Unbounded(m *ir.Module, roots ...string) int { return unbounded(m, roots...) }

// Hazards counts const-expression and indeterminacy hazards.
func Hazards(m *ir.Module, roots ...string) int { return hazards(m, roots...) }

// Roots returns the entry points c's candidates keep: Kernel, then a
// draw's vertex entry points.
func Roots(c Case) []string { return c.roots() }
