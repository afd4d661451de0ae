// Package fuzz runs gpudiff's differential checks: it executes one case (a
// module, its kernel and per-invocation arguments) on every path — the
// reference interpreter on the original, the interpreter on the flattened
// twin, and each GPU adapter on the original and the twin as WGSL and as
// SPIR-V — judges every run against the reference (package oracle), and
// attributes disagreements. Campaigns (generate, check, shrink, save) and
// the case corpus build on it.
//
// Subpackages: gen (program generators), shrink (minimization), oracle
// (comparison and verdicts).
//
// fuzz never decides semantics itself (that is interp), never transforms
// programs (flatten, compiler/...), and reaches GPUs only through the
// Device interface (harness, or isolated workers).
package fuzz
