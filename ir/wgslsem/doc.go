// Package wgslsem is the one definition in gpudiff of what WGSL's scalar
// integer operators and integer/bit builtins compute, of float→integer
// conversion, and of the few f32 builtins whose value every evaluator
// agrees on. Three stages evaluate WGSL and all three call it:
//
//   - interp, the reference interpreter (run-time semantics, per lane);
//   - flatten's constant folding (consteval.go), which replaces an
//     expression by a literal only when the value is what every
//     conforming implementation computes;
//   - compiler/wgsl's constant evaluation of const-expressions
//     (const_eval.go), which must reject what WGSL makes a
//     shader-creation error.
//
// Each keeps only its own policy around the shared value: interp marks
// NaN and f32 overflow indeterminate; flatten folds only when the result
// is exact and leaves a would-be shader-creation error unfolded; the front
// end turns a Fault into a positioned error message. The value itself,
// and the rule that decides whether a const-expression is a
// shader-creation error (Fault), are here and nowhere else.
//
// # Why under ir
//
// ir depends on nothing else in gpudiff, and interp, flatten and
// compiler/wgsl all depend on ir already, so a package beside it adds no
// edge to the import graph and cannot create a cycle. It is not in ir
// itself because ir must never evaluate programs (ir/doc.go); this
// package evaluates nothing either: it computes one operation on Go
// scalars and knows no node, value or type of the IR.
//
// # Representation
//
// WGSL i32 is Go int32, u32 is uint32, AbstractInt is int64 (only the
// front end has it). Go's fixed-width + - * and << >> are WGSL's: they
// wrap modulo 2^32 (WGSL §6.2.3 Integer Types, #integer-types: "that is
// modulo 2^bitwidth") and >> is arithmetic on int32, logical on uint32.
// The generic functions (Add, Shl, CountOneBits, …) are instantiated with
// int32 or uint32; callers that keep both types in the bits of a uint32
// (interp's slots, ir.Value.Bits) may call the uint32 instantiation for
// operations that do not depend on the sign (add, shl, countOneBits,
// insertBits, …) and convert to int32 for those that do (division,
// min, firstLeadingBit, extractBits, …).
//
// # What it implements (section numbers of the WGSL draft,
// https://www.w3.org/TR/WGSL/; anchors are stable, numbers may move)
//
//	WGSL §6.2.3 Integer Types (#integer-types)        Add, Sub, Mul wrap
//	WGSL §8.7 Arithmetic Expressions (#arithmetic-expr) Neg, DivI32, RemI32, DivU32, RemU32, DivFaultI32, DivFaultU32
//	WGSL §8.9 Bit Expressions (#bit-expr)             Shl, Shr, ShiftFault, ShlFaultI32, ShlFaultU32
//	WGSL §15.7.6 Floating Point Conversion
//	  (#floating-point-conversion)                    F32ToI32, F32ToU32
//	WGSL §17.5 Numeric Built-in Functions (#numeric-builtin-functions):
//	  §17.5.1 abs (#abs-float-builtin)                Abs
//	  §17.5.10 clamp (#clamp)                         Clamp, ClampFault
//	  §17.5.14 countOneBits (#countOneBits-builtin)   CountOneBits
//	  §17.5.20 dot (#dot-builtin), integer operands   Dot
//	  §17.5.25 extractBits (signed)                   ExtractBitsI32, BitRangeFault
//	  §17.5.26 extractBits (unsigned)                 ExtractBitsU32, BitRangeFault
//	  §17.5.28 firstLeadingBit (signed)               FirstLeadingBitI32
//	  §17.5.29 firstLeadingBit (unsigned)             FirstLeadingBitU32
//	  §17.5.30 firstTrailingBit                       FirstTrailingBit
//	  §17.5.35 insertBits (#insertBits-builtin)       InsertBits, BitRangeFault
//	  ldexp (#ldexp-builtin)                          LdexpFault, F32Bias
//	  §17.5.41 max, §17.5.42 min (integer operands)   Max, Min
//	  §17.5.51 reverseBits (#reverseBits-builtin)     ReverseBits
//	  §17.5.52 round (#round-builtin)                 Round
//	  §17.5.54 sign (#sign-builtin), integer operands Sign
//	  §17.5.59 step (#step-builtin)                   Step
//
// countLeadingZeros and countTrailingZeros (§17.5.13, §17.5.15) are not
// in gpudiff's IR subset, so they are not here.
//
// # What it must never do
//
// It must never import anything from gpudiff, know about IR nodes, types
// or values, decide policy (whether a result is indeterminate, whether to
// fold, how to word an error), or model f32 rounding freedom: interp's
// f32 arithmetic carries error bounds, flatten folds f32 only when exact,
// and the front end rounds float64 results, so the f32 operators and the
// approximated builtins (sqrt, exp, sin, …) stay with their evaluators.
// Only the f32 builtins whose value is exact and identical in all three
// (round, step) and the float→integer conversion are defined here.
package wgslsem
