package gen_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// profileConfig is the generator configuration of the named profile.
func profileConfig(t testing.TB, name string) gen.Config {
	p, err := gen.LookupProfile(name)
	require.NoError(t, err)
	return gen.Config{Profile: p}
}

func computeConfig(t testing.TB) gen.Config {
	return profileConfig(t, "compute")
}

// TestComputeProgramsAreRaceFree is the compute profile's discipline
// checked by the reference, which is exact about it: every generated
// entry point dispatches (no non-uniform barrier, no step limit) with no
// data race on the generator's own bindings, flatten accepts it (its
// barriers are uniform) and the twin agrees with it in the interpreter.
func TestComputeProgramsAreRaceFree(t *testing.T) {
	cfg := computeConfig(t)
	for seed := uint64(0); seed < 120; seed++ {
		p := gen.Generate(seed, cfg)
		require.True(t, p.IsEntry(), "seed %d", seed)
		c := &testcase.ComputeCase{Module: p.Module, Entry: p.Kernel, Workgroups: p.Workgroups, Buffers: testcase.MustBindingBuffers(p.Module, gen.Bindings(seed, p.Module))}
		res, err := check.Execute(context.Background(), c.Case(), check.Options{Flat: true})
		require.NoError(t, err, "seed %d:\n%s", seed, p)
		assert.Empty(t, res.Races, "seed %d:\n%s", seed, p)
		assert.NoError(t, res.FlattenErr, "seed %d:\n%s", seed, p)
		assert.Equal(t, oracle.Pass, res.Verdict, "seed %d:\n%s", seed, p)
		for i, ref := range res.Reference[0] {
			assert.Empty(t, ref.Indeterminate, "seed %d: binding %s has indeterminate leaves:\n%s", seed, res.Names[i], p)
		}
	}
}

// TestComputeProgramsRaceWithoutTheirBarriers shows the race check above
// can fail: the same programs with every barrier removed race (whenever
// a neighbour's slot is read) — the barriers are what makes them
// race-free.
func TestComputeProgramsRaceWithoutTheirBarriers(t *testing.T) {
	cfg := computeConfig(t)
	raced := 0
	for seed := uint64(0); seed < 40; seed++ {
		p := gen.Generate(seed, cfg)
		m := ir.CloneModule(p.Module)
		f := m.Func(p.Kernel)
		var strip func(b *ir.Block)
		strip = func(b *ir.Block) {
			out := b.Stmts[:0]
			for _, s := range b.Stmts {
				if es, ok := s.(*ir.ExprStmt); ok {
					if bc, ok := es.X.(*ir.BuiltinCall); ok && bc.Fn == ir.BWorkgroupBarrier {
						continue
					}
				}
				switch x := s.(type) {
				case *ir.Block:
					strip(x)
				case *ir.Loop:
					strip(x.Body)
				}
				out = append(out, s)
			}
			b.Stmts = out
		}
		strip(f.Body)
		d, err := interp.CompileEntry(m, p.Kernel)
		require.NoError(t, err)
		res, err := d.Run(gen.Bindings(seed, m), p.Workgroups, interp.Options{})
		require.NoError(t, err)
		if len(res.Races) > 0 {
			raced++
		}
	}
	assert.Greater(t, raced, 20, "most programs read a neighbour's slot, so most race without barriers")
}

// TestComputeProgramsRunOnEveryPath: each entry point is valid WGSL as
// emitted (the front end, uniformity analysis included, reads it back)
// and gpudiff's SPIR-V emitter takes it.
func TestComputeProgramsRunOnEveryPath(t *testing.T) {
	cfg := computeConfig(t)
	for seed := uint64(0); seed < 60; seed++ {
		p := gen.Generate(seed, cfg)
		src, err := wgsl.EmitEntry(p.Module, p.Kernel, wgsl.EmitOptions{})
		require.NoError(t, err, "seed %d", seed)
		m, err := wgsl.Parse("gen.wgsl", []byte(src))
		require.NoError(t, err, "seed %d:\n%s", seed, src)
		assert.Len(t, m.EntryPoints(), 1)
		_, err = spirv.Emit(p.Module, p.Kernel, spirv.Options{})
		assert.NoError(t, err, "seed %d", seed)
	}
}

// TestComputeProfileCoversItsConstructs: over 200 programs every
// construct the profile promises appears.
func TestComputeProfileCoversItsConstructs(t *testing.T) {
	cfg := computeConfig(t)
	seen := map[string]int{}
	for seed := uint64(0); seed < 200; seed++ {
		p := gen.Generate(seed, cfg)
		f := p.Module.Func(p.Kernel)
		text := p.String()
		if f.WorkgroupSize[1] > 1 {
			seen["2-D workgroup"]++
		} else {
			seen["1-D workgroup"]++
		}
		if p.Workgroups[0]*p.Workgroups[1] > 1 {
			seen["several workgroups"]++
		}
		if p.Workgroups[1] > 1 {
			seen["2-D dispatch"]++
		}
		for _, c := range []string{"var<uniform>", "array<array<", "atomicLoad", "atomicAdd", "atomicMax", "atomicXor", "loop {", "workgroupBarrier", "hist", "wcnt", "f32, ", "vec4<"} {
			if strings.Contains(text, c) {
				seen[c]++
			}
		}
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if l, ok := n.(*ir.Loop); ok && ir.Any(l.Body, func(n ir.Node) bool {
				bc, ok := n.(*ir.BuiltinCall)
				return ok && bc.Fn == ir.BWorkgroupBarrier
			}) {
				seen["barrier in a loop (reduction)"]++
			}
			return true
		})
	}
	for _, c := range []string{"1-D workgroup", "2-D workgroup", "several workgroups", "2-D dispatch", "var<uniform>", "array<array<",
		"atomicLoad", "atomicAdd", "atomicMax", "atomicXor", "loop {", "hist", "wcnt", "f32, ", "vec4<", "barrier in a loop (reduction)"} {
		assert.Greater(t, seen[c], 3, "%s", c)
	}
	assert.Equal(t, 200, seen["workgroupBarrier"])
}

// TestComputeProgramsAreDeterministic pins the compute profile's first
// programs: a seed names the same program, dispatch and bindings on
// every machine and Go version.
func TestComputeProgramsAreDeterministic(t *testing.T) {
	cfg := computeConfig(t)
	var b strings.Builder
	for seed := uint64(0); seed < 20; seed++ {
		p := gen.Generate(seed, cfg)
		q := gen.Generate(seed, cfg)
		require.Equal(t, p.String(), q.String())
		fmt.Fprintf(&b, "%s %v\n", p.String(), p.Workgroups)
		bs := gen.Bindings(seed, p.Module)
		for _, v := range p.Module.Shared {
			if x, ok := bs[v.Name]; ok {
				fmt.Fprintf(&b, "%s=%s\n", v.Name, x.String())
			}
		}
	}
	assert.Equal(t, "c90888253a309669", ir.Hash(b.String())[:16])
}

// TestComputeAtomicsAreOrderIndependent: the reference's race detector
// cannot see what makes atomics order-dependent (every access is atomic),
// so the discipline is checked on the program text: every atomic array
// gets one read-modify-write operation (two different ones do not
// commute: max after add is not add after max), and no read-modify-write
// result is used (only atomicLoad's, after a barrier).
func TestComputeAtomicsAreOrderIndependent(t *testing.T) {
	cfg := computeConfig(t)
	mixed := 0
	for seed := uint64(0); seed < 300; seed++ {
		p := gen.Generate(seed, cfg)
		ops := map[string]map[ir.AtomicOp]bool{}
		ir.Inspect(p.Module.Func(p.Kernel).Body, func(n ir.Node) bool {
			switch x := n.(type) {
			case *ir.Atomic:
				if ir.RootIdent(x.Ptr()).Name == "wst" {
					// Profile.AtomicStores' own-slot array: stores and
					// exchanges of wst[li] only (atomicLoads of any slot,
					// after a barrier).
					if x.Op != ir.AtomicLoad {
						assert.Contains(t, []ir.AtomicOp{ir.AtomicStore, ir.AtomicExchange}, x.Op, "seed %d: wst gets %v", seed, x.Op)
						ix, ok := x.Ptr().(*ir.Index)
						id, isID := ir.Expr(nil), false
						if ok {
							id, isID = ix.Index.(*ir.Ident)
						}
						assert.True(t, isID && id.(*ir.Ident).Name == "li", "seed %d: %v of wst not at the invocation's own slot", seed, x.Op)
					}
					return true
				}
				if x.Op != ir.AtomicLoad {
					root := ir.RootIdent(x.Ptr()).Name
					if ops[root] == nil {
						ops[root] = map[ir.AtomicOp]bool{}
					}
					ops[root][x.Op] = true
				}
			case *ir.Decl:
				if a, ok := x.Init.(*ir.Atomic); ok && ir.RootIdent(a.Ptr()).Name != "wst" {
					assert.Equal(t, ir.AtomicLoad, a.Op, "seed %d: a read-modify-write's result is used", seed)
				}
			}
			return true
		})
		for name, set := range ops {
			if len(set) > 1 {
				mixed++
				t.Errorf("seed %d: %s gets %d different read-modify-writes", seed, name, len(set))
			}
		}
	}
	assert.Zero(t, mixed)
}

// matrixConstructs lists the matrix constructs of a compute program
// (compute_matrix.go), by name.
func matrixConstructs(p *gen.Program) map[string]bool {
	seen := map[string]bool{}
	for _, v := range p.Module.Shared {
		if v.T.Kind == ir.KindArray && v.T.Elem.IsMat() {
			seen[v.Name] = true
			seen[fmt.Sprintf("%s %v", v.Space, v.T.Elem)] = true
			if v.T.Elem.Rows() == 3 && v.Space != ir.SpaceWorkgroup {
				seen["matCx3 binding"] = true
			}
		}
	}
	isMat := func(e ir.Expr) bool { return e.Type().IsMat() }
	ir.Inspect(p.Module.Func(p.Kernel).Body, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Binary:
			switch {
			case x.Op == ir.OpAdd && isMat(x.X):
				seen["mat + mat"] = true
			case x.Op == ir.OpSub && isMat(x.X):
				seen["mat - mat"] = true
			case x.Op == ir.OpMul && isMat(x.X) && isMat(x.Y):
				seen["mat * mat"] = true
			case x.Op == ir.OpMul && isMat(x.X) && x.Y.Type().Kind == ir.KindVec:
				seen["mat * vec"] = true
			case x.Op == ir.OpMul && isMat(x.Y) && x.X.Type().Kind == ir.KindVec:
				seen["vec * mat"] = true
			case x.Op == ir.OpMul && isMat(x.Y):
				seen["f32 * mat"] = true
			case x.Op == ir.OpMul && isMat(x.X):
				seen["mat * f32"] = true
			}
		case *ir.BuiltinCall:
			if x.Fn == ir.BTranspose {
				seen["transpose"] = true
			}
			if x.Fn == ir.BDeterminant {
				seen[fmt.Sprintf("determinant %v", x.Args[0].Type())] = true
			}
		case *ir.Index:
			if isMat(x.X) {
				_, c := x.Index.(*ir.Lit)
				seen[map[bool]string{true: "m[const]", false: "m[run-time]"}[c]] = true
				if in, ok := x.X.(*ir.Index); ok && in.X.Type().Kind == ir.KindArray {
					seen["column of a matrix array element"] = true
				}
			}
			if in, ok := x.X.(*ir.Index); ok && isMat(in.X) {
				seen["m[i][j]"] = true
			}
			if id, ok := x.X.(*ir.Ident); ok && id.Name == "mtile" {
				if li, ok := x.Index.(*ir.Ident); !ok || li.Name != "li" {
					seen["mtile neighbour read"] = true
				}
			}
		case *ir.Assign:
			root := ir.RootIdent(x.LHS)
			if root == nil || !(root.T.IsMat() || root.T.Kind == ir.KindArray && root.T.Elem.IsMat()) {
				break
			}
			what := "whole"
			if lt := x.LHS.Type(); lt.Kind == ir.KindVec {
				what = "column"
			} else if lt.Kind == ir.KindF32 {
				what = "element"
			}
			if x.Op != ir.OpNone {
				what = "compound " + x.Op.String()
			}
			name := root.Name
			if root.Ref == ir.RefVar {
				name = "var"
			}
			seen[name+" "+what] = true
		case *ir.Call:
			if strings.HasPrefix(x.Func, "mh") {
				seen["matrix helper call"] = true
			}
		case *ir.Loop:
			if ir.Any(x.Body, func(n ir.Node) bool {
				ix, ok := n.(*ir.Index)
				if !ok {
					return false
				}
				_, id := ix.Index.(*ir.Ident)
				return isMat(ix.X) && id
			}) {
				seen["loop over columns"] = true
			}
		case *ir.If:
			if ir.Any(x.Then, func(n ir.Node) bool {
				a, ok := n.(*ir.Assign)
				return ok && ir.RootIdent(a.LHS).T.IsMat()
			}) {
				seen["matrix store under if"] = true
			}
		}
		return true
	})
	return seen
}

// TestComputeProfileCoversMatrices: over 200 programs every matrix
// construct the compute profile promises appears (compute_matrix.go),
// in about half of the programs.
func TestComputeProfileCoversMatrices(t *testing.T) {
	cfg := computeConfig(t)
	count := map[string]int{}
	withMatrices := 0
	for seed := uint64(0); seed < 200; seed++ {
		p := gen.Generate(seed, cfg)
		cs := matrixConstructs(p)
		if len(cs) > 0 {
			withMatrices++
		}
		for c := range cs {
			count[c]++
		}
	}
	t.Logf("%d programs with matrices; %v", withMatrices, count)
	assert.InDelta(t, 100, withMatrices, 30)
	want := []string{"minp", "mout", "mtile", "matCx3 binding", "mat + mat", "mat - mat", "mat * mat", "mat * vec", "vec * mat", "f32 * mat", "mat * f32",
		"mtile neighbour read", "transpose", "determinant mat2x2<f32>", "determinant mat3x3<f32>", "determinant mat4x4<f32>", "m[const]", "m[run-time]", "m[i][j]",
		"column of a matrix array element", "mtile whole", "mtile column", "mtile element", "mout whole", "mout column", "mout element",
		"var whole", "var column", "var element", "var compound +", "var compound *", "matrix store under if", "matrix helper call", "loop over columns"}
	for _, c := range want {
		assert.Greater(t, count[c], 2, "%s", c)
	}
	for c := 2; c <= 4; c++ {
		for r := 2; r <= 4; r++ {
			mt := ir.Mat(c, r).String()
			assert.Greater(t, count["workgroup "+mt]+count["storage "+mt], 0, "%s", mt)
		}
	}
}

// TestComputeMatrixSlotsRaceWhenShared shows the reference's race check,
// on which TestComputeProgramsAreRaceFree and the campaign's shrinking
// (campaign.entryStillFails) rely, sees matrix locations: the same
// programs with every store to their own mtile slot (mtile[li] …) or
// their own mout slot (mout[gi] …) redirected to slot 0 race on it.
// (An mtile program is cut after the barrier that ends the first
// redirected store's phase: a later branch on the racing, so
// indeterminate, value would stop the invocation before the next
// barrier, which the reference reports as a non-uniform barrier instead.)
func TestComputeMatrixSlotsRaceWhenShared(t *testing.T) {
	cfg := computeConfig(t)
	raced := map[string]int{}
	for seed := uint64(0); seed < 80; seed++ {
		p := gen.Generate(seed, cfg)
		for _, name := range []string{"mtile", "mout"} {
			v := p.Module.SharedVar(name)
			if v == nil {
				continue
			}
			m := ir.CloneModule(p.Module)
			f := m.Func(p.Kernel)
			first := -1
			for i, st := range f.Body.Stmts {
				a, ok := st.(*ir.Assign)
				if !ok {
					continue
				}
				for x := a.LHS; ; {
					ix, ok := x.(*ir.Index)
					if !ok {
						break
					}
					if id, ok := ix.X.(*ir.Ident); ok && id.Name == name {
						ix.Index = &ir.Lit{Val: ir.U32Val(0)}
						if first < 0 {
							first = i
						}
						break
					}
					x = ix.X
				}
			}
			wg := p.Workgroups
			if first < 0 || (name == "mtile" && f.WorkgroupSize[0]*f.WorkgroupSize[1] == 1) ||
				f.WorkgroupSize[0]*f.WorkgroupSize[1]*f.WorkgroupSize[2]*wg[0]*wg[1]*wg[2] == 1 { // one invocation races with no one
				continue
			}
			if name == "mtile" {
				for i := first; i < len(f.Body.Stmts); i++ {
					if es, ok := f.Body.Stmts[i].(*ir.ExprStmt); ok {
						if bc, ok := es.X.(*ir.BuiltinCall); ok && bc.Fn == ir.BWorkgroupBarrier {
							f.Body.Stmts = f.Body.Stmts[:i+1]
							break
						}
					}
				}
			}
			require.NoError(t, ir.Verify(m))
			d, err := interp.CompileEntry(m, p.Kernel)
			require.NoError(t, err)
			res, err := d.Run(gen.Bindings(seed, m), p.Workgroups, interp.Options{})
			require.NoError(t, err)
			hit := false
			for _, r := range res.Races {
				hit = hit || r.Var == name
			}
			assert.True(t, hit, "seed %d: %s slot 0 written by every invocation, yet no race on it: %v\n%s", seed, name, res.Races, ir.Print(m))
			raced[name]++
		}
	}
	t.Logf("programs racing once their matrix slots are shared: %v", raced)
	assert.Greater(t, raced["mtile"], 10)
	assert.Greater(t, raced["mout"], 10)
}
