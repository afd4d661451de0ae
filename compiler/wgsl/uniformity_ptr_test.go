package wgsl

import (
	"testing"
)

// TestUniformityPointerParameters checks WGSL's rules for function-space
// pointer parameters (#pointer-desugar, #uniformity-function-calls: the
// pointer parameter tag PointerParameterMayBeNonUniform, the contents
// Value_return_i_contents depends on, ParameterContentsRequiredToBeUniform):
// passing &v to a function makes v non-uniform only when the callee can
// leave a non-uniform value in it. Each expectation is derived from those
// rules by hand and cross-checked with Tint.
func TestUniformityPointerParameters(t *testing.T) {
	const g = "var<private> g: i32;\n" +
		"fn set1(p: ptr<function, i32>) { *p = 1; }\n" +
		"fn setg(p: ptr<function, i32>) { *p = g; }\n" +
		"fn setx(p: ptr<function, i32>, x: i32) { *p = x; }\n" +
		"fn keep(p: ptr<function, i32>) { }\n" +
		"fn incr(p: ptr<function, i32>) { *p += 1; }\n" +
		"fn copy(dst: ptr<function, i32>, src: ptr<function, i32>) { *dst = *src; }\n" +
		"fn bar(p: ptr<function, i32>) { if (*p == 0) { workgroupBarrier(); } }\n" +
		"fn early(p: ptr<function, i32>, x: i32) { if (x > 0) { *p = 2; return; } *p = 3; }\n"
	tests := []uniformityCase{
		{"a callee storing a constant leaves the pointee uniform",
			"fn f() { var v: i32; set1(&v); if (v == 0) { workgroupBarrier(); } }", ""},
		{"a callee storing a private global makes the pointee non-uniform",
			"fn f() { var v: i32; setg(&v); if (v == 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"the pointee takes the uniformity of the stored argument (uniform)",
			"fn f() { var v: i32; setx(&v, 4); if (v == 0) { workgroupBarrier(); } }", ""},
		{"the pointee takes the uniformity of the stored argument (non-uniform)",
			"fn f() { var v: i32; setx(&v, g); if (v == 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"a callee that does not store keeps a uniform pointee uniform",
			"fn f() { var v = 3; keep(&v); if (v == 0) { workgroupBarrier(); } }", ""},
		{"a callee that does not store keeps a non-uniform pointee non-uniform",
			"fn f() { var v = g; keep(&v); if (v == 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"a read-modify-write keeps a uniform pointee uniform",
			"fn f() { var v = 3; incr(&v); if (v == 0) { workgroupBarrier(); } }", ""},
		{"one pointee copied to another carries its non-uniformity",
			"fn f() { var a = g; var b = 0; copy(&b, &a); if (b == 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"one pointee copied to another carries its uniformity",
			"fn f() { var a = 7; var b = g; copy(&b, &a); if (b == 0) { workgroupBarrier(); } }", ""},
		{"a callee that branches on the pointee requires it uniform (it is)",
			"fn f() { var v = 0; bar(&v); }", ""},
		{"a callee that branches on the pointee requires it uniform (it is not)",
			"fn f() { var v = g; bar(&v); }", "must be uniform"},
		{"stores on two paths of a non-uniform branch make the pointee non-uniform",
			"fn f() { var v: i32; early(&v, g); if (v == 0) { workgroupBarrier(); } }", "workgroupBarrier must only be called"},
		{"stores on two paths of a uniform branch keep it uniform",
			"fn f() { var v: i32; early(&v, 1); if (v == 0) { workgroupBarrier(); } }", ""},
	}
	checkUniformityCases(t, g, tests)
}
