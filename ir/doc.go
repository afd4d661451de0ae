// Package ir is gpudiff's intermediate representation of WGSL-subset shader
// programs: types, typed values, expressions, structured statements,
// functions and modules, with source positions on every node.
//
// The IR is a structured control-flow tree in the style of Mesa's NIR and
// Tint's IR (see ../shared/reference): a function body is a Block; control
// flow is If (always with an Else block, possibly empty), one Loop form (body,
// continuing block, optional break-if — WGSL for and while lower to it),
// Switch (no fall-through) and the jumps Break, Continue and Return.
//
// Invariants, established once by Normalize and checked by Verify:
//
//   - names are unique within a function (shadowed names are renamed) and
//     distinct from every module-scope name, so passes may key on names;
//   - no statement follows a jump in the same block;
//   - && and || whose right operand contains a user call are lowered to If,
//     so no pass meets hidden control flow inside an expression;
//   - every expression carries its concrete type (no abstract types).
//
// The package also owns what every pass shares: the operator and builtin
// tables and their typing rules, the canonical printer (whose output is WGSL
// and whose hash identifies a program), the traversal helpers, loop trip-count
// analysis and the host-shareable memory layout of the kernel ABI.
//
// ir depends on nothing else in gpudiff and must never: evaluate programs
// (that is interp), emit target code other than its canonical text (that is
// compiler/...), or touch a GPU.
package ir
