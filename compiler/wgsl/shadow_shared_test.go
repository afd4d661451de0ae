package wgsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// TestLocalMayShadowABinding: a function-scope declaration may shadow a
// module-scope var<workgroup>, var<storage> or var<uniform> (WGSL
// #declaration-and-scope: a declaration in a function shadows the module
// scope's). Normalization renames the local apart (names are unique per
// function, module-scope names reserved) instead of leaving IR that does
// not verify — naga's abstract-types-operators.wgsl and array-in-ctor.wgsl
// were "internal error: … local "a" collides with a module-scope name".
func TestLocalMayShadowABinding(t *testing.T) {
	src := `var<workgroup> a: array<u32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
fn f() -> u32 {
  let a = 7u;
  return a;
}
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
  a[li] = li;
  workgroupBarrier();
  if (li == 0u) {
    let out = f();
    a[0] = out + a[3];
  }
  workgroupBarrier();
  out[0] = a[0];
}
`
	m, err := Parse("shadow.wgsl", []byte(src))
	require.NoError(t, err)
	printed := ir.Print(m)
	assert.NotContains(t, printed, "let a =", "the local is renamed apart from the workgroup var")
	assert.NotContains(t, printed, "let out =", "the local is renamed apart from the binding")
	assert.Contains(t, printed, "a[0i] = out_1 + a[3i]", "the workgroup var keeps its name, the local is read as its renamed self")
}
