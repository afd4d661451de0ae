// Package ir is gpudiff's intermediate representation of WGSL-subset shader
// programs: types, typed values, expressions, structured statements,
// functions and modules, with source positions on every node.
//
// The IR is a structured control-flow tree in the style of Mesa's NIR and
// Tint's IR (the NIR and Tint IR documentation): a function body is a Block; control
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
// Pointer parameters (WGSL #ref-ptr-types, #function-calls): a parameter
// ptr<AS, T[, A]> is a Param with Ptr (and, for storage, PtrAccess) set
// and T the pointee type. The body never holds the pointer as a value:
// an Ident with Ref RefPtr names the memory view *p (a reference of type
// T, printed (*p)), so p.f, (*p)[i] and *p = v are the ordinary Member,
// Index and Assign over it. The argument is an AddrOf (&R, R a reference
// chain into a function var, a private global, a shared variable or
// another pointer parameter), which appears nowhere else.
//
// In the function and private spaces the reference and flatten pass the
// view by copy-in/copy-out, its index operands evaluated at the call,
// which the front end's alias analysis (WGSL #alias-analysis) makes
// indistinguishable from passing the view. In the workgroup, storage and
// uniform spaces (the unrestricted_pointer_parameters language
// extension) memory is shared between invocations, so a copy would be
// an access the source does not make: DirectVariableAccess rewrites
// such parameters into their index operands and direct accesses of the
// variable, and the reference, flatten and both emitters work on its
// result (naga 0.19.2, in the linked wgpu 0.19.4, has no such parameters either). A
// kernel never takes a pointer.
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
