package shrink_test

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// drawSrc is a draw as a render campaign meets one: a vertex entry point
// with an attribute, vertex_index, a loop, a helper and a private global,
// whose output struct the fragment entry point takes whole; the fragment
// discards under a flat varying and calls a helper of its own. By hand,
// for p = (0.25, 0.5) and vertex_index 1: acc = 0 + 1 + 2 + 3 = 6,
// c = twice(6) + 1 = 13, k = 1 % 3 = 1; the fragment does not discard
// (k ≠ 2) and returns (shade(13), 13, 0, 1) = (6.5, 13, 0, 1).
const drawSrc = `
var<private> scale: f32 = 2.0;

struct VOut {
  @builtin(position) pos: vec4<f32>,
  @location(0) c: f32,
  @location(1) @interpolate(flat) k: u32,
}

fn twice(x: f32) -> f32 { return x * scale; }

@vertex
fn vs(@location(0) p: vec2<f32>, @builtin(vertex_index) vi: u32) -> VOut {
  var o: VOut;
  var acc = 0.0;
  for (var i = 0; i < 4; i++) {
    acc += f32(i);
  }
  o.pos = vec4<f32>(p, 0.5, 1.0);
  o.c = twice(acc) + f32(vi);
  o.k = vi % 3u;
  return o;
}

fn shade(c: f32) -> f32 {
  if (c > 100.0) {
    return 0.0;
  }
  return c * 0.5;
}

@fragment
fn fs(in: VOut) -> @location(0) vec4<f32> {
  if (in.k == 2u) {
    discard;
  }
  let s = shade(in.c);
  return vec4<f32>(s, in.c, 0.0, 1.0);
}
`

// checkDrawCandidate checks what every candidate of a draw keeps: both
// entry points, of their stages, a pair the front end's interface check
// takes, the vertex entry point's inputs and outputs and the fragment's
// outputs as they were, fragment inputs among the original's, and a
// module that verifies and is strictly smaller.
func checkDrawCandidate(t *testing.T, orig, cand shrink.Case, vertex, where string) {
	t.Helper()
	require.NoError(t, ir.Verify(cand.Module), where)
	vs, fs := cand.Module.Func(vertex), cand.Module.Func(cand.Kernel)
	require.NotNil(t, vs, "%s: the vertex entry point %s is kept:\n%s", where, vertex, ir.Print(cand.Module))
	require.NotNil(t, fs, where)
	assert.Equal(t, ir.StageVertex, vs.Stage, where)
	assert.Equal(t, ir.StageFragment, fs.Stage, where)
	require.NoError(t, wgsl.CheckInterface(vs, fs), "%s:\n%s", where, ir.Print(cand.Module))
	ovs, ofs := orig.Module.Func(vertex), orig.Module.Func(orig.Kernel)
	assert.Equal(t, ioOf(wgsl.StageInputs(ovs)), ioOf(wgsl.StageInputs(vs)), "%s: the vertex inputs", where)
	assert.Equal(t, ioOf(wgsl.StageOutputs(ovs)), ioOf(wgsl.StageOutputs(vs)), "%s: the vertex outputs", where)
	assert.Equal(t, ioOf(wgsl.StageOutputs(ofs)), ioOf(wgsl.StageOutputs(fs)), "%s: the fragment outputs", where)
	was := map[string]bool{}
	for _, io := range ioOf(wgsl.StageInputs(ofs)) {
		was[io] = true
	}
	for _, io := range ioOf(wgsl.StageInputs(fs)) {
		assert.True(t, was[io], "%s: fragment input %s was one of the original's", where, io)
	}
	assert.True(t, shrink.Smaller(cand, orig), where)
}

// ioOf is a stage's IO without positions or paths (a dropped fragment
// input renumbers the paths of those after it).
func ioOf(ios []wgsl.StageIO) []string {
	var out []string
	for _, io := range ios {
		out = append(out, fmt.Sprintf("%s %s loc %d %v %v", io.Name, io.Builtin, io.Location, io.T, io.Interp))
	}
	return out
}

// TestDrawCandidatesKeepBothEntryPoints: every candidate of a draw — its
// vertex entry point named (Case.Vertex) or inferred from the module
// (the only vertex entry point beside the fragment Kernel) — keeps the
// pair and its IO, and some candidates shrink each body. Before, cleanup
// kept only the fragment's call graph: every candidate lost vs.
func TestDrawCandidatesKeepBothEntryPoints(t *testing.T) {
	for _, vertex := range []string{"vs", ""} {
		t.Run("Vertex="+vertex, func(t *testing.T) {
			m := parse(t, drawSrc)
			c := shrink.Case{Module: m, Kernel: "fs", Vertex: vertex}
			assert.Equal(t, []string{"fs", "vs"}, shrink.Roots(c))
			before := ir.Print(m)
			vsStmts, fsStmts := shrink.Stmts(m, "vs"), shrink.Stmts(m, "fs")
			cands := shrink.Candidates(c)
			require.NotEmpty(t, cands)
			var vsShrunk, fsShrunk, fsInputDropped int
			for i, cand := range cands {
				checkDrawCandidate(t, c, cand, "vs", fmt.Sprintf("candidate %d", i))
				assert.Equal(t, vertex, cand.Vertex)
				if shrink.Stmts(cand.Module, "vs") < vsStmts {
					vsShrunk++
				}
				if shrink.Stmts(cand.Module, "fs") < fsStmts {
					fsShrunk++
				}
				if len(cand.Module.Func("fs").Params) == 0 {
					fsInputDropped++
				}
			}
			assert.Positive(t, vsShrunk, "some candidates shrink the vertex body")
			assert.Positive(t, fsShrunk, "some candidates shrink the fragment body")
			assert.Zero(t, fsInputDropped, "in is read: no candidate drops it")
			assert.Equal(t, before, ir.Print(m), "the case is left untouched")
		})
	}
}

// TestDrawCandidatesMayDropAnUnreadFragmentInput: the fragment input the
// body does not read (k, of a struct of its own) may go — the vertex
// output it read stays, which the interface allows — but no candidate
// drops the vertex entry point's unread attribute q (the draw's vertex
// buffer feeds it) nor a member of its output struct.
func TestDrawCandidatesMayDropAnUnreadFragmentInput(t *testing.T) {
	m := parse(t, `
struct VOut {
  @builtin(position) pos: vec4<f32>,
  @location(0) c: f32,
  @location(1) @interpolate(flat) k: u32,
}

@vertex
fn vs(@location(0) p: vec2<f32>, @location(1) q: f32) -> VOut {
  return VOut(vec4<f32>(p, 0.5, 1.0), 3.0, 1u);
}

@fragment
fn fs(@location(0) c: f32, @location(1) @interpolate(flat) k: u32) -> @location(0) vec4<f32> {
  return vec4<f32>(c);
}
`)
	c := shrink.Case{Module: m, Kernel: "fs", Vertex: "vs"}
	dropped := 0
	for i, cand := range shrink.Candidates(c) {
		checkDrawCandidate(t, c, cand, "vs", fmt.Sprintf("candidate %d", i))
		assert.Len(t, cand.Module.Func("vs").Params, 2, "candidate %d keeps q", i)
		if ps := cand.Module.Func("fs").Params; len(ps) == 1 {
			assert.Equal(t, "c", ps[0].Name)
			dropped++
		}
	}
	assert.Equal(t, 1, dropped, "one candidate drops k")
}

// TestDrawWithoutItsVertexEntryPointHasNoCandidates: a Case.Vertex that
// names no vertex entry point of the module gives no candidate.
func TestDrawWithoutItsVertexEntryPointHasNoCandidates(t *testing.T) {
	m := parse(t, drawSrc)
	assert.Empty(t, shrink.Candidates(shrink.Case{Module: m, Kernel: "fs", Vertex: "twice"}))
	assert.Empty(t, shrink.Candidates(shrink.Case{Module: m, Kernel: "fs", Vertex: "nope"}))
}

// drawShows13 is the synthetic failure of drawSrc: vertex 1 at
// p = (0.25, 0.5) feeds the fragment (its whole output, when the
// fragment still takes it), which is not discarded and whose red channel
// is 6.5.
func drawShows13(c shrink.Case) bool {
	vo, err := interp.Run(c.Module, "vs", [][]ir.Value{{ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(0.25), ir.F32Val(0.5)), ir.U32Val(1)}}, interp.Options{})
	if err != nil || vo[0].Err != nil {
		return false
	}
	var args []ir.Value
	if len(c.Module.Func(c.Kernel).Params) == 1 {
		args = []ir.Value{vo[0].Outputs[0].Value}
	}
	fo, err := interp.Run(c.Module, c.Kernel, [][]ir.Value{args}, interp.Options{})
	if err != nil || fo[0].Err != nil || fo[0].Discarded {
		return false
	}
	return fo[0].Outputs[0].Value.Elems[0].F32() == 6.5
}

// TestMinimizeDraw: a draw minimizes with both entry points and their IO
// kept, each body shrunk: the discard and shade's dead branch go, both
// helpers are inlined (the failure needs none of that: red is in.c / 2
// with in.c = 13 from the vertex stage), the vertex's unused outputs are
// no longer written (its statement count stays: twice inlined adds what
// o.pos and o.k took), and the result still fails. (The loop stays: acc = 6
// needs it, the shrinker's constants being 0 and 1.)
func TestMinimizeDraw(t *testing.T) {
	m := parse(t, drawSrc)
	c := shrink.Case{Module: m, Kernel: "fs", Vertex: "vs"}
	require.True(t, drawShows13(c), "the unshrunk case must fail")
	small := shrink.Minimize(c, drawShows13, 0)
	checkDrawCandidate(t, c, small, "vs", "minimum")
	require.True(t, drawShows13(small))
	text := ir.Print(small.Module)
	assert.Len(t, small.Module.Funcs, 2, "only the entry points are left:\n%s", text)
	for _, gone := range []string{"discard", "100.0", "o.pos", "o.k"} {
		assert.NotContains(t, text, gone, text)
	}
	assert.Less(t, shrink.Stmts(small.Module, "fs", "vs"), shrink.Stmts(m, "fs", "vs"))
	assert.Less(t, shrink.Stmts(small.Module, "fs"), shrink.Stmts(m, "fs"))
}

// TestRenderProgramCandidatesKeepTheDraw: the candidates of generated
// render programs (shrink.Stream as a campaign calls it, Case{Module,
// Kernel}, and as gen's gopter shrinker does) keep both entry points and
// a pair the front end takes: 3 programs, 12 under GPUDIFF_TEST_LONG=1.
// Before, every candidate lost the vertex entry point.
func TestRenderProgramCandidatesKeepTheDraw(t *testing.T) {
	prof, err := gen.LookupProfile("render")
	require.NoError(t, err)
	cfg := gen.Config{Profile: prof, Size: 14}
	total := 0
	for seed := uint64(0); seed < uint64(testCount(12, 3)); seed++ {
		p := gen.Generate(seed, cfg)
		require.True(t, p.IsDraw())
		for _, c := range []shrink.Case{{Module: p.Module, Kernel: p.Kernel}, {Module: p.Module, Kernel: p.Kernel, Vertex: p.Vertex}} {
			for i, cand := range shrink.Candidates(c) {
				total++
				checkDrawCandidate(t, c, cand, p.Vertex, fmt.Sprintf("seed %d candidate %d", seed, i))
			}
		}
	}
	t.Logf("%d candidates", total)

	// The gopter shrinker (gen.Programs' shrinkProgram: Case{Module,
	// Kernel}) keeps it too: the first 100 candidates of 3 programs (12).
	for gs := int64(0); gs < int64(testCount(12, 3)); gs++ {
		res := gen.Programs(cfg)(gopter.DefaultGenParameters().CloneWithSeed(gs))
		v, ok := res.Retrieve()
		require.True(t, ok)
		p := v.(*gen.Program)
		next := res.Shrinker(p)
		n := 0
		for ; n < 100; n++ {
			q, ok := next()
			if !ok {
				break
			}
			qp := q.(*gen.Program)
			checkDrawCandidate(t, shrink.Case{Module: p.Module, Kernel: p.Kernel}, shrink.Case{Module: qp.Module, Kernel: qp.Kernel}, p.Vertex, fmt.Sprintf("gopter seed %d candidate %d", gs, n))
		}
		assert.Positive(t, n, "gopter seed %d has candidates", gs)
	}
}

// TestUnreadBindingKeepsItsStruct: a candidate that drops the only read
// of a uniform binding (`let k = 0.0;` for `let k = u.k;`), so that no
// function mentions its struct type, keeps the binding (a case's inputs
// name it) and so the struct it is of. Before, cleanup dropped the struct no function
// mentioned any more and the candidate failed to verify ("unknown struct
// type U"): a render program whose fragment reads its uniform once had no
// candidate at all.
func TestUnreadBindingKeepsItsStruct(t *testing.T) {
	m := parse(t, `
struct U {
  k: f32,
}

@group(0) @binding(0) var<uniform> u: U;

@vertex
fn vs(@location(0) p: vec2<f32>) -> @builtin(position) vec4<f32> {
  return vec4<f32>(p, 0.5, 1.0);
}

@fragment
fn fs() -> @location(0) vec4<f32> {
  let k = u.k;
  return vec4<f32>(k, 0.0, 0.0, 1.0);
}
`)
	c := shrink.Case{Module: m, Kernel: "fs", Vertex: "vs"}
	unread := 0
	for i, cand := range shrink.Candidates(c) {
		checkDrawCandidate(t, c, cand, "vs", fmt.Sprintf("candidate %d", i))
		reads := false
		for _, f := range cand.Module.Funcs {
			ir.Inspect(f.Body, func(n ir.Node) bool {
				if e, ok := n.(ir.Expr); ok && (e.Type().Kind == ir.KindStruct || isIdent(e, "u")) {
					reads = true // u, or a value of its struct type
				}
				return true
			})
		}
		if !reads {
			unread++
			require.Len(t, cand.Module.Shared, 1, "the binding stays")
			require.Len(t, cand.Module.Structs, 1, "its struct stays:\n%s", ir.Print(cand.Module))
		}
	}
	assert.Positive(t, unread, "some candidates no longer read u")
}

func isIdent(e ir.Expr, name string) bool {
	id, ok := e.(*ir.Ident)
	return ok && id.Name == name
}
