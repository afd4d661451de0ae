package spirv

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// publicPairs are the draws of issue 39's acceptance list
// (testdata/render/README.md): the vertex entry point and the fragment
// entry point each sample pairs in one render pipeline, as file:entry.
var publicPairs = [][2]string{
	{"webgpu-samples/shaders/triangle.vert.wgsl:main", "webgpu-samples/shaders/red.frag.wgsl:main"},
	{"webgpu-samples/shaders/basic.vert.wgsl:main", "webgpu-samples/shaders/vertexPositionColor.frag.wgsl:main"},
	{"webgpu-samples/shaders/basic.vert.wgsl:main", "webgpu-samples/sample/texturedCube/sampleTextureMixColor.frag.wgsl:main"},
	{"webgpu-samples/sample/instancedCube/instanced.vert.wgsl:main", "webgpu-samples/shaders/vertexPositionColor.frag.wgsl:main"},
	{"webgpu-samples/shaders/fullscreenTexturedQuad.wgsl:vert_main", "webgpu-samples/shaders/fullscreenTexturedQuad.wgsl:frag_main"},
	{"webgpu-samples/sample/generateMipmap/texturedGeometry.wgsl:vs_2d", "webgpu-samples/sample/generateMipmap/texturedGeometry.wgsl:fs_2d"},
	{"webgpu-samples/sample/generateMipmap/texturedGeometry.wgsl:vs_2d_array", "webgpu-samples/sample/generateMipmap/texturedGeometry.wgsl:fs_2d_array"},
	{"webgpu-samples/sample/generateMipmap/texturedGeometry.wgsl:vs_cube", "webgpu-samples/sample/generateMipmap/texturedGeometry.wgsl:fs_cube"},
	{"webgpu-samples/sample/generateMipmap/texturedGeometry.wgsl:vs_cube_array", "webgpu-samples/sample/generateMipmap/texturedGeometry.wgsl:fs_cube_array"},
	{"webgpu-samples/sample/normalMap/normalMap.wgsl:vertexMain", "webgpu-samples/sample/normalMap/normalMap.wgsl:fragmentMain"},
	{"webgpu-samples/sample/wireframe/wireframe.wgsl:vsIndexedU32", "webgpu-samples/sample/wireframe/wireframe.wgsl:fs"},
	{"webgpu-samples/sample/wireframe/wireframe.wgsl:vsIndexedU32BarycentricCoordinateBasedLines", "webgpu-samples/sample/wireframe/wireframe.wgsl:fsBarycentricCoordinateBasedLines"},
	{"wgpu/examples/src/hello_triangle/shader.wgsl:vs_main", "wgpu/examples/src/hello_triangle/shader.wgsl:fs_main"},
	{"wgpu/examples/src/cube/shader.wgsl:vs_main", "wgpu/examples/src/cube/shader.wgsl:fs_main"},
	{"wgpu/examples/src/cube/shader.wgsl:vs_main", "wgpu/examples/src/cube/shader.wgsl:fs_wire"},
	{"wgpu/examples/src/water/terrain.wgsl:vs_main", "wgpu/examples/src/water/terrain.wgsl:fs_main"},
}

// TestPublicRenderShaders: every entry point of issue 39's public
// render shaders emits, under every render option set, a module
// spirv-val (Vulkan 1.1) accepts, whose one entry point is the stage's
// execution model under the entry point's name; a vertex module writes
// BuiltIn Position; and in each pair a sample draws, each fragment
// @location input has a vertex Output at the same Location with the
// same type and interpolation decorations (Vulkan §15.1.3; wgpu compares
// the stages' interpolations).
func TestPublicRenderShaders(t *testing.T) {
	modules := map[string]*ir.Module{}
	load := func(t *testing.T, path string) *ir.Module {
		if m, ok := modules[path]; ok {
			return m
		}
		src, err := os.ReadFile(filepath.Join("testdata/render", path))
		require.NoError(t, err)
		m, err := wgsl.Parse(filepath.Base(path), src)
		require.NoError(t, err, path)
		modules[path] = m
		return m
	}
	io := map[string][]ioVar{} // file:entry → its IO under DefaultOptions
	for _, pair := range publicPairs {
		for stage, fe := range pair {
			if _, done := io[fe]; done {
				continue
			}
			path, entry, _ := strings.Cut(fe, ":")
			m := load(t, path)
			for _, o := range renderOptions {
				mf := readFacts(t, emitValid(t, m, entry, o))
				require.Len(t, mf.entries, 1, fe)
				model, ok := map[int]uint32{0: executionModelVertex, 1: executionModelFragment}[stage]
				require.True(t, ok)
				assert.Equal(t, model, mf.entries[0].model, fe)
				assert.Equal(t, entry, mf.entries[0].name, fe)
				vars := mf.stageIO(t)
				for _, v := range vars {
					assert.True(t, v.inIface, "%s: %s is not in the interface", fe, v)
				}
				if stage == 0 {
					assert.Contains(t, ioStrings(vars), "out BuiltIn Position vec4<f32>", fe)
				}
				io[fe] = vars
			}
		}
		outs := map[string]ioVar{}
		for _, v := range io[pair[0]] {
			if v.class == "out" {
				outs[v.what] = v
			}
		}
		for _, in := range io[pair[1]] {
			if in.class != "in" || !strings.HasPrefix(in.what, "Location") {
				continue
			}
			out, ok := outs[in.what]
			if assert.True(t, ok, "%s → %s: no vertex output for %s", pair[0], pair[1], in) {
				assert.Equal(t, in.typ, out.typ, "%s → %s: %s", pair[0], pair[1], in.what)
				assert.Equal(t, in.interp, out.interp, "%s → %s: %s", pair[0], pair[1], in.what)
			}
		}
	}
}

func ioStrings(vs []ioVar) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.String())
	}
	return out
}

// spirvBuiltIn is the Vulkan BuiltIn of each render stage's WGSL builtin
// values (Vulkan §15.9, WGSL #builtin-values), by stage and direction.
var spirvBuiltIn = map[string]string{
	"vertex in vertex_index": "VertexIndex", "vertex in instance_index": "InstanceIndex",
	"vertex out position":  "Position",
	"fragment in position": "FragCoord", "fragment in front_facing": "FrontFacing",
}

// TestRenderIOIsTheFrontEndsIO: each entry point's SPIR-V Input and
// Output variables are, one for one, the IO leaves the front end lists
// (wgsl.StageInputs, wgsl.StageOutputs): a builtin as its Vulkan BuiltIn,
// a @location(n) as Location n, of the leaf's type; a varying (a vertex
// output, a fragment input) decorated Flat when its interpolation,
// resolved (ir.Interpolation.Resolved), is flat and NoPerspective when it
// is linear; every other variable undecorated.
func TestRenderIOIsTheFrontEndsIO(t *testing.T) {
	check := func(t *testing.T, m *ir.Module, ep *ir.Func) {
		stage := ep.Stage.String()
		var want []string
		leaves := func(dir string, ios []wgsl.StageIO) {
			for _, io := range ios {
				v := ioVar{class: dir, typ: io.T.String()}
				if io.Builtin != "" {
					bi, ok := spirvBuiltIn[stage+" "+dir+" "+io.Builtin]
					require.True(t, ok, "%s: %s %s", ep.Name, dir, io.Builtin)
					v.what = "BuiltIn " + bi
				} else {
					v.what = fmt.Sprintf("Location %d", io.Location)
					if stage+" "+dir == "vertex out" || stage+" "+dir == "fragment in" {
						switch io.Interp.Resolved(io.T).Type {
						case ir.InterpFlat:
							v.interp = "Flat"
						case ir.InterpLinear:
							v.interp = "NoPerspective"
						}
					}
				}
				want = append(want, v.String())
			}
		}
		leaves("in", wgsl.StageInputs(ep))
		leaves("out", wgsl.StageOutputs(ep))
		sort.Strings(want)
		got := ioStrings(readFacts(t, emitValid(t, m, ep.Name, DefaultOptions())).stageIO(t))
		assert.Equal(t, want, got, ep.Name)
	}
	m := parseRender(t, renderPairSrc)
	check(t, m, m.Func("vs"))
	check(t, m, m.Func("fs"))
	seen := map[string]bool{}
	for _, pair := range publicPairs {
		for _, fe := range pair {
			path, _, _ := strings.Cut(fe, ":")
			if seen[path] {
				continue
			}
			seen[path] = true
			src, err := os.ReadFile(filepath.Join("testdata/render", path))
			require.NoError(t, err)
			m, err := wgsl.Parse(filepath.Base(path), src)
			require.NoError(t, err, path)
			for _, f := range m.Funcs {
				if f.Stage.IsRenderStage() {
					t.Run(path+":"+f.Name, func(t *testing.T) { check(t, m, f) })
				}
			}
		}
	}
}
