package wgsl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestSizeLimits: a binding is bounded by WebGPU's default limits (WebGPU
// §3.6.2 "Limits": maxStorageBufferBindingSize 134217728,
// maxUniformBufferBindingSize 65536, maxComputeWorkgroupStorageSize 16384
// bytes), a value the reference makes per invocation (function-scope and
// private variables, lets, constructed values) by gpudiff's 65536 scalar
// components, and any type by the largest binding. The sizes are derived
// by hand from WGSL's layout (#alignment-and-size): i32 is 4 bytes, so
// array<i32, 1000000> is 4000000 bytes (Tint's
// bug/chromium/1367602_storage_space.wgsl), array<i32, 16385> in uniform
// 65540, array<f32, 4097> 16388; array<i32, 33554433> is 134217732.
func TestSizeLimits(t *testing.T) {
	const entry = "@compute @workgroup_size(1)\nfn main() {\n  _ = v;\n}\n"
	run := []string{
		"@group(0) @binding(0) var<storage> v: array<i32, 1000000>;\n" + entry,
		"struct A {\n  a: array<f32, 1000000>,\n}\n@group(0) @binding(0) var<storage, read_write> v: A;\n" + entry,
		"@group(0) @binding(0) var<uniform> v: array<vec4<i32>, 4096>;\n" + entry,
		"var<workgroup> v: array<f32, 4096>;\n" + entry,
		"fn k() -> i32 {\n  var a: array<i32, 65536>;\n  return a[1];\n}\n",
	}
	for _, src := range run {
		m, err := Parse("a.wgsl", []byte(src))
		require.NoError(t, err, src)
		for _, o := range m.Opaque { // every declaration is in the subset
			assert.Contains(t, o.Reason, "kept verbatim", "%s: %s", o.Name, src)
		}
	}
	refused := []struct{ src, at, msg string }{
		{"@group(0) @binding(0) var<uniform> v: array<vec4<i32>, 4097>;\n" + entry, "1:39",
			"var<uniform> of 65552 bytes, more than WebGPU's maxUniformBufferBindingSize, 65536 bytes"},
		{"var<workgroup> v: array<f32, 4097>;\n" + entry, "1:19",
			"var<workgroup> of 16388 bytes, more than WebGPU's maxComputeWorkgroupStorageSize, 16384 bytes"},
		{"@group(0) @binding(0) var<storage> v: array<i32, 33554433>;\n" + entry, "1:39",
			"array of 33554433 elements of i32: more than 134217728 bytes, WebGPU's maxStorageBufferBindingSize"},
		{"fn k() -> i32 {\n  var a: array<i32, 65537>;\n  return a[1];\n}\n", "2:10",
			"a function-scope var of type array<i32, 65537>, 65537 scalar components: more than gpudiff's limit of 65536"},
		{"fn k(i: i32) -> i32 {\n  return array<i32, 656633>()[i];\n}\n", "2:10",
			"a constructed value of type array<i32, 656633>, 656633 scalar components"},
		{"var<private> p: array<vec4<f32>, 16385>;\nfn k() -> f32 {\n  return p[0].x;\n}\n", "1:14",
			"var<private> 'p' of type array<vec4<f32>, 16385>, 65540 scalar components"},
	}
	for _, c := range refused {
		m, err := Parse("a.wgsl", []byte(c.src))
		if err != nil {
			assert.Contains(t, err.Error(), "a.wgsl:"+c.at+": ", c.src)
			assert.Contains(t, err.Error(), c.msg, c.src)
			continue
		}
		found := false
		for _, o := range m.Opaque {
			if o.ReasonPos.String() == c.at {
				found = true
				assert.Contains(t, o.Reason, c.msg, c.src)
			}
		}
		assert.True(t, found, "refused at %s: %s", c.at, c.src)
	}
}

// TestZeroArrayElementFolds: array<T, N>()[k] with a constant k is T's zero
// value (WGSL #zero-value-builtin-function) whatever N is, so Tint's
// bug/chromium/1449538.wgsl (array<i32, 636109182>()[0], 2.5 GB if made)
// runs; with a run-time k the array is made as before (its index checked
// once: the one call of g stays one call), and refused where too large.
func TestZeroArrayElementFolds(t *testing.T) {
	m, err := Parse("a.wgsl", []byte("fn k() -> i32 {\n  return array<i32, 636109182>()[341] + array<i32, 6566335>()[1];\n}\n"))
	require.NoError(t, err)
	require.NotNil(t, m.Func("k"))
	r := m.Func("k").Body.Stmts[0].(*ir.Return)
	lit, ok := r.Value.(*ir.Lit)
	require.True(t, ok, "folded to a literal, not %T", r.Value)
	assert.Equal(t, int32(0), lit.Val.I32())

	m, err = Parse("a.wgsl", []byte("var<private> n: i32;\nfn g() -> i32 {\n  n += 1;\n  return n;\n}\nfn k() -> i32 {\n  return array<i32, 4>()[g()];\n}\n"))
	require.NoError(t, err)
	require.NotNil(t, m.Func("k"))
	assert.Equal(t, 1, strings.Count(ir.PrintFunc(m.Func("k")), "g()"), ir.PrintFunc(m.Func("k")))

	_, err = Parse("a.wgsl", []byte("fn k() -> i32 {\n  return array<i32, 4>()[4];\n}\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a.wgsl:2:26: check: index 4 is out of bounds for array<i32, 4>")

	m, err = Parse("a.wgsl", []byte("fn k(i: i32) -> i32 {\n  return array<i32, 636109182>()[i];\n}\n"))
	require.NoError(t, err)
	assert.Nil(t, m.Func("k"), "a run-time index makes the array: outside the subset")
}
