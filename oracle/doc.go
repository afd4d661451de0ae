// Package oracle decides whether observed outputs agree with the
// reference, and what a disagreement implicates (ARCHITECTURE.md "The oracle and
// its verdicts").
//
// The reference is the interpreter's run of the original kernel. Each
// output leaf (scalar component) of each invocation is compared: integers
// and booleans exactly; f32 bit-exactly where the reference's tolerance is
// zero (WGSL requires correct rounding or exact results there), otherwise
// within the absolute error bound the interpreter derived from WGSL's
// accuracy rules (WGSL #concrete-float-accuracy); subnormal values compare
// equal to zero of either sign (WGSL #differences-from-ieee754 allows
// flushing), and +0 equals -0. A leaf the reference marks indeterminate
// (overflow, Inf/NaN, out-of-bounds reads, accuracy outside the specified
// input range) is reported as indeterminate and counts neither as a pass
// nor as a failure.
//
// oracle never runs programs, never touches a GPU and never writes files.
package oracle
