// Package wgsl is gpudiff's WGSL front end and back end: Parse turns WGSL
// source into an ir.Module, Kernel picks the function under test, and
// Emit (the emitter, emit*.go) turns IR back into WGSL with the kernel
// entry-point wrapper.
//
// # Front end
//
// Parse accepts the whole WGSL grammar (current gpuweb main; WGSL
// #grammar): directives, every declaration, statement and expression,
// attributes, template lists (found with the spec's template list
// discovery algorithm, WGSL #template-lists-sec), every literal form,
// nested block comments, f16, matrices, atomics, pointers, textures,
// samplers and runtime-sized arrays. It then checks WGSL's static rules and
// lowers what is inside the gpudiff subset to IR:
//
//   - module-scope struct whose members have subset types and no
//     attributes; private var whose initializer is a const-expression;
//     const (evaluated; its uses become ir.Lit); alias (resolved);
//   - fn without attributes whose parameter and result types are bool,
//     i32, u32, f32, f16 (behind `enable f16;`, WGSL #extension-f16: its
//     aliases vecNh and matCxRh, h literals, conversions, matrices,
//     bitcasts to and from f16 vectors, const-expressions rounded to
//     binary16, const_f16.go), vecN of those, matrices of f32 or f16,
//     fixed-size arrays and subset structs,
//     whose body uses only subset statements (let, var, const, assignment,
//     compound assignment, ++ and --, if, switch, loop, for, while, break,
//     break if, continue, return, blocks, calls, phony assignment) and
//     expressions, and which calls only subset functions and the builtins
//     of ir.Builtins (derivative, barrier and subgroup builtins included,
//     so that later passes can refuse them precisely; the subgroup and
//     quad builtins are checked against WGSL's overloads in
//     check_subgroup.go);
//   - @builtin(subgroup_invocation_id) and @builtin(subgroup_size) on
//     compute entry points (outside the subset on fragment ones).
//     `enable subgroups;` is not required: a module without it is
//     accepted, as naga accepts it, and Notes says WGSL requires it;
//     naga's own subgroupBarrier() is an error naming it as naga's;
//   - pointer parameters ptr<function, T> and ptr<private, T> (T a subset
//     value type) and, in compute modules, ptr<workgroup, T>,
//     ptr<storage, T, read|read_write> and ptr<uniform, T> (the
//     unrestricted_pointer_parameters language extension; T may hold
//     atomics or a runtime-sized array where the space allows), used as
//     *p, (*p).f, p.f, (*p)[i], p[i], atomic*(p), arrayLength(p) and
//     passed on, called with &x, &x.f, &a[i] (ir.AddrOf); a store through
//     a read-only pointer and an argument whose space, store type or
//     access mode differs from the parameter's are errors; calls are
//     checked by the alias analysis (WGSL #alias-analysis, alias.go) and
//     refused at the aliasing argument, as Tint does;
//   - a let of a pointer (typed or not) whose view is stable — its index
//     operands are lets, parameters, constants and pure builtins of them
//     — as a name for that view, substituted at each use (the location is
//     the one formed at the let, WGSL #let-decls); *&x in place. A let of
//     a pointer whose indices read a var or call a function is outside;
//     workgroupUniformLoad through a ptr<workgroup, T> parameter is in
//     (ir.DirectVariableAccess; its pointer must be uniform, #uniformity).
//   - @fragment entry points (check_fragment.go) taking
//     @builtin(position), returning a @location value or a struct whose
//     members carry @location (ir.Func.ResultLocation,
//     ir.Field.Location); FragmentEntry picks one and refuses, positioned,
//     what gpudiff cannot run of it (fragment.go), EmitFragment emits it
//     as written. A fragment input @location, @builtin outputs,
//     @interpolate, @invariant and @blend_src are outside the subset.
//
// Everything else is kept as an ir.Opaque with its exact source text, the
// reason it is outside the subset and the position of the first construct
// outside it; a function calling an opaque function is opaque too. Module
// const, alias and const_assert declarations are also kept verbatim, so
// that opaque code that uses them still prints.
//
// Const-expressions are evaluated at parse time (WGSL #const-expr):
// abstract values in int64/float64, concrete ones in their own type, and
// every const-expression in subset code becomes one ir.Lit of its
// concretized type (WGSL #concretization). Shader-creation errors of
// const-expressions (division by zero, overflow, out-of-range index, shift
// by the bit width or more, non-finite float results) are reported.
//
// Checking covers names and scopes, types and overloads, assignment
// targets, return types, statement behaviors (missing return, loops that
// can never exit; WGSL #behaviors), break/continue placement, switch
// rules, cycles among declarations (including recursion) and a subset of
// the uniformity analysis (see check_uniformity.go for exactly what).
// Opaque declarations are only parsed and name-resolved.
//
// The printed form of a parsed module round-trips: for every module M
// Parse returns, ir.Print(Parse(ir.Print(M))) == ir.Print(M).
//
// Limits and deviations, all deliberate:
//
//   - Identifiers use Go's Unicode categories for XID_Start and
//     XID_Continue (letters, letter numbers, Other_ID_Start; plus marks,
//     decimal digits, connector punctuation, Other_ID_Continue).
//   - Expressions and statements nest at most 1000 levels (parentheses,
//     unary operators, calls, indices, members, blocks); a
//     left-associative chain of one precedence level (a + b - c + …,
//     a * b * …, a & b & …, a && b && …) is parsed in a loop and nests no
//     level, but one outermost expression has at most 100,000 operators
//     in its chains (each is a level of the tree later passes recurse
//     over); a value the reference makes per invocation (a
//     function-scope or private variable, a let, a parameter, a result, a
//     constructed value) has at most 65536 scalar components; a var<storage>, var<uniform> or
//     var<workgroup> at most WebGPU's default limit for it (WebGPU §3.6.2
//     "Limits": 134217728, 65536 and 16384 bytes); larger ones are
//     outside the subset.
//   - An f32 remainder folds to the exact remainder (the interpreter's
//     reference value); Tint folds the spec's formula x - y * trunc(x / y)
//     with f32 roundings. Both are within WGSL's accuracy.
//   - Where Tint departs from the spec, the spec wins: an empty statement
//     after `break if`, and assignment to a multi-component swizzle, are
//     errors.
//   - f16 is outside the subset in render stage IO (32-bit IO values
//     only), in modf and frexp (the IR has no __modf_result_f16) and in a
//     run-time bitcast that changes the component count (vec2<f16> ↔
//     u32: the IR's bitcast keeps it; a const-expression one folds).
//   - Unknown attributes and enable-extensions are errors (Tint's
//     experimental chromium_* extensions are accepted); requires names are
//     not checked.
//
// The front end must never panic on any input (an internal failure
// becomes an "internal error" diagnostic), never evaluate a program at
// run time (that is interp), and never touch a GPU.
package wgsl
