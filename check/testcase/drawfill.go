package testcase

import (
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// Made-up inputs of a draw (issue 39 Deliver 1: they must draw
// something; README "Made-up inputs of a draw"):
//
//   - Vertex attributes: an attribute the position may depend on
//     (drawdeps.go: directly, or through a matrix, a helper, a sum) is
//     given the corners of two triangles (madeTriangles), the first such
//     f32 attribute by location; every component of the others that
//     feed the position is madeFeedValue, 1/8, at every vertex (below);
//     every other f32 component a value in {0, 1/4, 1/2, 3/4, 1}
//     (colours, uvs: leaf k of the attribute is (k mod 5)/4), every
//     integer one k mod 4. One instance, whose instance-step attributes
//     get one element.
//   - The vertex count: six (two triangles) where an attribute feeds the
//     position; else, for a shader that places its vertices from a table
//     indexed by vertex_index, the table's length rounded down to a
//     multiple of 3 (at least 3, at most maxMadeVertices); else 3.
//   - Uniform and read-only storage buffers: every matrix the identity
//     (so a model-view-projection matrix keeps the triangles where they
//     are); with --fill not given, every other f32 leaf (1 + k mod 4)/8,
//     in {1/8, 1/4, 3/8, 1/2} (k counts the binding's non-matrix
//     leaves): never 0, so a shader that divides by a uniform
//     (GraphicsFuzz's gl_FragCoord.xy / resolution) gets a number; at
//     most 1/2, so a position's x, y or z read from a buffer beside a w
//     of 1 stays strictly inside the clip volume (|x|, |y| < w, 0 < z <
//     w: WebGPU #clipping), as a vec4 read whole from leaves 4i … 4i+3
//     does ((1/8, 1/4, 3/8, 1/2)), and a fraction of a turn 2π·x is an
//     angle in [−π, π], where WGSL bounds sin and cos (#floating-point-
//     accuracy: outside it their error is unbounded, so the reference
//     leaves them any value); every integer leaf 1 + k mod 16 (small's:
//     counts never 0, indices below 17); with --fill, its leaves (edges
//     is random's for a draw). A runtime-sized array has
//     madeRuntimeLength elements.
//   - Textures and samplers: as a fragment entry point's (FillTextures,
//     --fill's or small).
//   - The target: DefaultFragmentSize, cleared to DefaultClear, a
//     triangle list without culling, front face ccw.
//
// Why eighths for uniforms: (k mod 4)/4 made the first leaf 0, and
// GraphicsFuzz's shaders divide by it (72 of 380 vk-gl-cts passes had
// every pixel indeterminate); (1 + k mod 4)/4 reaches 1, so
// webgpu-samples' animometer.wgsl, whose fade (2·((scalarOffset +
// time·scalar/10) mod 1) where that is below 1/2) becomes 0.55 there,
// turns its triangles by 2π·0.55, past π, and its positions are any
// value (eighths: 0.2625, an angle of 1.65).
//
// Why 1/8 for the other attributes that feed the position (a zero
// there was an offset that kept the triangles put, but boids' rotation
// -atan2(vel.x, vel.y) of a zero velocity is indeterminate, so its
// position was any value): 1/8 is one pixel of the 16×16 target in clip
// units, so an offset added to the first attribute's corners (all
// within 0.75 of the centre, z in [1/4, 3/4]) moves them by a whole
// pixel — corners stay pixel corners — and up to two such offsets keep
// |x|, |y| ≤ 1 and z ≤ 1; a velocity (1/8, 1/8) rotates by −π/4, and
// webgpu-samples' computeBoids/sprite.wgsl and wgpu's boids/draw.wgsl
// then place each corner at particle_pos + rotate(a_pos) = corner +
// (√2/8, 0) ≈ corner + (0.18, 0): x ≤ 0.93, inside the clip volume. A
// scale factor shrinks the triangles (a pixel or two each), still
// inside.

// madeTriangles are the made-up positions, in framebuffer pixels of the
// 16×16 default target (y down) and depth: two triangles inside
// [-0.8, 0.8]² in normalized device coordinates, one counter-clockwise
// (front-facing under ccw), one clockwise, apart. Each corner is a
// pixel corner and each edge runs along (0, 1), (1, 0) or (1, 2), so
// every pixel centre is at least 0.5/√5 ≈ 0.22 px from every edge (an
// edge through integer points with direction (a, b), b − a odd, passes
// a centre (i + ½, j + ½) at a distance of at least ½/√(a² + b²)): no
// pixel is within 1/8 px of an edge.
var madeTriangles = [6][3]float32{
	{2, 2, 0.25}, {2, 12, 0.5}, {7, 12, 0.75}, // (−0.75, 0.75) (−0.75, −0.5) (−0.125, −0.5): ccw
	{9, 4, 0.75}, {14, 14, 0.5}, {9, 14, 0.25}, // (0.125, 0.5) (0.75, −0.75) (0.125, −0.75): cw
}

// madeClip is corner k of madeTriangles in clip space: x = px/8 − 1,
// y = 1 − py/8, z, w = 1 (exact in f32).
func madeClip(k int) [4]float32 {
	p := madeTriangles[k%len(madeTriangles)]
	return [4]float32{p[0]/8 - 1, 1 - p[1]/8, p[2], 1}
}

const (
	maxMadeVertices   = 192 // 64 triangles
	madeRuntimeLength = 64
	// madeFeedValue is every component of a made-up f32 attribute that
	// feeds the position other than the first (the file comment's why).
	madeFeedValue = 1.0 / 8
)

// madeVertexCount is the vertex count of a made-up draw of vs (above).
func madeVertexCount(a *depAnalysis, feeds bool) uint32 {
	if feeds {
		return uint32(len(madeTriangles))
	}
	n := a.vertexIndexArray() / 3 * 3
	return uint32(min(max(n, 3), maxMadeVertices))
}

// madeAttributes makes up the elements of every @location input of vs
// (attrSpec.elems, the format's components per element) given the
// vertex count: positions for the first f32 attribute the position
// depends on, madeFeedValue for the others that feed it, small values
// for the rest; instance-step attributes are not made up (every attribute a
// made-up draw has steps per vertex).
func madeAttributes(a *depAnalysis, attrs []*attrSpec, count uint32) {
	pos := a.positionDeps()
	first := true
	for _, at := range attrs {
		k := at.input
		feeds := k < 64 && pos&(1<<k) != 0 && at.io.T.Scalar().Kind == ir.KindF32
		n := VertexFormatComponents(at.format)
		at.elems = make([][]float64, count)
		for v := range at.elems {
			e := make([]float64, n)
			for c := range e {
				leaf := v*n + c
				switch {
				case feeds && first:
					e[c] = float64(madeClip(v)[c])
				case feeds:
					e[c] = madeFeedValue
				case at.io.T.Scalar().Kind == ir.KindF32:
					e[c] = float64(leaf%5) / 4
				default:
					e[c] = float64(leaf % 4)
				}
			}
			at.elems[v] = e
		}
		if feeds {
			first = false
		}
	}
}

// positionFed reports whether an f32 attribute of vs feeds its position.
func positionFed(a *depAnalysis) bool {
	pos := a.positionDeps()
	for k, in := range a.inputs {
		if k < 64 && pos&(1<<k) != 0 && in.Location >= 0 && in.T.Scalar().Kind == ir.KindF32 {
			return true
		}
	}
	return false
}

// madeBinding makes up the value of a uniform or read-only storage
// binding of type t for a draw (above): matrices the identity; fill ""
// the draw's own leaves, else fill's.
func madeBinding(t *ir.Type, fill Fill, fl *filler) ir.Value {
	switch t.Kind {
	case ir.KindAtomic:
		return madeBinding(t.Elem, fill, fl)
	case ir.KindMat:
		cols := make([]ir.Value, t.Len)
		for c := range cols {
			rows := make([]ir.Value, t.Elem.Len)
			for r := range rows {
				rows[r] = ir.F32Val(0)
				if r == c {
					rows[r] = ir.F32Val(1)
				}
			}
			cols[c] = ir.CompositeVal(t.Elem, rows...)
		}
		return ir.CompositeVal(t, cols...)
	case ir.KindVec, ir.KindArray, ir.KindRuntimeArray:
		count := t.Len
		if t.Kind == ir.KindRuntimeArray {
			count = madeRuntimeLength
		}
		es := make([]ir.Value, count)
		for i := range es {
			es[i] = madeBinding(t.Elem, fill, fl)
		}
		return ir.CompositeVal(t, es...)
	case ir.KindStruct:
		es := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = madeBinding(f.Type, fill, fl)
		}
		return ir.CompositeVal(t, es...)
	}
	if fill != "" {
		return fl.scalar(t)
	}
	k := fl.k
	fl.k++
	switch t.Kind {
	case ir.KindF32:
		return ir.F32Val(float32(1+k%4) / 8)
	case ir.KindBool:
		return ir.BoolVal(k%2 == 1)
	}
	return scalarOf(t, 1+k%16, 0)
}

// usedBindings are the uniform and storage bindings of m that the call
// graphs of entries read, in module order.
func usedBindings(m *ir.Module, entries ...string) []*ir.SharedVar {
	used := map[string]bool{}
	for _, e := range entries {
		if m.Func(e) == nil {
			continue
		}
		for _, f := range m.CallGraph(e) {
			ir.Inspect(f.Body, func(n ir.Node) bool {
				if id, ok := n.(*ir.Ident); ok && id.Ref == ir.RefShared {
					used[id.Name] = true
				}
				return true
			})
		}
	}
	var out []*ir.SharedVar
	for _, v := range m.Shared {
		if used[v.Name] && v.Space != ir.SpaceWorkgroup {
			out = append(out, v)
		}
	}
	return out
}

// stageInputsOf is wgsl.StageInputs, for the files that do not import wgsl.
func stageInputsOf(f *ir.Func) []wgsl.StageIO { return wgsl.StageInputs(f) }
