// Package spirv compiles a kernel of the ir — a function under the kernel
// ABI, or a compute, vertex or fragment entry point as written — into a
// SPIR-V 1.3 binary module for the Vulkan 1.1 environment (Emit) and
// disassembles SPIR-V binaries into spirv-dis-style text (Disassemble).
//
// It owns, and never delegates to another compiler:
//
//   - a module builder (builder.go): result ids, the module
//     sections in SPIR-V §2.4 "Logical Layout" order, deduplicated types
//     and constants, decorations and debug names;
//   - the instruction, operand-kind and enumerant tables (tables.go),
//     generated from the SPIR-V grammar JSON of spirv-headers by
//     internal/gentables (`go generate ./compiler/spirv`; the output is
//     committed, so building and testing never need the grammar);
//   - the lowering of ir to SPIR-V (emit.go types, constants, globals;
//     func.go statements and structured control flow; expr.go and
//     builtin.go expressions; entry.go the kernel ABI entry point;
//     shared.go and layout.go compute entry points as written, with
//     their bindings, workgroup memory, barriers and atomics; render.go
//     vertex and fragment entry points as written — their Input and
//     Output variables, interpolation decorations, bindings and discard
//     (OpDemoteToHelperInvocation, or Options.Discard's OpKill variant);
//     entry.go also the kernel ABI's Fragment entry point,
//     Options.Fragment);
//   - the disassembler (disasm.go), driven by the same tables.
//
// Lowering in brief. Functions take their parameters by value; lets are
// SSA values; vars live in Function OpVariables declared at the top of the
// first block and are stored at their declaration each time it executes;
// private globals are Private OpVariables (per invocation, like WGSL
// var<private>). Control flow is structured (SPIR-V §2.11): if is a
// selection construct, a loop is a header holding OpLoopMerge, the body,
// the continuing block as continue construct (break-if is the back edge's
// OpBranchConditional) and a merge block, switch is OpSwitch with one
// block per clause; break and continue branch to the innermost merge
// block and continue target. Code that no path reaches after a construct
// is not emitted; a merge block nothing branches to is a dead end.
// Select on arrays and structs, which OpSelect cannot take before SPIR-V
// 1.4, is decomposed into leaves.
//
// An entry point as written keeps its own interface: builtins are Input
// variables loaded at the top of the entry function (a render stage's
// inputs and outputs, one variable per IO leaf, are loaded and stored by
// a wrapper around the entry point, render.go); storage and
// uniform bindings are Block structs in StorageBuffer/Uniform (values
// cross them through their host-shareable mirrors, fromHost/toHost, as
// the kernel ABI's buffers do); var<workgroup> is a Workgroup variable,
// zeroed explicitly (Vulkan 1.1 has no Workgroup initializers): a small
// one by invocation 0, a large one by the workgroup's invocations
// together, unit by unit (zeroWorkgroup).
//
// Extensions. f16 (`enable f16;`) is OpTypeFloat 16 with Float16 and,
// where f16 sits in a buffer or stage IO, the 16-bit storage
// capabilities (f16.go); the subgroup and quad builtins are SPIR-V 1.3's
// GroupNonUniform instructions at Subgroup scope, each capability
// declared only where used, and subgroup_invocation_id and subgroup_size
// BuiltIn Input variables (subgroup.go). wgpu 0.19.4 reads neither
// (NagaGap, NagaGapError).
//
// Modes (ARCHITECTURE.md "Emission modes"): Portable spells out WGSL's run-time
// rules where SPIR-V differs (see binary, convert, builtin and index for
// each rule and its spec section); Raw emits the plain instructions, so the
// stack under test owns those rules.
//
// Stack quirks Emit avoids are listed in workarounds (emit.go), each with
// a test that shows the quirk on the adapter so the workaround can go once
// the stack is fixed.
//
// The package must never: evaluate programs (that is interp), shell out to
// other compilers or assemblers to produce SPIR-V, touch a GPU outside its
// tests, or change the ir it is given.
package spirv
