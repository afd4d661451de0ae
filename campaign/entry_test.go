package campaign

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/fuzz/shrink"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// TestComputeCampaignChecksShrinksAndSavesEntryPoints: a campaign of the
// compute profile checks entry points with check.Execute (runs of
// main and main_flat on the device), and a stack that miscomputes one
// program's original (injected: its WGSL dispatch's output bytes
// flipped, campaign and shrinking runs alike) gives one failure, shrunk
// without losing a barrier and with no race in its reference, saved as
// an entry case file that reads back with its workgroups and bindings
// and still fails when replayed on the same stack.
func TestComputeCampaignChecksShrinksAndSavesEntryPoints(t *testing.T) {
	d, err := harness.Open("wgpu-vulkan:llvmpipe")
	require.NoError(t, err)
	defer d.Close()
	prof, err := gen.LookupProfile("compute")
	require.NoError(t, err)
	fd := &faultyDevice{Device: d, corrupt: "p2/main/wgsl"}
	shrinkFd := &faultyDevice{Device: d, corrupt: "s2/main/wgsl"}
	dir := t.TempDir()
	var recs []ProgramRecord
	cfg := Config{Seed: 1, Count: 4, Gen: gen.Config{Profile: prof}, Devices: []check.Device{&twoLabels{fd, shrinkFd}},
		ShrinkAttempts: 60, Corpus: dir, ToolVersion: "test", OnProgram: func(r ProgramRecord) { recs = append(recs, r) }}
	sum, err := RunCampaign(context.Background(), cfg)
	require.NoError(t, err)
	require.Len(t, recs, 4)
	for _, r := range recs {
		assert.Contains(t, []string{"interp", "wgpu-vulkan:llvmpipe"}, r.Runs[len(r.Runs)-1].Adapter)
		if r.Index != 2 {
			assert.Equal(t, "pass", r.Verdict, "program %d", r.Index)
			assert.Empty(t, r.Signature)
			continue
		}
		assert.Equal(t, "mismatch", r.Verdict)
		assert.Equal(t, []check.Class{check.ClassStack}, r.Classes)
		assert.Less(t, r.ShrunkStmts, r.Stmts, "shrunk")
		require.NotEmpty(t, r.Case)
		src, err := os.ReadFile(filepath.Join(dir, r.Case))
		require.NoError(t, err)
		c, ec, rec, err := testcase.ParseCaseFile(r.Case, src)
		require.NoError(t, err)
		require.Nil(t, c)
		require.NotNil(t, ec)
		assert.Equal(t, []uint32{ec.Workgroups[0], ec.Workgroups[1], ec.Workgroups[2]}, rec.Workgroups)
		p := gen.Generate(r.Seed, gen.Config{Profile: prof})
		assert.Equal(t, p.Workgroups, ec.Workgroups)
		assert.Equal(t, barriers(p.Module, p.Kernel), barriers(ec.Module, ec.Entry), "shrinking keeps every barrier")
		res, err := check.Execute(context.Background(), ec.Case(), check.Options{Devices: []check.Device{&faultyDevice{Device: d, corrupt: "main/wgsl"}}, Flat: rec.Flat})
		require.NoError(t, err)
		assert.Empty(t, res.Races)
		assert.Equal(t, check.ClassStack, res.Findings()[0].Class, "the saved case still fails on the faulty stack")
	}
	assert.Equal(t, 1, sum.New)
}

// twoLabels runs campaign dispatches on a and shrinking ones ("s…") on b.
type twoLabels struct{ a, b *faultyDevice }

func (t *twoLabels) Info() harness.AdapterInfo { return t.a.Info() }
func (t *twoLabels) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	if len(k.Label) > 0 && k.Label[0] == 's' {
		return t.b.Run(ctx, k, job)
	}
	return t.a.Run(ctx, k, job)
}

// mtileExchange reports whether entry writes mtile[li] (whole, a column
// or an element) and reads another invocation's mtile slot.
func mtileExchange(m *ir.Module, entry string) bool {
	own, other := false, false
	f := m.Func(entry)
	if f == nil || m.SharedVar("mtile") == nil {
		return false
	}
	ir.Inspect(f.Body, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Assign:
			for l := x.LHS; ; {
				ix, ok := l.(*ir.Index)
				if !ok {
					break
				}
				if id, ok := ix.X.(*ir.Ident); ok && id.Name == "mtile" {
					li, ok := ix.Index.(*ir.Ident)
					own = own || ok && li.Name == "li"
					break
				}
				l = ix.X
			}
			ir.Inspect(x.RHS, func(n ir.Node) bool {
				other = other || mtileRead(n)
				return true
			})
			return false
		case *ir.Decl:
			if x.Init != nil {
				ir.Inspect(x.Init, func(n ir.Node) bool {
					other = other || mtileRead(n)
					return true
				})
			}
			return false
		}
		return true
	})
	return own && other
}

// mtileRead reports whether n reads an mtile slot at an index other
// than li.
func mtileRead(n ir.Node) bool {
	ix, ok := n.(*ir.Index)
	if !ok {
		return false
	}
	id, ok := ix.X.(*ir.Ident)
	if !ok || id.Name != "mtile" {
		return false
	}
	li, ok := ix.Index.(*ir.Ident)
	return !ok || li.Name != "li"
}

// TestShrinkingMatrixEntryPointsStaysRaceFree: the shrinker proposes
// candidates of the compute profile's matrix programs that race on a
// matrix location (a store to mtile[li] made mtile[0u], a neighbour's
// slot read in the write phase, …); the reference reports them (or stops
// at a barrier the racing value made non-uniform) and the campaign's
// shrinking predicate, stillFails, turns every such candidate down
// before it asks about the finding. Minimizing a matrix program under
// that discipline, keeping only "it still exchanges a matrix through
// mtile", gives a smaller program that still does, race-free, with every
// barrier.
func TestShrinkingMatrixEntryPointsStaysRaceFree(t *testing.T) {
	ctx := context.Background()
	prof, err := gen.LookupProfile("compute")
	require.NoError(t, err)
	cfg := gen.Config{Profile: prof}
	racy, refused, programs := 0, 0, 0
	var first *gen.Program
	for seed := uint64(0); seed < 40 && programs < 4; seed++ {
		p := gen.Generate(seed, cfg)
		f := p.Module.Func(p.Kernel)
		if !mtileExchange(p.Module, p.Kernel) || f.WorkgroupSize[0]*f.WorkgroupSize[1] < 2 {
			continue
		}
		programs++
		if first == nil {
			first = p
		}
		orig := testcase.NewComputeCase(p.Module, p.Kernel, p.Workgroups, testcase.MustBindingBuffers(p.Module, gen.Bindings(p.Seed, p.Module)))
		next := shrink.Stream(shrink.Case{Module: p.Module, Kernel: p.Kernel})
		for k := 0; k < 400; k++ {
			cand, ok := next()
			if !ok {
				break
			}
			res, err := check.Execute(ctx, orig.WithFunction(cand.Module, cand.Kernel, nil), check.Options{})
			onMatrix := false
			if err == nil {
				for _, r := range res.Races {
					onMatrix = onMatrix || r.Var == "mtile" || r.Var == "mout"
				}
			}
			if onMatrix {
				racy++
			}
			if err != nil || len(res.Races) > 0 {
				refused++
				assert.False(t, stillFails(ctx, p, orig, cand, check.Options{Flat: true}, check.Finding{Class: check.ClassFlatten}),
					"seed %d: a racing candidate passes the shrinking predicate:\n%s", p.Seed, ir.Print(cand.Module))
			}
		}
	}
	require.Equal(t, 4, programs)
	t.Logf("%d candidates race on a matrix location, %d refused in all", racy, refused)
	assert.Greater(t, racy, 0, "the shrinker proposes matrix races: the predicate's race check is what keeps them out")

	orig := testcase.NewComputeCase(first.Module, first.Kernel, first.Workgroups, testcase.MustBindingBuffers(first.Module, gen.Bindings(first.Seed, first.Module)))
	small := shrink.Minimize(shrink.Case{Module: first.Module, Kernel: first.Kernel}, func(sc shrink.Case) bool {
		if barriers(sc.Module, sc.Kernel) < barriers(orig.Module, orig.Func.Name) || !mtileExchange(sc.Module, sc.Kernel) {
			return false
		}
		r, err := check.Execute(ctx, orig.WithFunction(sc.Module, sc.Kernel, nil), check.Options{})
		return err == nil && len(r.Races) == 0
	}, 300)
	assert.Less(t, shrink.Stmts(small.Module, small.Kernel), shrink.Stmts(first.Module, first.Kernel))
	t.Logf("seed %d: %d → %d statements, still exchanging a matrix", first.Seed, shrink.Stmts(first.Module, first.Kernel), shrink.Stmts(small.Module, small.Kernel))
	assert.True(t, mtileExchange(small.Module, small.Kernel))
	res, err := check.Execute(ctx, orig.WithFunction(small.Module, small.Kernel, nil), check.Options{Flat: true})
	require.NoError(t, err)
	assert.Empty(t, res.Races)
	assert.NoError(t, res.FlattenErr)
}

// TestShrunkEntryFitsBindingsToShrunkStructs: the shrinker drops an unused
// member of a binding's struct without renaming the struct (Params keeps
// its name), so the original's value of prm no longer fits: Case.WithFunction
// keeps the values of the members the candidate still has, by name, so
// the candidate runs on the original's inputs and its case file reads
// back (it failed with "struct Params has no member f0" and the case was
// not saved). Bindings the candidate dropped are left out.
func TestShrunkEntryFitsBindingsToShrunkStructs(t *testing.T) {
	parse := func(src string) *ir.Module {
		m, err := wgsl.Parse("e.wgsl", []byte(src))
		require.NoError(t, err)
		return m
	}
	orig := parse(`struct Params { f0: u32, f1: i32, }
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read_write> out: array<i32, 2>;
@group(0) @binding(2) var<storage, read_write> hist: array<atomic<u32>, 2>;
@group(0) @binding(3) var<storage, read> extra: array<u32, 2>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li: u32) {
  out[li] = prm.f1 + i32(prm.f0 + extra[li]);
  atomicAdd(&hist[li], 1u);
}`)
	cand := parse(`struct Params { f1: i32, }
@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read_write> out: array<i32, 2>;
@group(0) @binding(2) var<storage, read_write> hist: array<atomic<u32>, 2>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) li: u32) {
  out[li] = prm.f1;
  atomicAdd(&hist[li], 1u);
}`)
	pt := orig.SharedVar("prm").T
	oc := testcase.NewComputeCase(orig, "main", [3]uint32{1, 1, 1}, testcase.MustBindingBuffers(orig, map[string]ir.Value{
		"prm":   ir.CompositeVal(pt, ir.U32Val(7), ir.I32Val(-3)),
		"out":   ir.CompositeVal(orig.SharedVar("out").T, ir.I32Val(5), ir.I32Val(6)),
		"hist":  {Type: orig.SharedVar("hist").T, Elems: []ir.Value{ir.U32Val(1), ir.U32Val(2)}},
		"extra": ir.CompositeVal(orig.SharedVar("extra").T, ir.U32Val(1), ir.U32Val(2)),
	}))
	res, err := check.Execute(context.Background(), oc, check.Options{})
	require.NoError(t, err)
	require.Equal(t, "array<i32, 2>(5i, 6i)", res.Reference[0][0].Val().String(), "out: -3 + (7 + extra[li])")

	c := oc.WithFunction(cand, "main", nil)
	require.NotContains(t, c.Bindings, "extra", "dropped with its declaration")
	cv := testcase.BindingValues(c.Bindings)
	prm := cv["prm"]
	require.Len(t, prm.Elems, 1)
	assert.Same(t, cand.SharedVar("prm").T.Struct, prm.Type.Struct)
	assert.Equal(t, int32(-3), prm.Elems[0].I32(), "f1 keeps its value")
	assert.Equal(t, "array<atomic<u32>, 2>(1u, 2u)", cv["hist"].String())
	res, err = check.Execute(context.Background(), c, check.Options{})
	require.NoError(t, err)
	for i, name := range res.Names {
		if name == "out" {
			assert.Equal(t, "array<i32, 2>(-3i, -3i)", res.Reference[0][i].Val().String())
		}
	}
	rec := check.NewCaseRecord(c, res, check.Options{}, "test")
	data, err := testcase.MarshalCase(c.Module, rec)
	require.NoError(t, err)
	_, ec, _, err := testcase.ParseCaseFile("shrunk.wgsl", data)
	require.NoError(t, err, "the shrunk case reads back:\n%s", data)
	assert.Equal(t, int32(-3), testcase.BindingValues(ec.Buffers)["prm"].Elems[0].I32())
}
