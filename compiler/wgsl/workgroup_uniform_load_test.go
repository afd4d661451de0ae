package wgsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestWorkgroupUniformLoad: workgroupUniformLoad(&R), e.g. as a let or var
// initializer of a compute entry point becomes the builtin call (printed
// back with its '&'); a non-uniform index, a call in non-uniform control
// flow and a pointer outside workgroup memory are errors (WGSL
// #workgroupUniformLoad-builtin, #uniformity), its result decides a
// barrier's branch; any other position, in the entry point or a
// function it calls, is taken too.
func TestWorkgroupUniformLoad(t *testing.T) {
	const head = "var<workgroup> w: u32;\nvar<workgroup> a: array<u32, 4>;\n@group(0) @binding(0) var<storage, read_write> o: array<u32, 4>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {\n"
	m, err := Parse("a.wgsl", []byte(head+"  let v = workgroupUniformLoad(&w);\n  var x = workgroupUniformLoad(&a[wid.x]);\n  if (v > x) {\n    workgroupBarrier();\n  }\n  o[li] = v + x;\n}\n"))
	require.NoError(t, err)
	var got []string
	for _, f := range m.Funcs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if b, ok := n.(*ir.BuiltinCall); ok && b.Fn == ir.BWorkgroupUniformLoad {
				got = append(got, ir.PrintExpr(b))
			}
			return true
		})
	}
	assert.Equal(t, []string{"workgroupUniformLoad(&w)", "workgroupUniformLoad(&a[wid.x])"}, got)

	for _, c := range []struct{ body, want string }{
		{"  let v = workgroupUniformLoad(&a[li]);\n  o[li] = v;\n}\n", "a.wgsl:6:35: check: the pointer argument of workgroupUniformLoad must be a uniform value"},
		{"  if (li > 0u) {\n    let v = workgroupUniformLoad(&w);\n    o[li] = v;\n  }\n}\n", "workgroupUniformLoad must only be called from uniform control flow"},
		{"  let v = workgroupUniformLoad(&o[0]);\n}\n", "a.wgsl:6:32: check: workgroupUniformLoad needs a pointer into workgroup memory"},
	} {
		_, err := Parse("a.wgsl", []byte(head+c.body))
		require.Error(t, err, c.body)
		assert.Contains(t, err.Error(), c.want, c.body)
	}
	// Any position, in the entry point or a function it calls (issue 24
	// item 6): the reference inlines it (ir.InlineBarriers).
	for _, body := range []string{
		"  o[li] = workgroupUniformLoad(&w) + 1u;\n}\n",
		"  o[li] = f();\n}\nfn f() -> u32 {\n  if (workgroupUniformLoad(&w) > 2u) {\n    return 1u;\n  }\n  return workgroupUniformLoad(&a[1]);\n}\n",
	} {
		m, err = Parse("a.wgsl", []byte(head+body))
		require.NoError(t, err, body)
		require.Nil(t, m.OpaqueDecl("main"), body)
	}
	// A stable workgroup pointer let used other than by
	// workgroupUniformLoad names its view (&a[wid.x]).
	m, err = Parse("a.wgsl", []byte(head+"  let p = &a[wid.x];\n  *p = 1u;\n}\n"))
	require.NoError(t, err)
	require.Nil(t, m.OpaqueDecl("main"))
	assert.Contains(t, ir.PrintFunc(m.Func("main")), "a[wid.x] = 1u;")
	// naga's workgroup-uniform-load.wgsl: a let of a workgroup pointer with
	// a uniform index, loaded, deciding a barrier.
	m, err = Parse("a.wgsl", []byte(head+"  let p = &a[wid.x];\n  let v = workgroupUniformLoad(p);\n  if (v > 10u) {\n    workgroupBarrier();\n  }\n}\n"))
	require.NoError(t, err)
	require.Nil(t, m.OpaqueDecl("main"))
	assert.Contains(t, ir.PrintFunc(m.Func("main")), "workgroupUniformLoad(&a[wid.x])")
}
