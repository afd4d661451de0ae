package wgsl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPointerParameterAliasingRefused checks the alias analysis (WGSL
// #alias-analysis) on calls with pointer arguments: each module is
// refused at the argument Tint names (line:col derived by hand, Tint
// must reject it too), and the valid twins of each (both parameters
// only read; the global only read) are accepted by both.
func TestPointerParameterAliasingRefused(t *testing.T) {
	tint := ptTintCheck(t)
	cases := []struct {
		name, src, at, msg string
	}{
		{"two pointers to one var, one written",
			"fn f1(p1: ptr<function, i32>, p2: ptr<function, i32>) {\n  *p1 = *p2;\n}\nfn k() -> i32 {\n  var a: i32 = 0;\n  f1(&a, &a);\n  return a;\n}\n",
			"6:10", "arguments 1 and 2 of f1 both point into 'a'"},
		{"written by a callee's callee",
			"fn f1(p1: ptr<function, i32>, p2: ptr<function, i32>) {\n  *p1 = *p2;\n}\nfn f2(p1: ptr<function, i32>, p2: ptr<function, i32>) {\n  f1(p1, p2);\n}\nfn k() -> i32 {\n  var a: i32 = 0;\n  f2(&a, &a);\n  return a;\n}\n",
			"9:10", "arguments 1 and 2 of f2 both point into 'a'"},
		{"pointer to a global the callee writes",
			"var<private> x: i32 = 0;\nfn f6(p: ptr<private, i32>) {\n  x = *p;\n}\nfn k() -> i32 {\n  f6(&x);\n  return x;\n}\n",
			"6:6", "points into module-scope variable 'x'"},
		{"written pointer to a global the callee reads",
			"var<private> x: i32 = 0;\nfn g(p: ptr<private, i32>) -> i32 {\n  *p = 1;\n  return x;\n}\nfn k() -> i32 {\n  return g(&x);\n}\n",
			"7:12", "points into module-scope variable 'x'"},
		{"elements of one array, one written",
			"fn f(p: ptr<function, i32>, q: ptr<function, i32>) {\n  *p = *q;\n}\nfn k() -> i32 {\n  var a = array<i32, 2>(1, 2);\n  f(&a[0], &a[1]);\n  return a[0];\n}\n",
			"6:12", "arguments 1 and 2 of f both point into 'a'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("a.wgsl", []byte(c.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "a.wgsl:"+c.at+": check: invalid aliased pointer argument")
			assert.Contains(t, err.Error(), c.msg)
			errs := tint.check(t, c.src)
			require.Error(t, errs[0], "Tint accepts")
			assert.Contains(t, errs[0].Error(), c.at[:strings.Index(c.at, ":")]+":"+c.at[strings.Index(c.at, ":")+1:])
		})
	}
	valid := []string{
		"fn f4(p1: ptr<function, i32>, p2: ptr<function, i32>) -> i32 {\n  return *p1 + *p2;\n}\nfn k() -> i32 {\n  var a: i32 = 1;\n  return f4(&a, &a);\n}\n",
		"var<private> x: i32 = 2;\nfn f7(p: ptr<private, i32>) -> i32 {\n  return x + *p;\n}\nfn k() -> i32 {\n  return f7(&x);\n}\n",
	}
	for _, src := range valid {
		_, err := Parse("v.wgsl", []byte(src))
		assert.NoError(t, err, src)
		assert.NoError(t, tint.check(t, src)[0], src)
	}
}

// TestPointerParameterRefusals checks the positioned refusals around
// pointer parameters: a store through a read-only storage
// pointer, a read-only argument for a read_write parameter, a uniform
// pointer to an atomic, a pointer where a value is expected, a value where a pointer is
// expected, a mismatched store type and an access mode on a function
// pointer are errors (Tint rejects them too).
func TestPointerParameterRefusals(t *testing.T) {
	tint := ptTintCheck(t)
	cases := []struct {
		src, want string
		invalid   bool
	}{
		{"@group(0) @binding(0) var<storage, read> s: array<i32, 4>;\nfn f(p: ptr<storage, array<i32, 4>>) {\n  (*p)[1] = 1;\n}\n@compute @workgroup_size(1)\nfn main() {\n  f(&s);\n}\n",
			"a.wgsl:3:4: check: cannot assign to the memory pointer parameter 'p' (ptr<storage, array<i32, 4>, read>) points to: its access mode is read", true},
		{"@group(0) @binding(0) var<storage, read> s: array<i32, 4>;\nfn f(p: ptr<storage, array<i32, 4>, read_write>) {\n  (*p)[1] = 1;\n}\n@compute @workgroup_size(1)\nfn main() {\n  f(&s);\n}\n",
			"a.wgsl:7:5: check: argument 1 of f is a pointer (address-of operator '&', ptr<storage, array<i32, 4>, read>), which does not match the parameter's ptr<storage, array<i32, 4>, read_write>", true},
		{"var<workgroup> w: u32;\nfn f(p: ptr<workgroup, u32>, q: ptr<workgroup, u32>) {\n  *p = *q + 1u;\n}\n@compute @workgroup_size(1)\nfn main() {\n  f(&w, &w);\n}\n",
			"a.wgsl:7:9: check: invalid aliased pointer argument: arguments 1 and 2 of f both point into 'w'", true},
		{"@group(0) @binding(0) var<storage, read_write> o: array<u32, 2>;\nfn f(p: ptr<storage, u32, read_write>) {\n  *p = o[1] + 1u;\n}\n@compute @workgroup_size(1)\nfn main() {\n  f(&o[1]);\n}\n",
			"a.wgsl:7:5: check: invalid aliased pointer argument: argument 1 of f points into module-scope variable 'o', which f also accesses", true},
		{"fn f() -> i32 {\n  var a: array<i32, 4>;\n  let p: ptr<function, array<u32, 4>> = &a;\n  return 0;\n}\n",
			"a.wgsl:3:10: check: let 'p' is declared with a pointer type that differs from its initializer", true},
		{"var<workgroup> w: atomic<u32>;\nfn f(p: ptr<uniform, atomic<u32>>) {\n}\n@compute @workgroup_size(1)\nfn main() {\n}\n",
			"a.wgsl:2:22: check: ptr<uniform, atomic<u32>>: the store type of a uniform pointer must be constructible and host-shareable", true},
		{"fn f(p: ptr<function, i32>) -> i32 {\n  return *p;\n}\nfn k(x: i32) -> i32 {\n  return f(x);\n}\n",
			"a.wgsl:5:12: check: argument 1 of f must be a pointer ptr<function, i32, read_write>", true},
		{"fn f(p: ptr<function, i32>) -> i32 {\n  return *p;\n}\nfn k() -> i32 {\n  var x: u32;\n  return f(&x);\n}\n",
			"a.wgsl:6:12: check: argument 1 of f is a pointer (address-of operator '&', ptr<function, u32, read_write>), which does not match", true},
		{"fn f(p: ptr<function, i32, read_write>) -> i32 {\n  return *p;\n}\n",
			"a.wgsl:1:28: check: only pointers in the storage address space may specify an access mode", true},
		{"fn f(p: ptr<function, i32>) -> i32 {\n  return p + 1;\n}\n",
			"a.wgsl:2:10: check: operator + is not defined for", true},
	}
	for _, c := range cases {
		m, err := Parse("a.wgsl", []byte(c.src))
		if !c.invalid {
			require.NoError(t, err, c.src)
			o := m.OpaqueDecl("f")
			require.NotNil(t, o, "f is not outside the subset")
			assert.Equal(t, c.want, "a.wgsl:"+o.ReasonPos.String()+": outside the subset: "+o.Reason)
			assert.NoError(t, tint.check(t, c.src)[0], "Tint rejects %q", c.src)
			continue
		}
		require.Error(t, err, c.src)
		assert.Contains(t, err.Error(), c.want, c.src)
		assert.Error(t, tint.check(t, c.src)[0], "Tint accepts %q", c.src)
	}
}

// TestUniformLoadThroughPointerParameter: workgroupUniformLoad(p) of a
// ptr<workgroup, T> parameter (Tint's builtins/workgroupUniformLoad/
// via_param.wgsl) is in the subset where the pointer the caller passes is
// uniform, directly or through a parameter given a uniform value, and,
// as Tint rejects it (WGSL #uniformity: the pointer parameter is
// ParameterRequiredToBeUniform), an error at the argument where it is
// formed from an invocation id (line:col derived by hand, the caller's
// argument).
func TestUniformLoadThroughPointerParameter(t *testing.T) {
	tint := ptTintCheck(t)
	const head = "var<workgroup> v: array<i32, 4>;\nfn foo(p: ptr<workgroup, i32>) -> i32 {\n  return workgroupUniformLoad(p);\n}\n"
	valid := []string{
		head + "fn bar(k: u32) -> i32 {\n  return foo(&v[k]);\n}\n@compute @workgroup_size(4)\nfn main() {\n  _ = bar(2u) + foo(&(v[0]));\n}\n",
		"var<workgroup> a: atomic<u32>;\nfn foo(p: ptr<workgroup, atomic<u32>>) -> u32 {\n  return workgroupUniformLoad(p);\n}\n@compute @workgroup_size(4)\nfn main() {\n  _ = foo(&a);\n}\n",
	}
	for _, src := range valid {
		m, err := Parse("v.wgsl", []byte(src))
		require.NoError(t, err, src)
		assert.NotNil(t, m.Func("main"), "main is in the subset")
		assert.NoError(t, tint.check(t, src)[0], src)
	}
	invalid := []struct{ src, at string }{
		{head + "@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) i: u32) {\n  _ = foo(&v[i]);\n}\n", "7:11"},
		{head + "fn bar(k: u32) -> i32 {\n  return foo(&v[k]);\n}\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) i: u32) {\n  _ = bar(i);\n}\n", "10:11"},
	}
	for _, c := range invalid {
		_, err := Parse("a.wgsl", []byte(c.src))
		require.Error(t, err, c.src)
		assert.Contains(t, err.Error(), "a.wgsl:"+c.at+": check: argument 1 of ")
		assert.Contains(t, err.Error(), "must be a uniform value")
		assert.Error(t, tint.check(t, c.src)[0], "Tint accepts %q", c.src)
	}
}
