package gen_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/interp/raster"
	"github.com/gpudiff/gpudiff/ir"
)

func renderConfig(t testing.TB) gen.Config {
	return profileConfig(t, "render")
}

// renderSeeds is how many programs the render properties check: 400
// under GPUDIFF_TEST_LONG=1, the first 80 of them in make test.
func renderSeeds() uint64 { return uint64(gen.TestCount(400, 80)) }

// checkRenderProgram checks one render program against every stage a
// draw case goes through before a device: the verifier, the WGSL the
// draw is emitted as (both modes) read back by the front end, whose
// VertexEntry and DrawFragmentEntry take its entry points and whose
// CheckInterface accepts the pair, the canonical printer's round trip,
// and flatten's twins of both entry points (same stage and IO, the draw
// of the twins emitted and read back): every one flattens.
func checkRenderProgram(t *testing.T, p *gen.Program, what string) {
	t.Helper()
	require.True(t, p.IsDraw(), what)
	require.False(t, p.IsEntry(), what)
	m := p.Module
	require.NoError(t, ir.Verify(m), what)
	vs, fs := m.Func(p.Vertex), m.Func(p.Kernel)
	require.NotNil(t, vs, what)
	require.NotNil(t, fs, what)
	assert.Equal(t, ir.StageVertex, vs.Stage, what)
	assert.Equal(t, ir.StageFragment, fs.Stage, what)
	require.NoError(t, wgsl.CheckInterface(vs, fs), "%s:\n%s", what, p)

	for _, mode := range []wgsl.Mode{wgsl.Portable, wgsl.Raw} {
		src, err := wgsl.EmitDraw(m, p.Vertex, p.Kernel, wgsl.EmitOptions{Mode: mode})
		require.NoError(t, err, what)
		back, err := wgsl.Parse("gen.wgsl", []byte(src))
		require.NoError(t, err, "%s (%s):\n%s", what, mode, src)
		require.True(t, wgsl.IsDrawMode(back), what)
		bv, err := wgsl.VertexEntry(back, "")
		require.NoError(t, err, "%s (%s):\n%s", what, mode, src)
		bf, err := wgsl.DrawFragmentEntry(back, "")
		require.NoError(t, err, "%s (%s):\n%s", what, mode, src)
		require.NoError(t, wgsl.CheckInterface(bv, bf), "%s (%s):\n%s", what, mode, src)
		assert.Equal(t, ioOf(wgsl.StageInputs(vs)), ioOf(wgsl.StageInputs(bv)), what)
		assert.Equal(t, ioOf(wgsl.StageOutputs(fs)), ioOf(wgsl.StageOutputs(bf)), what)
	}

	// The canonical print parses, and from then on round-trips (the
	// front end folds constant expressions the generator writes, as
	// compiler/wgsl's TestParseAcceptsPrintedGeneratedPrograms says).
	printed := ir.Print(m)
	m2, err := wgsl.Parse("gen.wgsl", []byte(printed))
	require.NoError(t, err, "%s:\n%s", what, printed)
	again := ir.Print(m2)
	m3, err := wgsl.Parse("gen.wgsl", []byte(again))
	require.NoError(t, err, "%s:\n%s", what, again)
	assert.Equal(t, again, ir.Print(m3), "%s: the canonical print round-trips", what)

	tm := ir.CloneModule(m)
	twins := map[string]string{}
	for _, e := range []string{p.Vertex, p.Kernel} {
		twin, err := flatten.Function(tm, e, flatten.Options{VerifyPasses: true, Strict: true})
		require.NoError(t, err, "%s: flatten %s:\n%s", what, e, p)
		orig := m.Func(e)
		assert.Equal(t, orig.Stage, twin.Stage, what)
		assert.Equal(t, wgsl.StageInputs(orig), wgsl.StageInputs(twin), "%s: the twin's inputs are the original's", what)
		assert.Equal(t, wgsl.StageOutputs(orig), wgsl.StageOutputs(twin), "%s: the twin's outputs are the original's", what)
		twins[e] = twin.Name
	}
	require.NoError(t, ir.Verify(tm), what)
	src, err := wgsl.EmitDraw(tm, twins[p.Vertex], twins[p.Kernel], wgsl.EmitOptions{})
	require.NoError(t, err, what)
	back, err := wgsl.Parse("twin.wgsl", []byte(src))
	require.NoError(t, err, "%s: the twins' draw:\n%s", what, src)
	bv, err := wgsl.VertexEntry(back, twins[p.Vertex])
	require.NoError(t, err, what)
	bf, err := wgsl.DrawFragmentEntry(back, twins[p.Kernel])
	require.NoError(t, err, what)
	require.NoError(t, wgsl.CheckInterface(bv, bf), what)
}

// ioOf is an entry point's IO without positions (a generated module has
// none, its parse back has the text's), its types printed.
func ioOf(ios []wgsl.StageIO) []string {
	var out []string
	for _, io := range ios {
		out = append(out, fmt.Sprintf("%s %v %s loc %d %s %v", io.Name, io.Path, io.Builtin, io.Location, io.T, io.Interp))
	}
	return out
}

// TestRenderProgramsPassEveryStage: every render program (and those a
// byte source makes, the empty one included) verifies, is a valid draw
// for the front end as emitted, keeps its interface, round-trips
// through the printer and is flattened (both stages, Strict) by flatten.
func TestRenderProgramsPassEveryStage(t *testing.T) {
	cfg := renderConfig(t)
	n := renderSeeds()
	for seed := uint64(0); seed < n; seed++ {
		c := cfg
		c.Size = []int{30, 10, 60}[seed%3]
		p := gen.Generate(seed, c)
		checkRenderProgram(t, p, fmt.Sprintf("seed %d (size %d)", seed, c.Size))
	}
	for i, data := range [][]byte{nil, {0xff}, []byte("render pipelines as written"), {7, 200, 13, 255, 0, 91, 3, 3, 3, 180, 44, 250}} {
		checkRenderProgram(t, gen.FromBytes(data, cfg), fmt.Sprintf("bytes %d", i))
	}
}

// vertexArgs returns the arguments of vs for vertex v of instance i of
// the draw: its builtins and its attributes, assembled by
// wgsl.StageInputs' paths (a struct of inputs from its members).
func vertexArgs(t *testing.T, vs *ir.Func, d *gen.RenderInputs, v, i int) []ir.Value {
	t.Helper()
	byLoc := map[int]gen.RenderAttribute{}
	for _, a := range d.Attributes {
		byLoc[a.Location] = a
	}
	leaf := func(io wgsl.StageIO) ir.Value {
		switch io.Builtin {
		case "vertex_index":
			return ir.U32Val(uint32(v))
		case "instance_index":
			return ir.U32Val(uint32(i))
		}
		a, ok := byLoc[io.Location]
		require.True(t, ok, "no attribute at @location(%d)", io.Location)
		require.True(t, ir.Identical(a.Type, io.T), "attribute %s is %v, the input %v", a.Name, a.Type, io.T)
		require.Equal(t, io.Name, a.Name)
		require.Equal(t, io.Path, a.Path)
		if a.StepMode == "instance" {
			return a.Values[i]
		}
		return a.Values[v]
	}
	args := make([]ir.Value, len(vs.Params))
	members := map[int][]ir.Value{}
	for _, io := range wgsl.StageInputs(vs) {
		if len(io.Path) == 1 {
			args[io.Path[0]] = leaf(io)
			continue
		}
		members[io.Path[0]] = append(members[io.Path[0]], leaf(io))
	}
	for p, ms := range members {
		args[p] = ir.CompositeVal(vs.Params[p].T, ms...)
	}
	return args
}

// vertexPosition returns @builtin(position) of a vertex stage's result.
func vertexPosition(vs *ir.Func, ret ir.Value) ir.Value {
	for _, o := range wgsl.StageOutputs(vs) {
		if o.Builtin == "position" {
			if len(o.Path) == 0 {
				return ret
			}
			return ret.Elems[o.Path[0]]
		}
	}
	panic("no position output")
}

// TestRenderVerticesStayInsideTheClipVolume runs every program's vertex
// stage in the reference on its draw's vertices and instances: each
// position is exact, with 1 ≤ w ≤ 2, |x|, |y| ≤ 0.9375·w and 0.125·w ≤
// z ≤ 0.875·w (render.go: inside the clip volume by construction, so
// the reference rasterizer takes every vertex), and the draw covers
// pixels of the 16×16 target: the first primitive of every draw that is
// not culled covers at least one pixel centre for sure in almost all
// programs (the vertex stage's moves may turn a triangle over or shrink
// it, rarely).
func TestRenderVerticesStayInsideTheClipVolume(t *testing.T) {
	cfg := renderConfig(t)
	n := renderSeeds()
	drawn := 0
	for seed := uint64(0); seed < n; seed++ {
		p := gen.Generate(seed, cfg)
		d := p.Draw
		vs := p.Module.Func(p.Vertex)
		prog, err := interp.CompileBindings(p.Module, p.Vertex, d.Bindings)
		require.NoError(t, err, "seed %d:\n%s", seed, p)
		topo, err := raster.ParseTopology(d.Topology)
		require.NoError(t, err)
		cull, err := raster.ParseCullMode(d.CullMode)
		require.NoError(t, err)
		front, err := raster.ParseFrontFace(d.FrontFace)
		require.NoError(t, err)
		covered := false
		for i := 0; i < d.InstanceCount; i++ {
			var args [][]ir.Value
			for v := 0; v < d.VertexCount; v++ {
				args = append(args, vertexArgs(t, vs, d, v, i))
			}
			invs, err := prog.Run(args, interp.Options{Textures: d.Textures, Samplers: d.Samplers})
			require.NoError(t, err, "seed %d", seed)
			var verts []raster.Vertex
			for v, inv := range invs {
				require.NoError(t, inv.Err, "seed %d vertex %d", seed, v)
				ret := inv.Outputs[0]
				require.Empty(t, ret.Indeterminate, "seed %d vertex %d", seed, v)
				require.Empty(t, ret.Tolerance, "seed %d vertex %d: the position is exact", seed, v)
				pos := vertexPosition(vs, ret.Value)
				var c [4]float32
				for k := range c {
					c[k] = pos.Elems[k].F32()
				}
				x, y, z, w := float64(c[0]), float64(c[1]), float64(c[2]), float64(c[3])
				assert.True(t, w >= 1 && w <= 2, "seed %d vertex %d instance %d: w = %v", seed, v, i, w)
				assert.True(t, math.Abs(x) <= 0.9375*w && math.Abs(y) <= 0.9375*w, "seed %d vertex %d instance %d: x, y = %v, %v (w %v)", seed, v, i, x, y, w)
				assert.True(t, z >= 0.125*w && z <= 0.875*w, "seed %d vertex %d instance %d: z = %v (w %v)", seed, v, i, z, w)
				verts = append(verts, raster.Vertex{Position: c})
			}
			prims, err := raster.Rasterize(raster.Draw{Topology: topo, CullMode: cull, FrontFace: front, Width: d.Width, Height: d.Height}, verts)
			require.NoError(t, err, "seed %d instance %d", seed, i)
			for _, pr := range prims {
				if pr.Culled != raster.NotCulled {
					continue
				}
				for _, f := range pr.Fragments() {
					covered = covered || f.Coverage == raster.In
				}
			}
		}
		if covered {
			drawn++
		}
	}
	t.Logf("%d of %d draws cover a pixel centre for sure", drawn, n)
	assert.GreaterOrEqual(t, drawn, int(n)*9/10, "the draws draw something")
}

// TestRenderInputsFitTheirPrograms: the draw's data has the shapes
// RenderInputs documents — one attribute per @location input of the
// vertex stage, in location order, of its type and format, one value per
// vertex or instance; a triangle list's vertex count a multiple of 3;
// positions on the 1/64 grid within ±0.875, every triangle at least 1/4
// of NDC area, the first one kept by the cull mode; tri = vertex / 3;
// the uniform's value of its binding's type; the texture and sampler
// exactly when the module declares them.
func TestRenderInputsFitTheirPrograms(t *testing.T) {
	cfg := renderConfig(t)
	for seed := uint64(0); seed < renderSeeds(); seed++ {
		p := gen.Generate(seed, cfg)
		d := p.Draw
		vs := p.Module.Func(p.Vertex)
		assert.Equal(t, gen.RenderTargetSize, d.Width)
		assert.Equal(t, gen.RenderTargetSize, d.Height)
		assert.GreaterOrEqual(t, d.InstanceCount, 1)
		switch d.Topology {
		case "triangle-list":
			assert.Zero(t, d.VertexCount%3, "seed %d", seed)
			assert.Positive(t, d.VertexCount)
		case "triangle-strip":
			assert.GreaterOrEqual(t, d.VertexCount, 3)
		default:
			t.Fatalf("seed %d: topology %q", seed, d.Topology)
		}
		assert.Contains(t, []string{"none", "front", "back"}, d.CullMode)
		assert.Contains(t, []string{"ccw", "cw"}, d.FrontFace)

		var locs []int
		for _, io := range wgsl.StageInputs(vs) {
			if io.Location >= 0 {
				locs = append(locs, io.Location)
			}
		}
		require.Len(t, d.Attributes, len(locs), "seed %d", seed)
		var pos *gen.RenderAttribute
		for k, a := range d.Attributes {
			if k > 0 {
				assert.Less(t, d.Attributes[k-1].Location, a.Location, "seed %d: location order", seed)
			}
			assert.Contains(t, locs, a.Location)
			assert.Equal(t, gen.VertexFormat(a.Type), a.Format)
			want := d.VertexCount
			if a.StepMode == "instance" {
				want = d.InstanceCount
			} else {
				assert.Equal(t, "vertex", a.StepMode)
			}
			require.Len(t, a.Values, want, "seed %d attribute %s", seed, a.Name)
			for _, v := range a.Values {
				require.True(t, ir.Identical(a.Type, v.Type), "seed %d attribute %s", seed, a.Name)
			}
			switch {
			case strings.HasSuffix(a.Name, "pos"):
				pos = &d.Attributes[k]
			case strings.HasSuffix(a.Name, "tri"):
				for v, x := range a.Values {
					assert.Equal(t, uint32(v/3), x.Bits, "seed %d: tri of vertex %d", seed, v)
				}
			}
		}
		require.NotNil(t, pos, "seed %d", seed)
		xy := make([][2]float64, len(pos.Values))
		for v, x := range pos.Values {
			for c := 0; c < 2; c++ {
				f := float64(x.Elems[c].F32())
				assert.LessOrEqual(t, math.Abs(f), 0.875, "seed %d", seed)
				assert.Equal(t, math.Round(f*64), f*64, "seed %d: on the 1/64 grid", seed)
				xy[v][c] = f
			}
			if n := len(x.Elems); n > 2 {
				assert.Zero(t, x.Elems[2].F32())
				if n > 3 {
					assert.Equal(t, float32(1), x.Elems[3].F32())
				}
			}
		}
		tris, _ := raster.Assemble(map[string]raster.Topology{"triangle-list": raster.TriangleList, "triangle-strip": raster.TriangleStrip}[d.Topology], d.VertexCount)
		for k, tr := range tris {
			a, b, c := xy[tr[0]], xy[tr[1]], xy[tr[2]]
			area := ((b[0]-a[0])*(c[1]-a[1]) - (c[0]-a[0])*(b[1]-a[1])) / 2
			assert.GreaterOrEqual(t, math.Abs(area), 0.25, "seed %d triangle %d", seed, k)
			if k == 0 {
				// NDC has y up: a positive area is counter-clockwise.
				frontFacing := (area > 0) == (d.FrontFace == "ccw")
				kept := d.CullMode == "none" || (d.CullMode == "back") == frontFacing
				assert.True(t, kept, "seed %d: the first triangle is culled", seed)
			}
		}

		u := p.Module.SharedVar("u")
		if u != nil {
			require.Contains(t, d.Bindings, "u", "seed %d", seed)
			assert.True(t, ir.Identical(u.T, d.Bindings["u"].Type))
		} else {
			assert.Empty(t, d.Bindings)
		}
		tex := p.Module.TextureVar("tex")
		assert.Equal(t, tex != nil, d.Textures["tex"] != nil, "seed %d", seed)
		assert.Equal(t, tex != nil, d.Samplers["smp"] != nil, "seed %d", seed)
		if tex != nil {
			tx := d.Textures["tex"]
			assert.Contains(t, []string{"rgba8unorm", "rgba16float"}, tx.Format)
			assert.Len(t, tx.Data, tx.MipLevels)
		}
	}
}

// TestRenderProgramsAreDeterministic: a seed names one program and one
// draw; neighbouring seeds name others.
func TestRenderProgramsAreDeterministic(t *testing.T) {
	cfg := renderConfig(t)
	distinct := map[string]bool{}
	for seed := uint64(0); seed < 20; seed++ {
		a, b := gen.Generate(seed, cfg), gen.Generate(seed, cfg)
		require.Equal(t, a.String(), b.String(), "seed %d", seed)
		require.True(t, reflect.DeepEqual(a.Draw, b.Draw), "seed %d: the draws differ", seed)
		assert.Equal(t, seed, a.Seed)
		distinct[a.String()] = true
	}
	assert.Len(t, distinct, 20)
}

// TestRenderProfileCoversItsConstructs: over 200 programs every
// construct the profile promises appears.
func TestRenderProfileCoversItsConstructs(t *testing.T) {
	cfg := renderConfig(t)
	seen := map[string]int{}
	for seed := uint64(0); seed < 200; seed++ {
		p := gen.Generate(seed, cfg)
		m, d := p.Module, p.Draw
		vs, fs := m.Func(p.Vertex), m.Func(p.Kernel)
		text := p.String()
		for _, io := range wgsl.StageOutputs(vs) {
			if io.Location < 0 {
				continue
			}
			r := io.Interp.Resolved(io.T)
			seen["varying "+r.Type.String()+", "+r.Sampling.String()]++
			if io.Interp.IsZero() {
				seen["varying without @interpolate"]++
			}
			if io.T.Scalar().IsInteger() {
				seen["integer varying"]++
			}
			if io.T.Kind == ir.KindVec {
				seen["vector varying"]++
			}
		}
		for _, io := range wgsl.StageInputs(vs) {
			switch {
			case io.Builtin != "":
				seen["vertex "+io.Builtin]++
			case io.T.Scalar().Kind == ir.KindF32:
				seen["f32 attribute"]++
			default:
				seen["integer attribute"]++
			}
			if len(io.Path) == 2 {
				seen["vertex input struct"]++
			}
		}
		for _, a := range d.Attributes {
			if a.StepMode == "instance" {
				seen["per-instance attribute"]++
			}
		}
		for _, io := range wgsl.StageInputs(fs) {
			if io.Builtin != "" {
				seen["fragment "+io.Builtin]++
			}
			if len(io.Path) == 2 {
				seen["fragment input struct"]++
			}
		}
		if len(fs.Params) == 1 && fs.Params[0].T.Kind == ir.KindStruct && fs.Params[0].T.Struct.Name == "VOut" {
			seen["VOut as the fragment's input"]++
		}
		if vs.ResultBuiltin == "position" {
			seen["bare position result"]++
		}
		outs := wgsl.StageOutputs(fs)
		if len(outs) == 1 && len(outs[0].Path) == 0 {
			seen["bare fragment result"]++
		}
		for _, o := range outs[1:] {
			seen["output "+o.T.Scalar().String()]++
		}
		for _, s := range []string{"dpdx(", "dpdy(", "fwidth(", "Coarse(", "Fine(", "textureSample(", "discard;", "fn dk(", "var<uniform>", "let pw: f32 = 1.0f + ", "for (", "loop {", "switch ("} {
			if strings.Contains(text, s) {
				seen[s]++
			}
		}
		if strings.Contains(text, "let un: Uniforms") {
			seen["uniform in a stage"]++
		}
		seen["topology "+d.Topology]++
		seen["cull "+d.CullMode]++
		seen["front face "+d.FrontFace]++
		if d.InstanceCount > 1 {
			seen["instances"]++
		}
		// discard before the derivatives: demotion, not termination
		// (render.go).
		if i, j := strings.Index(text, "discard;"), strings.Index(text, "dpd"); i >= 0 && j > i && !strings.Contains(text, "fn dk(") {
			seen["discard before a derivative"]++
		}
	}
	for _, want := range []string{
		"varying perspective, center", "varying linear, center", "varying flat, first", "varying flat, either",
		"varying without @interpolate", "integer varying", "vector varying",
		"vertex vertex_index", "vertex instance_index", "f32 attribute", "integer attribute", "vertex input struct", "per-instance attribute",
		"fragment position", "fragment front_facing", "fragment input struct", "VOut as the fragment's input",
		"bare position result", "bare fragment result", "output u32", "output i32",
		"dpdx(", "dpdy(", "fwidth(", "Coarse(", "Fine(", "textureSample(", "discard;", "fn dk(", "var<uniform>", "uniform in a stage",
		"let pw: f32 = 1.0f + ", "loop {", "switch (",
		"topology triangle-list", "topology triangle-strip", "cull none", "cull back", "cull front", "front face ccw", "front face cw", "instances",
		"discard before a derivative",
	} {
		assert.Greater(t, seen[want], 2, "construct %q appears in only %d of 200 programs", want, seen[want])
	}
}

// TestRenderFragmentsAreExactWhereTheGeneratorSaysSo draws programs
// through the reference's own stages — the vertex stage in interp,
// interp/raster's primitives and quads, the fragment stage in
// Program.RunQuadList — and checks render.go's discipline on what the
// fragment computes: no lane fails, and the integer outputs (@location
// 1 on) are exact at every covered pixel whose inputs are single values
// (a free flat either varying whose first and last vertices differ, or
// an ambiguous front_facing, is a two-member set, which these lanes
// leave to check's reference): the generated statements see exact
// values only, so the reference never forks on an interpolated one.
func TestRenderFragmentsAreExactWhereTheGeneratorSaysSo(t *testing.T) {
	cfg := renderConfig(t)
	lanes, exact, withInts, skipped, colourBound := 0, 0, 0, 0, 0
	for seed := uint64(0); seed < uint64(gen.TestCount(200, 40)); seed++ {
		p := gen.Generate(seed, cfg)
		m, d := p.Module, p.Draw
		vs, fs := m.Func(p.Vertex), m.Func(p.Kernel)
		vprog, err := interp.CompileBindings(m, p.Vertex, d.Bindings)
		require.NoError(t, err, "seed %d", seed)
		fprog, err := interp.CompileBindings(m, p.Kernel, d.Bindings)
		require.NoError(t, err, "seed %d", seed)
		opts := interp.Options{Textures: d.Textures, Samplers: d.Samplers}

		// The varyings' leaves, in the vertex outputs' order.
		var leaves []raster.Varying
		first := map[int]int{} // location → its first leaf
		var outs []wgsl.StageIO
		for _, o := range wgsl.StageOutputs(vs) {
			if o.Location < 0 {
				continue
			}
			first[o.Location] = len(leaves)
			outs = append(outs, o)
			for _, lt := range o.T.ComponentTypes() {
				in, err := raster.InterpOf(o.Interp, lt)
				require.NoError(t, err)
				leaves = append(leaves, raster.Varying{Type: lt, Interp: in})
			}
		}
		topo, _ := raster.ParseTopology(d.Topology)
		cull, _ := raster.ParseCullMode(d.CullMode)
		front, _ := raster.ParseFrontFace(d.FrontFace)
		rd := raster.Draw{Topology: topo, CullMode: cull, FrontFace: front, Width: d.Width, Height: d.Height, Varyings: leaves}
		for i := 0; i < d.InstanceCount; i++ {
			var args [][]ir.Value
			for v := 0; v < d.VertexCount; v++ {
				args = append(args, vertexArgs(t, vs, d, v, i))
			}
			invs, err := vprog.Run(args, opts)
			require.NoError(t, err, "seed %d", seed)
			var verts []raster.Vertex
			for _, inv := range invs {
				require.NoError(t, inv.Err, "seed %d", seed)
				ret := inv.Outputs[0].Value
				pos := vertexPosition(vs, ret)
				vx := raster.Vertex{}
				for k := range vx.Position {
					vx.Position[k] = pos.Elems[k].F32()
				}
				for _, o := range outs {
					v := ret
					if len(o.Path) > 0 {
						v = ret.Elems[o.Path[0]]
					}
					if v.Type.Kind == ir.KindVec {
						vx.Values = append(vx.Values, v.Elems...)
					} else {
						vx.Values = append(vx.Values, v)
					}
				}
				verts = append(verts, vx)
			}
			prims, err := raster.Rasterize(rd, verts)
			require.NoError(t, err, "seed %d", seed)
			for _, pr := range prims {
				if pr.Culled != raster.NotCulled {
					continue
				}
				var quads []interp.Quad
				var covered [][4]bool
				for _, q := range pr.Quads {
					var iq interp.Quad
					var cov [4]bool
					single := true
					for l, ln := range q.Lanes {
						a, tol, ok := fragmentLane(t, fs, &ln.Fragment, first, pr.FrontFacing())
						single = single && ok
						iq[l] = interp.QuadLane{Args: a, Tol: tol, Helper: ln.Coverage != raster.In || !ln.InTarget}
						cov[l] = ln.Coverage == raster.In && ln.InTarget
					}
					if single {
						quads = append(quads, iq)
						covered = append(covered, cov)
					} else {
						skipped++
					}
				}
				res, err := fprog.RunQuadList(quads, opts)
				require.NoError(t, err, "seed %d", seed)
				for qi := range res {
					for l, lr := range res[qi] {
						if !covered[qi][l] {
							continue
						}
						require.NoError(t, lr.Err, "seed %d:\n%s", seed, p)
						lanes++
						ret := lr.Outputs[0]
						ok := true
						n := len(ret.Value.Type.ComponentTypes())
						if n > 4 {
							withInts++
						}
						bound := true
						for k := 0; k < 4; k++ {
							bound = bound && (ret.Indeterminate == nil || !ret.Indeterminate[k])
						}
						if bound {
							colourBound++
						}
						for k := 4; k < n; k++ {
							if (ret.Indeterminate != nil && ret.Indeterminate[k]) || (ret.Tolerance != nil && ret.Tolerance[k] != 0) {
								ok = false
							}
						}
						assert.True(t, ok, "seed %d: an integer output is inexact:\n%s", seed, p)
						if ok {
							exact++
						}
					}
				}
			}
		}
	}
	t.Logf("%d covered lanes (%d with integer outputs), %d with exact integer outputs, %d whose colour is determinate (exact or within a bound); %d quads left out (two-member inputs)", lanes, withInts, exact, colourBound, skipped)
	assert.Greater(t, lanes, 1000)
	assert.Greater(t, withInts, lanes/5)
}

// fragmentLane returns fs's arguments at a fragment (and each leaf's
// tolerance), the varyings from first (location → its first leaf), and
// whether every input is a single value (within a tolerance).
func fragmentLane(t *testing.T, fs *ir.Func, f *raster.Fragment, first map[int]int, ff ir.ValueSet) ([]ir.Value, [][]float64, bool) {
	single := true
	one := func(s ir.ValueSet, lt *ir.Type) (ir.Value, float64) {
		if len(s.Values) != 1 || s.HasRange {
			single = false
			if len(s.Values) == 0 {
				return ir.Zero(lt), math.Inf(1)
			}
		}
		tol := 0.0
		if s.Tol != nil {
			tol = s.Tol[0]
		}
		return ir.Value{Type: lt, Bits: s.Values[0]}, tol
	}
	args := make([]ir.Value, len(fs.Params))
	tols := make([][]float64, len(fs.Params))
	members := map[int][]ir.Value{}
	for _, io := range wgsl.StageInputs(fs) {
		var v ir.Value
		var tl []float64
		leaf := func(s ir.ValueSet, lt *ir.Type) ir.Value {
			x, tol := one(s, lt)
			tl = append(tl, tol)
			return x
		}
		switch {
		case io.Builtin == "position":
			es := make([]ir.Value, 4)
			for k := range es {
				es[k] = leaf(f.Position[k], ir.F32)
			}
			v = ir.CompositeVal(io.T, es...)
		case io.Builtin == "front_facing":
			v = leaf(ff, ir.Bool)
		default:
			k := first[io.Location]
			cts := io.T.ComponentTypes()
			es := make([]ir.Value, len(cts))
			for c, lt := range cts {
				es[c] = leaf(f.Varyings[k+c], lt)
			}
			v = es[0]
			if io.T.Kind == ir.KindVec {
				v = ir.CompositeVal(io.T, es...)
			}
		}
		p := io.Path[0]
		tols[p] = append(tols[p], tl...)
		if len(io.Path) == 1 {
			args[p] = v
			continue
		}
		members[p] = append(members[p], v)
	}
	for p, ms := range members {
		args[p] = ir.CompositeVal(fs.Params[p].T, ms...)
	}
	return args, tols, single
}
