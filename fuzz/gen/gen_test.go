package gen

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// programsPerProfile is how many seeds each whole-corpus test checks per
// profile: 2000 under GPUDIFF_TEST_LONG=1 (make test-long), the first 500
// in make test.
var programsPerProfile = testCount(2000, 500)

func mustProfile(t testing.TB, name string) Profile {
	p, err := LookupProfile(name)
	require.NoError(t, err)
	return p
}

// forEachProgram generates seeds 0..n-1 of every profile.
func forEachProgram(t *testing.T, n int, f func(t *testing.T, p *Program)) {
	for _, prof := range kernelProfiles() {
		t.Run(prof.Name, func(t *testing.T) {
			for seed := uint64(0); seed < uint64(n); seed++ {
				p := Generate(seed, Config{Profile: prof})
				f(t, p)
				if t.Failed() {
					t.Logf("profile %s seed %d:\n%s", prof.Name, seed, p)
					return
				}
			}
		})
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	for _, prof := range kernelProfiles() {
		for seed := uint64(0); seed < 50; seed++ {
			a := Generate(seed, Config{Profile: prof})
			b := Generate(seed, Config{Profile: prof})
			require.Equal(t, ir.Print(a.Module), ir.Print(b.Module), "profile %s seed %d", prof.Name, seed)
			assert.Equal(t, seed, a.Seed)
			assert.Equal(t, a.OutsideSubset, b.OutsideSubset)
		}
	}
}

func TestDifferentSeedsGiveDifferentPrograms(t *testing.T) {
	seen := map[string]uint64{}
	for seed := uint64(0); seed < 500; seed++ {
		h := ir.Hash(ir.Print(Generate(seed, Config{}).Module))
		if prev, dup := seen[h]; dup {
			t.Fatalf("seeds %d and %d generate the same program", prev, seed)
		}
		seen[h] = seed
	}
}

// TestGeneratedProgramHashesArePinned guards determinism across machines,
// Go versions and refactorings: a change here means every campaign seed now
// names a different program. It pins a structural fingerprint of the IR
// (structure, names, types, operators, constant bits), not ir.Print, so a
// change of the shared printer does not look like a generator change.
// Update the hashes only for a deliberate change of the generator (and say
// so in the commit).
func TestGeneratedProgramHashesArePinned(t *testing.T) {
	pinned := []struct {
		profile string
		seed    uint64
		hash    string
	}{
		{"default", 1, "6eec399ae70ed2e3"},
		{"default", 42, "b6068fb8fa348339"},
		{"control", 7, "af5a1e60e8deb1bf"},
		{"loops", 7, "f5510d3250aa85cf"},
		{"calls", 7, "e1edc30b18ba23f9"},
		{"data", 7, "ea858a2eda8613e3"},
		{"refusal", 3, "a5350b3ca3bc3c14"},
	}
	for _, p := range pinned {
		got := structuralHash(Generate(p.seed, Config{Profile: mustProfile(t, p.profile)}).Module)
		assert.Equal(t, p.hash, got, "profile %s seed %d", p.profile, p.seed)
	}
	got := structuralHash(FromBytes([]byte("gpudiff"), Config{}).Module)
	assert.Equal(t, "c30cb00b907f89d2", got, "FromBytes(\"gpudiff\")")
}

// structuralHash fingerprints m independently of the printer.
func structuralHash(m *ir.Module) string {
	var b strings.Builder
	w := func(args ...any) {
		fmt.Fprint(&b, args...)
		b.WriteByte(' ')
	}
	var val func(v ir.Value)
	val = func(v ir.Value) {
		w(v.Type.String(), v.Bits, len(v.Elems))
		for _, e := range v.Elems {
			val(e)
		}
	}
	node := func(n ir.Node) bool {
		w(fmt.Sprintf("%T", n))
		switch x := n.(type) {
		case *ir.Lit:
			val(x.Val)
		case *ir.Ident:
			w(x.Name, x.T.String(), int(x.Ref))
		case *ir.Unary:
			w(x.Op.String())
		case *ir.Binary:
			w(x.Op.String())
		case *ir.Call:
			w(x.Func)
		case *ir.BuiltinCall:
			w(x.Fn.String())
		case *ir.Construct:
			w(x.T.String())
		case *ir.Convert:
			w(x.T.String())
		case *ir.Bitcast:
			w(x.T.String())
		case *ir.Member:
			w(x.Field)
		case *ir.Swizzle:
			w(x.Comps)
		case *ir.Decl:
			w(x.Name, x.T.String(), x.Mutable)
		case *ir.Assign:
			w(x.Op.String())
		case *ir.Case:
			w(x.Default)
			for _, v := range x.Values {
				val(v)
			}
		}
		return true
	}
	for _, s := range m.Structs {
		w("struct", s.Name)
		for _, f := range s.Fields {
			w(f.Name, f.Type.String())
		}
	}
	for _, g := range m.Globals {
		w("global", g.Name, g.T.String())
		if g.Init != nil {
			ir.Inspect(g.Init, node)
		}
	}
	for _, f := range m.Funcs {
		w("fn", f.Name, f.Result.String())
		for _, p := range f.Params {
			w(p.Name, p.T.String())
		}
		ir.Inspect(f.Body, node)
	}
	return ir.Hash(b.String())[:16]
}

func TestProgramSeedIsStableAndMixed(t *testing.T) {
	assert.Equal(t, uint64(0x8359fff62713a185), ProgramSeed(1, 0))
	assert.Equal(t, uint64(0x93118a61ed9e9e14), ProgramSeed(1, 1))
	assert.Equal(t, uint64(0x15ffaa759dcd046f), ProgramSeed(2, 0))
	seen := map[uint64]bool{}
	for c := uint64(0); c < 20; c++ {
		for i := 0; i < 500; i++ {
			s := ProgramSeed(c, i)
			require.False(t, seen[s], "campaign %d index %d repeats a seed", c, i)
			seen[s] = true
		}
	}
	// Well mixed: neighbouring indices differ in about half their bits.
	total := 0
	for i := 0; i < 1000; i++ {
		total += popcount(ProgramSeed(9, i) ^ ProgramSeed(9, i+1))
	}
	avg := float64(total) / 1000
	assert.InDelta(t, 32, avg, 2, "average Hamming distance of neighbouring seeds")
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func TestGeneratedProgramsVerify(t *testing.T) {
	forEachProgram(t, programsPerProfile, func(t *testing.T, p *Program) {
		require.NoError(t, ir.Verify(p.Module))
		require.NotNil(t, p.Module.Func(p.Kernel))
		assert.Equal(t, []string{p.Kernel}, kernelsOf(p))
		// Normalized: normalizing again changes nothing.
		before := ir.Print(p.Module)
		m := ir.CloneModule(p.Module)
		require.NoError(t, ir.Normalize(m))
		assert.Equal(t, before, ir.Print(m))
	})
}

// kernelsOf returns the uncalled functions (the recursive helper calls
// itself, which ir.Module.Kernels ignores, so it is called by the kernel).
func kernelsOf(p *Program) []string { return p.Module.Kernels() }

func TestGeneratedLoopsAreBounded(t *testing.T) {
	forEachProgram(t, programsPerProfile, func(t *testing.T, p *Program) {
		unbounded, _ := loopReport(p.Module)
		cycle := p.Module.FindCycle(p.Kernel)
		switch p.OutsideSubset {
		case "":
			assert.Empty(t, unbounded, "every loop inside the subset passes ir.BoundLoop")
			assert.Nil(t, cycle, "no recursion inside the subset")
		case OutsideUnboundedLoop:
			assert.Len(t, unbounded, 1, "exactly the one deliberate unbounded loop")
			assert.Nil(t, cycle)
		case OutsideRecursion:
			assert.Empty(t, unbounded)
			assert.Equal(t, []string{"hr", "hr"}, cycle)
		default:
			t.Fatalf("unknown OutsideSubset %q", p.OutsideSubset)
		}
	})
}

func TestGeneratedFloatsStayExact(t *testing.T) {
	forEachProgram(t, programsPerProfile, func(t *testing.T, p *Program) {
		assert.Empty(t, exactViolations(p.Module))
	})
}

func TestGeneratedProgramsHaveNoShaderCreationHazards(t *testing.T) {
	forEachProgram(t, programsPerProfile, func(t *testing.T, p *Program) {
		assert.Empty(t, hazards(p.Module))
		assert.Empty(t, afterFinishedBlock(p.Module), "statements after a block that always jumps")
	})
}

func TestOutsideSubsetShareFollowsConfig(t *testing.T) {
	count := func(cfg Config) (loops, recs int) {
		for seed := uint64(0); seed < 1000; seed++ {
			switch Generate(seed, cfg).OutsideSubset {
			case OutsideUnboundedLoop:
				loops++
			case OutsideRecursion:
				recs++
			}
		}
		return
	}
	l, r := count(Config{OutsideSubset: -1})
	assert.Zero(t, l+r, "negative share: never")
	l, r = count(Config{})
	assert.InDelta(t, 30, l+r, 20, "default share 3%% of 1000")
	l, r = count(Config{Profile: mustProfile(t, "refusal")})
	assert.InDelta(t, 500, l+r, 80, "refusal profile: half")
	assert.Greater(t, l, 150)
	assert.Greater(t, r, 150)
}

func TestGeneratorCoversEveryConstruct(t *testing.T) {
	got := features{}
	n := 0
	for _, prof := range kernelProfiles() {
		for seed := uint64(0); seed < 100; seed++ {
			collectFeatures(Generate(seed, Config{Profile: prof}), got)
			n++
		}
	}
	var missing []string
	for _, f := range coverageList {
		if got[f] == 0 {
			missing = append(missing, f)
		}
	}
	assert.Empty(t, missing, "constructs never generated in %d programs", n)
	if testing.Verbose() {
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%5d/%d %s", got[k], n, k)
		}
	}
}

func TestSizeScalesPrograms(t *testing.T) {
	stmts := func(size int) int {
		total := 0
		for seed := uint64(0); seed < 200; seed++ {
			p := Generate(seed, Config{Size: size})
			total += countStmts(p.Module)
		}
		return total
	}
	small, def, large := stmts(5), stmts(0), stmts(80)
	assert.Less(t, small, def)
	assert.Less(t, def, large)
}

func countStmts(m *ir.Module) int {
	n := 0
	for _, f := range m.Funcs {
		ir.Inspect(f.Body, func(x ir.Node) bool {
			if _, ok := x.(ir.Stmt); ok {
				if _, isBlock := x.(*ir.Block); !isBlock {
					n++
				}
			}
			_, isExpr := x.(ir.Expr)
			return !isExpr
		})
	}
	return n
}

func TestFromBytesNeverFails(t *testing.T) {
	r := &splitmix{s: 99}
	for i := 0; i < 2000; i++ {
		data := make([]byte, r.intn(600))
		for j := range data {
			data[j] = byte(r.next())
		}
		prof := kernelProfiles()[i%len(kernelProfiles())]
		p := FromBytes(data, Config{Profile: prof})
		require.NoError(t, ir.Verify(p.Module), "bytes %x", data)
		unbounded, _ := loopReport(p.Module)
		if p.OutsideSubset != OutsideUnboundedLoop {
			require.Empty(t, unbounded)
		}
		require.Empty(t, exactViolations(p.Module))
		require.Empty(t, hazards(p.Module))
	}
	// The empty input takes every first choice.
	require.NoError(t, ir.Verify(FromBytes(nil, Config{}).Module))
}

func FuzzFromBytes(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("gpudiff"))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := FromBytes(data, Config{})
		if err := ir.Verify(p.Module); err != nil {
			t.Fatalf("%v\n%s", err, p)
		}
		if v := append(exactViolations(p.Module), hazards(p.Module)...); len(v) > 0 {
			t.Fatalf("%s\n%s", strings.Join(v, "\n"), p)
		}
		if unbounded, _ := loopReport(p.Module); p.OutsideSubset != OutsideUnboundedLoop && len(unbounded) > 0 {
			t.Fatalf("unbounded loop:\n%s", unbounded[0])
		}
	})
}

func TestInputsCoverEdgesAndStayExact(t *testing.T) {
	s := &ir.StructDecl{Name: "S", Fields: []ir.Field{{Name: "a", Type: ir.Vec(3, ir.F32)}, {Name: "b", Type: ir.Bool}}}
	params := []*ir.Param{
		{Name: "a", T: ir.I32}, {Name: "b", T: ir.U32}, {Name: "c", T: ir.F32}, {Name: "d", T: ir.Bool},
		{Name: "e", T: ir.Vec(4, ir.I32)}, {Name: "f", T: ir.ArrayOf(ir.StructType(s), 2)},
	}
	args := Inputs(5, params, 64)
	require.Len(t, args, 64)
	assert.Equal(t, args, Inputs(5, params, 64), "deterministic")
	assert.NotEqual(t, args, Inputs(6, params, 64), "seeded")
	seen := map[string]map[string]bool{}
	for _, inv := range args {
		require.Len(t, inv, len(params))
		for j, v := range inv {
			require.True(t, ir.Identical(v.Type, params[j].T), "argument type")
			for _, c := range scalars(v) {
				k := c.Type.String()
				if seen[k] == nil {
					seen[k] = map[string]bool{}
				}
				seen[k][c.String()] = true
				if c.Type.Kind == ir.KindF32 {
					f := float64(c.F32())
					require.True(t, f == math.Trunc(f) && math.Abs(f) <= FloatBound, "f32 input %v outside the exact domain", f)
				}
			}
		}
	}
	for _, want := range []string{"0i", "1i", "-1i", "i32(-2147483648)", "2147483647i"} {
		assert.True(t, seen["i32"][want], "i32 edge %s", want)
	}
	for _, want := range []string{"0u", "1u", "4294967295u"} {
		assert.True(t, seen["u32"][want], "u32 edge %s", want)
	}
	for _, want := range []string{"0.0f", "1.0f", "-1.0f", ir.FormatF32(FloatBound), ir.FormatF32(-FloatBound)} {
		assert.True(t, seen["f32"][want], "f32 edge %s", want)
	}
	assert.True(t, seen["bool"]["true"] && seen["bool"]["false"])
	assert.Greater(t, len(seen["i32"]), 30, "random values follow the edges")
}

// TestGenProducesVerifiedPrograms runs the gopter generator under gopter.
func TestGenProducesVerifiedPrograms(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(1234)
	params.MinSuccessfulTests = 200
	props := gopter.NewProperties(params)
	props.Property("generated programs verify", prop.ForAll(func(p *Program) bool {
		return ir.Verify(p.Module) == nil && p.Module.Func(p.Kernel) != nil
	}, Gen(Config{})))
	props.TestingRun(t)
}

func ExampleGenerate() {
	p := Generate(ProgramSeed(1, 0), Config{Size: 4, OutsideSubset: -1})
	fmt.Println(p.Kernel, p.OutsideSubset == "")
	// Output: kernel true
}

// kernelProfiles returns the profiles whose programs are function kernels
// (every profile but those with Entry set): the whole-corpus tests here
// check the function-kernel discipline; compute_test.go checks the
// compute profile's own.
func kernelProfiles() []Profile {
	var out []Profile
	for _, p := range Profiles() {
		if !p.Entry {
			out = append(out, p)
		}
	}
	return out
}
