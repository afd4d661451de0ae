package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/drivers"
)

// TestDriversCorpusTakesTheDefaultEntry: the drivers corpus follows exec's
// default rule (default_entry.txtar): a module with a @compute entry
// point and an uncalled helper is an entry case of that entry point, not
// a function-kernel case of the helper; likewise a @fragment one.
func TestDriversCorpusTakesTheDefaultEntry(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
		return p
	}
	c, err := drivers.LoadFile(write("helper.wgsl", `@group(0) @binding(0) var<storage, read_write> o: array<u32, 4>;
fn toIndex(x: u32) -> u32 { return x * 2u; }
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) { o[i] = i; }
`))
	require.NoError(t, err)
	require.Equal(t, testcase.KindCompute, c.Case.Kind, "an entry case")
	assert.Equal(t, "main", c.Case.Func.Name)

	c, err = drivers.LoadFile(write("frag.wgsl", `fn unused(x: f32) -> f32 { return x; }
@fragment fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> { return p; }
`))
	require.NoError(t, err)
	require.Equal(t, testcase.KindFragment, c.Case.Kind, "a fragment case")
	assert.Equal(t, "fs", c.Case.Func.Name)
}
