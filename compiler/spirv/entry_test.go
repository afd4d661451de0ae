package spirv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// computeShaders returns the entry-point modules of shaders/compute and of
// testdata/compute (this package's shaders for constructs the corpus does
// not use yet: uniform, struct bindings, runtime arrays, arrayLength,
// storageBarrier, every atomic builtin), parsed, by file name.
func computeShaders(t *testing.T) map[string]*ir.Module {
	t.Helper()
	out := map[string]*ir.Module{}
	for _, glob := range []string{"../../shaders/compute/*.wgsl", "testdata/compute/*.wgsl"} {
		files, err := filepath.Glob(glob)
		require.NoError(t, err)
		require.NotEmpty(t, files, glob)
		for _, path := range files {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			m, err := wgsl.Parse(filepath.Base(path), src)
			require.NoError(t, err, path)
			require.True(t, wgsl.IsEntryMode(m, ""), "%s has no entry point as written", path)
			out[strings.TrimSuffix(filepath.Base(path), ".wgsl")] = m
		}
	}
	return out
}

// TestComputeEntryPointsValidate emits every compute shader's entry point
// as written in both modes and requires spirv-val (vulkan1.1) to accept
// it; it also checks the parts of the module the entry point is made of:
// OpEntryPoint GLCompute under the WGSL name, LocalSize = @workgroup_size,
// one DescriptorSet/Binding per binding the entry point uses, and an
// OpControlBarrier per barrier call (in the entry point and the functions
// it calls) plus the zeroing barrier when the
// module has workgroup variables.
func TestComputeEntryPointsValidate(t *testing.T) {
	for name, m := range computeShaders(t) {
		t.Run(name, func(t *testing.T) {
			ep, err := wgsl.Entry(m, "")
			require.NoError(t, err)
			for _, o := range bothModes {
				words := emitValid(t, m, ep.Name, o)
				dis, err := Disassemble(words)
				require.NoError(t, err)
				ws := ep.WorkgroupSize
				assert.Contains(t, dis, "OpEntryPoint GLCompute")
				assert.Contains(t, dis, `"`+ep.Name+`"`)
				assert.Contains(t, dis, fmt.Sprintf("OpExecutionMode %s LocalSize %d %d %d", firstField(dis, "OpEntryPoint GLCompute "), ws[0], ws[1], ws[2]))
				bindings, workgroup := 0, 0
				for _, v := range sharedUsed(m, ep.Name) {
					if v.Space == ir.SpaceWorkgroup {
						workgroup++
					} else {
						bindings++
					}
				}
				assert.Equal(t, bindings, strings.Count(dis, " Binding "), "Binding decorations")
				assert.Equal(t, bindings, strings.Count(dis, " DescriptorSet "), "DescriptorSet decorations")
				barriers := 0
				for _, fn := range ir.DirectVariableAccess(m).CallGraph(ep.Name) { // each function (each specialization of one with shared pointer parameters) is emitted once
					ir.Inspect(fn.Body, func(n ir.Node) bool {
						if c, ok := n.(*ir.BuiltinCall); ok && (c.Fn == ir.BWorkgroupBarrier || c.Fn == ir.BStorageBarrier) {
							barriers++
						}
						if c, ok := n.(*ir.BuiltinCall); ok && c.Fn == ir.BWorkgroupUniformLoad {
							barriers += 2 // OpControlBarrier; OpLoad; OpControlBarrier
						}
						return true
					})
				}
				if workgroup > 0 {
					barriers++ // zeroing
				}
				assert.Equal(t, barriers, strings.Count(dis, "OpControlBarrier"), "barriers")
			}
		})
	}
}

// firstField returns the first word after prefix in s ("" when absent).
func firstField(s, prefix string) string {
	i := strings.Index(s, prefix)
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+len(prefix):])
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// TestDiscardedLoadOfALargeBinding: `_ = v` of a 1000000-element storage
// array (Tint's bug/chromium/1367602_storage_space.wgsl, now within
// WebGPU's binding limits) emits no load: copying v into a value would
// take one OpCompositeConstruct operand per element, past an instruction's
// 65535 words (SPIR-V §2.3 "Physical Layout"), which spirv-val rejects.
func TestDiscardedLoadOfALargeBinding(t *testing.T) {
	src := "@group(0) @binding(0) var<storage> v: array<i32, 1000000>;\n@group(0) @binding(1) var<storage, read_write> o: array<i32, 2>;\n@compute @workgroup_size(1)\nfn main() {\n  _ = v;\n  o[1] = v[999999];\n}\n"
	m, err := wgsl.Parse("big.wgsl", []byte(src))
	require.NoError(t, err)
	for _, o := range bothModes {
		words := emitValid(t, m, "main", o)
		dis, err := Disassemble(words)
		require.NoError(t, err)
		assert.NotContains(t, dis, "OpCompositeConstruct", "no copy of v")
		assert.Equal(t, 1, strings.Count(dis, "OpLoad "), "the one load of an element, v[999999]")
	}
}
