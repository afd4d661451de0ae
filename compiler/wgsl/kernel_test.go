package wgsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKernel(t *testing.T) {
	tests := []struct {
		name, src, kernel string
		want              string // kernel name, or "" when an error is expected
		err               string // error fragment, with position when positioned
	}{
		{"the only uncalled function", "fn h(x: i32) -> i32 { return x; } fn k(x: i32) -> i32 { return h(x) + 1; }", "", "k", ""},
		{"named kernel", "fn a() -> i32 { return 1; } fn b() -> i32 { return 2; }", "b", "b", ""},
		{"ambiguity lists the candidates", "fn b() -> i32 { return 1; } fn a() -> i32 { return 2; }", "", "", "test.wgsl:1:1: check: ambiguous kernel: 2 functions are neither entry points nor called by another function, so each could be the kernel: a (1:29), b (1:1) (name one: --kernel)"},
		{"a helper beside an entry point is a kernel when named", "@compute @workgroup_size(1) fn main() {} fn k() -> u32 { return 1u; }", "k", "k", ""},
		{"a module with an entry point runs it by default, helpers or not", "@compute @workgroup_size(1) fn main() {} fn k() -> u32 { return 1u; }", "", "",
			"test.wgsl:1:1: check: the module's entry point main runs as written by default, not as a function kernel; name a function with --kernel"},
		{"a fragment entry point beside a helper runs by default", "fn k() -> u32 { return 1u; }\n@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }", "", "",
			"test.wgsl:2:1: check: the module's entry point fs runs as written by default"},
		{"an entry point outside the subset is not replaced by a helper",
			"fn k() -> u32 { return 1u; }\n@vertex fn vs() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }\n@compute @workgroup_size(1) fn main() { _ = textureDimensions(t); }\n@group(0) @binding(0) var t: texture_external;", "", "",
			"test.wgsl:3:1: check: the module's @compute fn main, which would run by default, is outside the gpudiff subset; name a function with --kernel (k)"},
		{"a vertex entry point alone leaves the helper the kernel", "fn k() -> u32 { return 1u; }\n@vertex fn vs() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }", "", "k", ""},
		{"a function an entry point calls is not a candidate",
			"fn k() -> u32 { return 1u; } @vertex fn main() -> @builtin(position) vec4<f32> { _ = k(); return vec4<f32>(0.0); }", "", "",
			"test.wgsl:1:30: check: no kernel: every function is an entry point (the first: @vertex fn main) or is called by another function"},
		{"unknown name", "fn k() {}", "nope", "", "no function named nope"},
		{"pointer parameter", "fn k(p: ptr<function, i32>) -> i32 {\n  return *p;\n}", "k", "",
			"test.wgsl:1:9: check: kernel k is outside the gpudiff subset: pointer parameter"},
		{"outside through a callee", "@group(0) @binding(0) var t: texture_external;\nfn h() -> i32 { return i32(textureDimensions(t).x); }\nfn k() -> i32 {\n  return h();\n}", "", "",
			"test.wgsl:4:10: check: kernel k is outside the gpudiff subset: texture type texture_external (reached through calls h → uses var t)"},
		{"an opaque uncalled function is a candidate", "fn k(p: ptr<function, i32>) {}\nfn h() -> i32 { return 1; }\nfn g() -> i32 { return h(); }", "", "",
			"test.wgsl:1:1: check: ambiguous kernel: 2 functions are neither entry points nor called by another function, so each could be the kernel: g (3:1), k (1:1)"},
		{"kernel parameter must be uniform", "fn k(x: i32) {\n  if (x > 0) { workgroupBarrier(); }\n}", "", "",
			"test.wgsl:1:6: check: kernel k: parameter x must be uniform (it calls workgroupBarrier at 2:16)"},
		{"barrier in uniform control flow is fine", "fn k(x: i32) -> i32 { workgroupBarrier(); return x; }", "", "k", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := ptParse(t, tc.src)
			f, err := Kernel(m, tc.kernel)
			if tc.want != "" {
				require.NoError(t, err)
				assert.Equal(t, tc.want, f.Name)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}
