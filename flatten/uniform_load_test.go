package flatten_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// TestWorkgroupUniformLoadFlatten: workgroupUniformLoad in statically
// uniform control flow stays in the twin as written, and its uniform
// result keeps the barrier it guards; under a uniform predicate it is
// guarded as an access, `if (P) { ld = workgroupUniformLoad(&w); }`.
func TestWorkgroupUniformLoadFlatten(t *testing.T) {
	src, err := os.ReadFile("../shaders/compute/workgroup_uniform_load.wgsl")
	require.NoError(t, err)
	m, err := wgsl.Parse("wul.wgsl", src)
	require.NoError(t, err)
	tw, err := flatten.Function(m, "main", flatten.Options{})
	require.NoError(t, err)
	text := ir.PrintFunc(tw)
	assert.Contains(t, text, "workgroupUniformLoad(&seed)")
	assert.Contains(t, text, "workgroupUniformLoad(&table[")
	assert.Contains(t, text, "workgroupBarrier();")

	pred := "var<workgroup> w: u32;\n@group(0) @binding(0) var<storage, read_write> o: array<u32, 4>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {\n  if (wid.x == 0u) {\n    let v = workgroupUniformLoad(&w);\n    o[li] = v;\n  }\n}\n"
	m, err = wgsl.Parse("p.wgsl", []byte(pred))
	require.NoError(t, err)
	tw, err = flatten.Function(m, "main", flatten.Options{})
	require.NoError(t, err)
	assert.Regexp(t, `if \(cond\) \{\n\s*ld = workgroupUniformLoad\(&w\);\n\s*\}`, ir.PrintFunc(tw))
}
