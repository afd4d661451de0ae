package wgsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUniformity checks the uniformity analysis (WGSL #uniformity) on
// functions of the subset: each module is valid or invalid by the spec's
// rules, and Tint must agree.
func TestUniformity(t *testing.T) {
	const g = "var<private> g: i32;\nvar<private> gf: f32;\n"
	tests := []uniformityCase{
		{"control flow is uniform again after an if with behavior {Next}",
			"fn f() { var x = 0; if (g > 0) { x = 1; } workgroupBarrier(); }", ""},
		{"an early return under a non-uniform condition",
			"fn f() { if (g > 0) { return; } workgroupBarrier(); }", "workgroupBarrier must only be called from uniform control flow"},
		{"a variable assigned under non-uniform control flow",
			"fn f() { var x = 0; if (g > 0) { x = 1; } if (x > 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"a full assignment makes a variable uniform again",
			"fn f() { var x = g; x = 1; if (x > 0) { workgroupBarrier(); } }", ""},
		{"a partial assignment keeps the old value's non-uniformity",
			"fn f() { var v = vec2(g, 0); v.y = 1; if (v.y > 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"a loop carries non-uniformity to the next iteration",
			"fn f() { var x = 0; for (var i = 0; i < 4; i++) { if (x > 0) { workgroupBarrier(); } x = g; } }", "workgroupBarrier must only be called"},
		{"a uniform loop counter",
			"fn f() { var i = 0; loop { if (i >= 4) { break; } workgroupBarrier(); i++; } }", ""},
		{"a non-uniform return value",
			"fn h() -> i32 { return g; }\nfn f() { if (h() > 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"a parameter passed through is uniform when the argument is",
			"fn id(a: i32) -> i32 { return a; }\nfn f() { if (id(1) > 0) { workgroupBarrier(); } }", ""},
		{"a parameter passed through carries non-uniformity",
			"fn id(a: i32) -> i32 { return a; }\nfn f() { if (id(g) > 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"a callee that needs uniform control flow",
			"fn b() { workgroupBarrier(); }\nfn f() { if (g > 0) { b(); } }", "b must only be called from uniform control flow"},
		{"a non-uniform switch selector",
			"fn f() { switch (g) { default: { workgroupBarrier(); } } }", "workgroupBarrier must only be called"},
		{"the left operand of && controls the right",
			"fn c() -> bool { workgroupBarrier(); return true; }\nfn f() -> bool { return g > 0 && c(); }", "c must only be called"},
		{"derivatives need uniform control flow",
			"fn f() -> f32 { if (gf > 0.0) { return dpdx(1.0); } return 0.0; }", "dpdx must only be called"},
		{"a derivative result is non-uniform",
			"fn f(x: f32) { if (dpdx(x) > 0.0) { storageBarrier(); } }", "storageBarrier must only be called"},
		{"a non-uniform break-if",
			"fn f() { var i = 0; loop { workgroupBarrier(); continuing { i++; break if i > g; } } }", "workgroupBarrier must only be called"},
	}
	checkUniformityCases(t, g, tests)
}

// TestSubgroupUniformity checks subgroup builtins at the (default) error
// severity of subgroup_uniformity, and a global diagnostic filter that
// turns it off (WGSL #uniformity-function-calls, #global-diagnostic-directive).
func TestSubgroupUniformity(t *testing.T) {
	body := "var<private> g: i32;\nfn f() -> i32 { if (g > 0) { return subgroupAdd(1); } return 0; }\n"
	_, err := Parse("s.wgsl", []byte("enable subgroups;\n"+body))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "s.wgsl:3:37: check: subgroupAdd must only be called from uniform control flow")
	_, err = Parse("s.wgsl", []byte("enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n"+body))
	assert.NoError(t, err)
	tint := ptTintCheck(t)
	accepted, msg := tint.accepts(t, "enable subgroups;\n"+body)
	assert.False(t, accepted, "tint accepts a non-uniform subgroupAdd")
	assert.Contains(t, msg, "'subgroupAdd' must only be called from subgroup uniform control flow")
	accepted, msg = tint.accepts(t, "enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n"+body)
	assert.True(t, accepted, msg)
}

// uniformityCase is a module body (after a prelude of globals) that
// WGSL's uniformity analysis accepts (err "") or refuses with err.
type uniformityCase struct {
	name, body string
	err        string // "" when valid
}

// checkUniformityCases parses prelude+body of each case and checks the
// front end's verdict, and that Tint agrees with it.
func checkUniformityCases(t *testing.T, prelude string, tests []uniformityCase) {
	tint := ptTintCheck(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := prelude + tc.body
			_, err := Parse("u.wgsl", []byte(src))
			ok, msg := tint.accepts(t, src)
			if tc.err == "" {
				require.NoError(t, err)
				assert.True(t, ok, "tint rejects: %s", msg)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			assert.False(t, ok, "tint accepts")
		})
	}
}
