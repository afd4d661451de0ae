package wgsl

import (
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrors checks invalid modules against the exact position (derived
// by hand, 1-based line and byte column) and a fragment of the message.
// Tint must reject each module too (an independent implementation of the
// same rules; naga is not consulted: it implements neither behavior
// analysis nor uniformity for functions that no entry point calls),
// except where accepts says it knowingly does not — and there it must
// accept, so a stale exception fails.
func TestErrors(t *testing.T) {
	// accepts names a validator that knowingly accepts a module.
	accepts := map[string]string{
		// Tint implements the swizzle-assignment proposal (the WGSL
		// language feature swizzle_assignment); the spec
		// (#component-reference-from-vector-memory-view) has single
		// components only.
		"assign to multi-component swizzle": ptTint,
	}
	tests := []struct {
		name, src string
		pos, msg  string
	}{
		// syntax
		{"missing semicolon", "fn f() { let x = 1 }", "1:20", "parse: expected ';' after statement, found '}'"},
		{"missing parameter name", "fn f( { }", "1:7", "parse: expected parameter name, found '{'"},
		{"unterminated block", "fn f() {", "1:9", "parse: expected '}' to end the block, found end of file"},
		{"missing operand", "fn f() -> i32 { return 1 +; }", "1:27", "parse: expected an expression, found ';'"},
		{"break if not last", "fn f() { loop { continuing { break if true; let x = 1; } } }", "1:45", "parse: 'break if' must be the last statement"},
		{"reserved word", "fn f() { let class = 1; }", "1:14", `parse: "class" is a reserved word`},
		// a vertex entry point's builtins (WGSL #builtin-values), checked
		// although the function is outside the subset
		{"vertex input position", "@vertex fn vs(@builtin(position) v: u32) -> @builtin(position) vec4<f32> { return vec4<f32>(); }", "1:24", "check: @builtin(position) is not an input of a vertex entry point"},
		{"vertex_index not u32", "@vertex fn vs(@builtin(vertex_index) v: i32) -> @builtin(position) vec4<f32> { return vec4<f32>(); }", "1:41", "check: @builtin(vertex_index) has type i32, not u32"},
		{"vertex position not vec4", "@vertex fn vs() -> @builtin(position) vec3<f32> { return vec3<f32>(); }", "1:39", "check: @builtin(position) has type vec3<f32>, not vec4<f32>"},
		// names and scopes
		{"undeclared identifier", "fn f() -> i32 { return y; }", "1:24", "check: undeclared identifier 'y'"},
		{"redeclaration in one scope", "fn f() { let a = 1; let a = 2; }", "1:25", "check: redeclaration of 'a' in the same scope"},
		{"parameter and body share a scope", "fn f(a: i32) { var a = 1; }", "1:20", "check: redeclaration of 'a'"},
		{"module-scope redeclaration", "fn f() {}\nfn f() {}", "2:4", "check: redeclaration of 'f'"},
		{"f16 needs enable", "fn f(x: f16) {}", "1:9", "check: 'f16' requires the f16 extension"},
		{"function as a value", "fn g() {} fn f() { let x = g; }", "1:28", "check: function 'g' cannot be used as a value"},
		// subgroupAdd without `enable subgroups;` is accepted with a note
		// (issue 40: naga accepts it; TestSubgroupsWithoutEnableAreNoted).
		{"naga's subgroupBarrier", "fn f() { subgroupBarrier(); }", "1:10", "check: subgroupBarrier is naga's own builtin"},
		{"unknown attribute", "@bar fn f() {}", "1:1", "check: unknown attribute @bar"},
		{"unknown enable-extension", "enable f16, foo;", "1:13", "check: unknown enable-extension 'foo'"},
		{"a function named like a type it uses is a cycle", "fn u32(x: u32) {}", "1:11", "check: cyclic dependency between module-scope declarations: u32 -> u32"},
		{"entry point called", "@compute @workgroup_size(1) fn main() {} fn f() { main(); }", "1:51", "check: entry point 'main' cannot be called"},
		// types
		{"binary operand types", "fn f(a: i32, b: f32) -> f32 { return a + b; }", "1:40", "check: operator + is not defined for i32 and f32"},
		{"return type", "fn f() -> i32 { return 1.5; }", "1:24", "check: cannot use a value of type AbstractFloat as i32 in return value"},
		{"if condition", "fn f(x: i32) { if (x) { } }", "1:19", "check: if condition must be bool, not i32"},
		{"argument count", "fn g(a: i32) {} fn f() { g(); }", "1:26", "check: function 'g' expects 1 argument(s), got 0"},
		{"unknown member", "struct S { a: i32 } fn f(s: S) -> i32 { return s.b; }", "1:50", "check: struct S has no member 'b'"},
		{"swizzle out of range", "fn f(v: vec2<f32>) -> f32 { return v.z; }", "1:38", "check: invalid swizzle 'z' for vec2<f32>"},
		{"must_use builtin", "fn f(x: f32) { abs(x); }", "1:16", "check: the result of 'abs' must be used"},
		// pointers
		{"dereference of a value", "fn f(x: f32) -> f32 { return * x; }", "1:30", "check: cannot dereference a value of type f32"},
		{"address of a value", "fn f(x: u32) -> u32 { return x << (& 31u); }", "1:36", "check: cannot take the address of a value of type u32"},
		{"address of a vector component", "fn f() { var v = vec2(1.0); let p = &v.x; }", "1:37", "check: cannot take the address of a vector component"},
		{"runtime-sized array let", "fn f() { let a: array<f32> = array<f32>(); }", "1:17", "check: a function-scope let cannot have a runtime-sized array type"},
		// assignment
		{"assign to let", "fn f() { let x = 1; x = 2; }", "1:21", "check: cannot assign to let 'x'"},
		{"assign to parameter", "fn f(p: i32) { p = 2; }", "1:16", "check: cannot assign to parameter 'p'"},
		{"assign to multi-component swizzle", "fn f() { var v = vec2(1.0); v.xy = vec2(2.0); }", "1:31", "check: cannot assign to a multi-component swizzle"},
		// behaviors and control flow
		{"missing return", "fn f(x: i32) -> i32 { if (x > 0) { return 1; } }", "1:48", "check: missing return at end of function 'f'"},
		{"loop never exits", "fn f() { loop { } }", "1:10", "check: this loop can never exit"},
		{"break outside loop", "fn f() { break; }", "1:10", "check: break statement outside of a loop or switch"},
		{"continue outside loop", "fn f(x: i32) { switch x { default { continue; } } }", "1:37", "check: continue statement outside of a loop"},
		{"break in continuing", "fn f() { loop { continuing { break; } } }", "1:30", "check: a break may not exit a continuing block"},
		{"return in continuing", "fn f() { loop { continuing { return; } } }", "1:30", "check: return is not allowed in a continuing block"},
		{"continue skips a declaration the continuing uses", `fn f() {
  var i = 0;
  loop {
    if (i == 1) { continue; }
    let step = 1;
    continuing { i += step; break if i > 4; }
  }
}`, "4:19", "check: continue skips the declaration of 'step'"},
		{"duplicate case value", "fn f(x: i32) { switch x { case 1, 1 { } default { } } }", "1:35", "check: duplicate case value 1"},
		{"switch without default", "fn f(x: i32) { switch x { case 1 { } } }", "1:16", "check: switch statement must have a default clause"},
		{"direct recursion", "fn f() { f(); }", "1:10", "check: recursion is not allowed: f -> f"},
		{"mutual recursion", "fn a() { b(); }\nfn b() { a(); }", "2:10", "check: recursion is not allowed: a -> b -> a"},
		{"cyclic consts", "const a = b;\nconst b = a;", "2:11", "check: cyclic dependency between module-scope declarations: a -> b -> a"},
		{"module var without address space", "var x: i32;", "1:1", "check: module-scope var 'x' must specify an address space"},
		// const-expressions (shader-creation errors)
		{"const division by zero", "const x = 1 / 0;", "1:13", "check: integer division by zero"},
		{"division by a const zero", "fn f(a: i32) -> i32 { return a / 0; }", "1:34", "check: integer division by zero"},
		{"i32 literal overflow", "fn f() -> i32 { return 2147483648i; }", "1:24", "check: literal 2147483648i cannot be represented as i32"},
		{"abstract int does not fit i32", "fn f() { let x = 2147483648; }", "1:18", "check: value 2147483648 cannot be represented as i32"},
		{"AbstractInt overflow", "const x = 9223372036854775807 + 1;", "1:31", "check: 9223372036854775807 + 1 overflows AbstractInt"},
		{"const index out of range", "fn f() -> i32 { let a = array(1, 2); return a[2]; }", "1:47", "check: index 2 is out of bounds for array<i32, 2>"},
		{"shift by the bit width", "fn f(a: u32) -> u32 { return a << 32u; }", "1:35", "check: shift amount 32 is not less than the bit width 32"},
		{"f32 literal overflow", "const x = 1e39f;", "1:11", "check: literal 1e39f overflows f32"},
		{"abstract float does not fit f32", "fn f() -> f32 { return 3e38 * 10.0; }", "1:29", "is outside the finite range of f32"},
		{"f32 const overflow", "const x = 3e38f * 10.0f;", "1:17", "is outside the finite range of f32"},
		{"const initializer not const", "fn f(x: i32) { const c = x; }", "1:26", "check: the initializer of const 'c' must be a const-expression"},
		{"clamp with low > high", "fn f(x: i32) -> i32 { return clamp(x, 5, 2); }", "1:30", "check: clamp: low is greater than high"},
		// #ldexp-builtin: a const e2 > bias + 1 is a shader-creation error
		{"ldexp with a const exponent above 128", "fn f(x: f32) -> f32 { return ldexp(x, 129); }", "1:30", "check: ldexp: the exponent 129 is greater than 128"},
		{"const f32 ldexp above 128", "const x = ldexp(1.0f, 129);", "1:11", "check: ldexp: the exponent 129 is greater than 128, the bias of f32 + 1"},
		{"const AbstractFloat ldexp above 1024", "const x = ldexp(1.0, 1025);", "1:11", "check: ldexp: the exponent 1025 is greater than 1024, the bias of AbstractFloat + 1"},
		{"ldexp with a u32 exponent", "fn f(x: f32) -> f32 { return ldexp(x, 2u); }", "1:30", "check: no overload of ldexp(f32, u32)"},
		{"reflect of scalars", "fn f(x: f32) -> f32 { return reflect(x, x); }", "1:30", "check: no overload of reflect(f32, f32)"},
		{"saturate of an integer", "fn f(x: i32) -> i32 { return saturate(x); }", "1:30", "check: no overload of saturate(i32)"},
		// pointers: &x is a pointer (WGSL #address-of-expr), which no
		// operator, conversion, value builtin or value parameter takes
		{"address-of operand of ==", "fn f() -> bool { var k = 1u; let up = (&k) == 0u; return up; }", "1:40",
			"check: operator == is not defined for a pointer (address-of operator '&', ptr<function, u32, read_write>)"},
		{"address-of right operand of !=", "fn f() -> bool { var k = 1u; return 0u != &k; }", "1:43",
			"check: operator != is not defined for a pointer (address-of operator '&', ptr<function, u32, read_write>)"},
		{"address-of of a private global as an operand", "var<private> g: i32;\nfn f() -> i32 { return 1 + &g; }", "2:28",
			"check: operator + is not defined for a pointer (address-of operator '&', ptr<private, i32, read_write>)"},
		{"address-of as a builtin argument", "fn f() -> u32 { var k = 1u; return max(&k, 1u); }", "1:40",
			"check: a pointer (address-of operator '&', ptr<function, u32, read_write>) cannot be used as a value here"},
		{"address-of as a constructor argument", "fn f() -> u32 { var k = 1u; return vec2(&k, 1u).x; }", "1:41",
			"check: a pointer (address-of operator '&', ptr<function, u32, read_write>) cannot be used as a value here"},
		{"address-of as a var initializer", "fn f() { var k = 1u; var q = &k; }", "1:30",
			"check: a pointer (address-of operator '&', ptr<function, u32, read_write>) cannot be used as a value here"},
		{"address-of as an if condition", "fn f() { var k = true; if (&k) { } }", "1:28",
			"check: a pointer (address-of operator '&', ptr<function, bool, read_write>) cannot be used as a value here"},
		{"address-of as a value argument", "fn g(x: u32) -> u32 { return x; }\nfn f() -> u32 { var k = 1u; return g(&k); }", "2:38",
			"check: a pointer (address-of operator '&', ptr<function, u32, read_write>) cannot be used as a value here"},
		{"pointer let as an operand", "@group(0) @binding(0) var<storage> src: array<i32>;\nfn f() -> u32 { let n = (&src); return n - 1u; }", "2:40",
			"check: operator - is not defined for a pointer (address-of operator '&', ptr<storage, array<i32>, read>)"},
		{"pointer let as a value", "fn f() -> u32 { var k = 1u; let p = &k; return p; }", "1:48",
			"check: let 'p' is a pointer (address-of operator '&', ptr<function, u32, read_write>), which cannot be used as a value here"},
		{"error after a pointer let", "fn f() -> u32 { var k = 1u; let p = &k; *p = 2.5; return k; }", "1:46",
			"check: cannot use a value of type AbstractFloat as u32 in assignment"},
		{"address of a pointer", "fn f() { var k = 1u; let p = &(&k); }", "1:30", "check: cannot take the address of a pointer"},
		// attributes (WGSL #attributes: each rule's arguments)
		{"unknown builtin value", "@compute @workgroup_size(1) fn main(@builtin(local_invocation_id4u) lid: vec3<u32>) { }", "1:46",
			"check: unknown builtin value name 'local_invocation_id4u' in attribute @builtin"},
		{"builtin value not a name", "@compute @workgroup_size(1) fn main(@builtin(4u) lid: vec3<u32>) { }", "1:46",
			"check: expected builtin value name in attribute @builtin"},
		{"builtin with two arguments", "@compute @workgroup_size(1) fn main(@builtin(local_invocation_id, 4u) lid: vec3<u32>) { }", "1:67",
			"check: too many arguments for attribute @builtin (at most 1)"},
		{"compute with arguments", "@compute(1) @workgroup_size(1) fn main() { }", "1:1", "check: attribute @compute takes no arguments"},
		{"group without arguments", "@group @binding(0) var<storage> b: array<u32>;", "1:1", "check: attribute @group needs arguments in parentheses"},
		{"duplicate attribute", "@compute @compute @workgroup_size(1) fn main() { }", "1:10", "check: duplicate attribute @compute"},
		{"negative location", "struct S { @location(-1) x: f32 }", "1:22", "check: @location needs a non-negative value, got -1"},
		{"location not const", "var<private> n: u32;\nstruct S { @location(n) x: f32 }", "2:22", "check: @location needs an integer const-expression"},
		{"align not a power of two", "struct S { @align(3) x: f32 }", "1:19", "check: @align needs a positive power of two, got 3"},
		{"unknown interpolation type", "struct S { @location(0) @interpolate(cubic) x: f32 }", "1:38",
			"check: unknown interpolation type name 'cubic' in attribute @interpolate"},
		{"workgroup_size on a variable", "@workgroup_size(1) @binding(0) var<storage, read_write> out: array<u32, 2>;", "1:1",
			"check: attribute @workgroup_size does not apply to a module-scope variable"},
		{"private runtime-sized array", "var<private> g: array<bool,>;", "1:14", "check: var<private> 'g' cannot have type"},
		{"one binding twice in an entry point", "@group(0) @binding(0) var<storage> a: array<u32>;\n" +
			"@group(0) @binding(0) var<storage, read_write> b: array<u32>;\n@compute @workgroup_size(1) fn main() { b[0] = a[0]; }", "2:48",
			"check: entry point 'main' uses 'b' and 'a' (declared at 1:36), which have the same @group(0) @binding(0)"},
		{"one builtin twice among an entry point's inputs",
			"@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) a: u32, @builtin(local_invocation_index) b: u32) { }", "1:78",
			"check: @builtin(local_invocation_index) appears more than once among the entry point's inputs"},
		{"statement attribute", "fn f() { @compute { } }", "1:10", "check: attribute @compute does not apply to a statement"},
		// uniformity
		{"barrier under a private global", "var<private> g: i32;\nfn f() { if (g > 0) { workgroupBarrier(); } }", "2:23",
			"check: workgroupBarrier must only be called from uniform control flow"},
		{"non-uniform argument to a parameter that must be uniform",
			"fn g(x: i32) { if (x > 0) { workgroupBarrier(); } }\nvar<private> p: i32;\nfn f() { g(p); }", "3:12",
			"check: argument 1 of g must be a uniform value"},
	}
	tint := ptTintCheck(t)
	var srcs []string
	for _, tc := range tests {
		srcs = append(srcs, tc.src)
	}
	verdicts := tint.check(t, srcs...)
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.wgsl", []byte(tc.src))
			require.Error(t, err)
			list, ok := err.(ir.ErrorList)
			require.True(t, ok, "error is %T", err)
			require.NotEmpty(t, list)
			assert.Equal(t, "bad.wgsl:"+tc.pos+": ", list[0].Error()[:len("bad.wgsl:"+tc.pos+": ")], "position of %q", list[0].Error())
			assert.Contains(t, list[0].Error(), tc.msg)
			if accepts[tc.name] == ptTint {
				assert.NoError(t, verdicts[i], "tint rejects this module now: drop it from accepts")
			} else {
				assert.Error(t, verdicts[i], "tint accepts this module")
			}
		})
	}
}

// TestErrorsAreSortedAndBounded checks that independent errors are all
// reported, sorted by position, and that at most maxErrors are.
func TestErrorsAreSortedAndBounded(t *testing.T) {
	var b strings.Builder
	for i := 20; i > 0; i-- {
		b.WriteString("fn f")
		b.WriteString(strings.Repeat("x", i))
		b.WriteString("() -> i32 { return undeclared; }\n")
	}
	_, err := Parse("many.wgsl", []byte(b.String()))
	require.Error(t, err)
	list := err.(ir.ErrorList)
	assert.Len(t, list, maxErrors)
	for i := 1; i < len(list); i++ {
		assert.Less(t, list[i-1].Pos.Line, list[i].Pos.Line)
	}
}

// TestValidModulesAccepted checks modules that are easy to reject by
// mistake (each valid per the spec section named); Tint and naga must
// accept them too, except for their known gaps.
func TestValidModulesAccepted(t *testing.T) {
	// gaps names known bugs or missing features of a validator.
	gaps := map[string]ptGaps{
		// naga rejects a function whose only return is inside a loop.
		"loop with return exits": {ptNaga: "The `return` value None does not match the function return value"},
		// wgpu 0.19.4's naga (0.19.2) parses no diagnostic directive,
		"diagnostic filter lowers derivative uniformity": {ptNaga: "found 'diagnostic'"},
		// evaluates the right operand of a const && whose left is false,
		"short-circuit guards evaluation (WGSL #const-expr)": {ptNaga: "cannot represent the abstract value `5000000000`"},
		// and rejects concrete i32 overflow in a const-expression, which
		// Tint (and the naga CLI 30) wrap.
		"wrapping i32 const arithmetic": {ptNaga: "addition operation overflowed"},
		// and has no pointer composite access (p.x, p[i] through a pointer).
		"pointers where WGSL takes them (WGSL #address-of-expr)": {ptNaga: "the value accessed by a `.member` expression must not be a pointer"},
	}
	tests := []struct{ name, src string }{
		{"one binding in two entry points (WGSL #resource-interface)", "@group(0) @binding(0) var<storage, read_write> a: array<u32, 4>;\n" +
			"@group(0) @binding(0) var<storage, read_write> b: array<i32, 4>;\n" +
			"@compute @workgroup_size(1) fn ea() { a[0] = 1u; }\n@compute @workgroup_size(1) fn eb() { b[0] = 1; }"},
		{"pointers where WGSL takes them (WGSL #address-of-expr)", "fn f() -> u32 { var v = vec2u(1u, 2u); let p = &v; let q = p; _ = &v; " +
			"(*q).x = 3u; return (*p).y + (&v).x + (&v)[1] + p.x + q[1]; }"},
		{"module-scope names are order independent (WGSL #declaration-and-scope)", "fn f() -> i32 { return g() + N; } fn g() -> i32 { return 1; } const N = 2;"},
		{"local shadows module scope", "const x = 1; fn f() -> i32 { let x = 2.5; return i32(x); }"},
		{"nested scope shadows", "fn f(x: i32) -> i32 { { let x = 1u; } return x; }"},
		{"user function may shadow a builtin", "fn min(a: i32) -> i32 { return a; } fn f() -> i32 { return min(3); }"},
		{"short-circuit guards evaluation (WGSL #const-expr)", "const b = false && (10i < i32(5 * 1000 * 1000 * 1000)); fn f() -> bool { return b; }"},
		{"i32 minimum via unary minus", "fn f() -> i32 { let m = -2147483648; return m; }"},
		{"wrapping i32 const arithmetic", "const w = 2147483647i + 1i; fn f() -> i32 { return w; }"},
		{"u32 from large abstract int", "fn f() -> u32 { return u32(4 * 1000 * 1000 * 1000); }"},
		{"infinite while(true) with break is fine", "fn f() { while true { break; } }"},
		{"loop with return exits", "fn f() -> i32 { loop { return 1; } }"},
		{"switch without break", "fn f(x: u32) -> u32 { switch x { case 1u: { return 2u; } default: { return 3u; } } }"},
		{"trailing commas", "struct S { a: i32, } fn f(a: i32,) -> S { return S(a,); }"},
		{"barrier in uniform control flow", "fn f() { workgroupBarrier(); }"},
		{"uniform loop counter before a barrier", "fn f() { for (var i = 0; i < 4; i++) { workgroupBarrier(); } }"},
		{"diagnostic filter lowers derivative uniformity", "diagnostic(off, derivative_uniformity);\nvar<private> g: f32;\nfn f() -> f32 { if (g > 0.0) { return dpdx(g); } return 0.0; }"},
	}
	validators := ptValidators(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("ok.wgsl", []byte(tc.src))
			require.NoError(t, err)
			for _, v := range validators {
				ptRequireAccepts(t, v, gaps[tc.name], v.check(t, tc.src)[0], tc.src)
			}
		})
	}
}
