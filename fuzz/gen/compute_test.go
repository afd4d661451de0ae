package gen_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

func computeConfig(t testing.TB) gen.Config {
	p, err := gen.LookupProfile("compute")
	require.NoError(t, err)
	return gen.Config{Profile: p}
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
		c := &check.EntryCase{Module: p.Module, Entry: p.Kernel, Workgroups: p.Workgroups, Buffers: gen.Bindings(seed, p.Module)}
		res, err := check.ExecuteEntry(context.Background(), c, check.Options{Flat: true})
		require.NoError(t, err, "seed %d:\n%s", seed, p)
		assert.Empty(t, res.Races, "seed %d:\n%s", seed, p)
		assert.NoError(t, res.FlattenErr, "seed %d:\n%s", seed, p)
		assert.Equal(t, oracle.Pass, res.Verdict, "seed %d:\n%s", seed, p)
		for i, ref := range res.Reference {
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
	assert.Equal(t, "f38991e7a6a7c609", ir.Hash(b.String())[:16])
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
				if x.Op != ir.AtomicLoad {
					root := ir.RootIdent(x.Ptr()).Name
					if ops[root] == nil {
						ops[root] = map[ir.AtomicOp]bool{}
					}
					ops[root][x.Op] = true
				}
			case *ir.Decl:
				if a, ok := x.Init.(*ir.Atomic); ok {
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
