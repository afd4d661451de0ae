package ir_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// TestDirectVariableAccess checks the rewrite's shape on a module with
// pointer parameters in every shared space: one specialization per
// (callee, root variable, access shape), reused by calls of the same
// shape; index operands passed as values in the pointer's place; a
// pointer passed on specialized through; function pointers left alone;
// the functions that took shared pointers dropped; the result verifies
// and the input is untouched.
func TestDirectVariableAccess(t *testing.T) {
	const src = `struct S { a: array<u32, 4>, b: u32 }
@group(0) @binding(0) var<storage, read_write> buf: S;
var<workgroup> w1: array<u32, 4>;
var<workgroup> w2: array<u32, 4>;
fn put(p: ptr<workgroup, u32>, v: u32) { *p = v; }
fn twice(q: ptr<workgroup, array<u32, 4>>, i: i32) { put(&(*q)[i], 2u); put(&(*q)[i], 3u); }
fn sbump(p: ptr<storage, u32, read_write>) { *p += 1u; }
fn local(p: ptr<function, u32>) { *p = 7u; }
@compute @workgroup_size(1)
fn main() {
  put(&w1[0], 1u);
  put(&w1[1], 1u);
  put(&w2[0], 1u);
  twice(&w2, 3);
  sbump(&buf.a[2]);
  sbump(&buf.b);
  var x: u32;
  local(&x);
}
`
	m, err := wgsl.Parse("dva.wgsl", []byte(src))
	require.NoError(t, err)
	before := ir.Print(m)
	n := ir.DirectVariableAccess(m)
	assert.Equal(t, before, ir.Print(m), "the input module is not modified")
	require.NoError(t, ir.Verify(n))
	assert.False(t, ir.HasSharedPointers(n))

	var names []string
	for _, f := range n.Funcs {
		names = append(names, f.Name)
	}
	// put: w1[·] (two calls, one shape), w2[·] (main and twice's
	// pass-through, one shape: i32 indexes; a u32 index would be another
	// shape); twice: w2; sbump: buf.a[·] and buf.b.
	assert.Equal(t, []string{"put_w1", "put_w2", "twice_w2", "sbump_buf", "sbump_buf_1", "local", "main"}, names)
	main := ir.PrintFunc(n.Func("main"))
	assert.Contains(t, main, "put_w1(0i, 1u);\n  put_w1(1i, 1u);\n  put_w2(0i, 1u);\n  twice_w2(3i);")
	assert.Contains(t, main, "sbump_buf(2i);\n  sbump_buf_1();\n")
	assert.Contains(t, main, "local(&x);")
	assert.Contains(t, ir.PrintFunc(n.Func("put_w1")), "w1[p_i0] = v;")
	assert.Contains(t, ir.PrintFunc(n.Func("twice_w2")), "put_w2(i, 2u);\n  put_w2(i, 3u);")
	assert.Contains(t, ir.PrintFunc(n.Func("sbump_buf_1")), "buf.b")

	plain, err := wgsl.Parse("plain.wgsl", []byte("fn k(x: i32) -> i32 { return x; }"))
	require.NoError(t, err)
	assert.Same(t, plain, ir.DirectVariableAccess(plain), "a module without shared pointers is returned as is")
}
