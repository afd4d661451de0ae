package testcase

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEachCasePath: a failing entry point's case goes beside
// --save-case's path, named after it; a pass saves none.
// TestEachEntryRunsEveryEntryPointInModuleOrder: a module with several
// compute entry points (one outside the subset, declared between the
// others) and no --kernel gives one case per entry point in source order,
// each taking the inputs file beside the module; --kernel, a single entry
// point, or --seed (no inputs file) change that as README "Several entry
// points" says.
func TestEachEntryRunsEveryEntryPointInModuleOrder(t *testing.T) {
	dir := t.TempDir()
	src := `@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
@group(0) @binding(1) var ms: texture_depth_multisampled_2d;
@compute @workgroup_size(1) fn b() { out[0] = 1u; }
@compute @workgroup_size(1) fn odd() { out[0] = textureDimensions(ms).x; }
@compute @workgroup_size(1) fn a() { out[1] = 2u; }
@fragment fn f() -> @location(0) f32 { return 1.0; }
`
	path := filepath.Join(dir, "m.wgsl")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.inputs.json"), []byte(`{"out": [0, 0]}`), 0o644))

	each := EachEntry(path, LoadOptions{})
	var names []string
	for _, o := range each {
		names = append(names, o.Kernel)
		assert.Equal(t, filepath.Join(dir, "m.inputs.json"), o.Inputs, "%s: the inputs beside serve every entry point", o.Kernel)
	}
	// Source order, the refused one in its place; the fragment entry point
	// is not the default stage's.
	assert.Equal(t, []string{"b", "odd", "a"}, names)

	assert.Nil(t, EachEntry(path, LoadOptions{Kernel: "a"}), "--kernel picks one")
	seeded := EachEntry(path, LoadOptions{Seed: new(uint64(1))})
	require.Len(t, seeded, 3)
	assert.Empty(t, seeded[0].Inputs, "--seed skips the inputs file")

	one := filepath.Join(dir, "one.wgsl")
	require.NoError(t, os.WriteFile(one, []byte("@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;\n@compute @workgroup_size(1) fn a() { out[1] = 2u; }\n"), 0o644))
	assert.Nil(t, EachEntry(one, LoadOptions{}), "one entry point is one case")
	assert.Nil(t, EachEntry(filepath.Join(dir, "missing.wgsl"), LoadOptions{}), "Load says why a file does not read")
}
