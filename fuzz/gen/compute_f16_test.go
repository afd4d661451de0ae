package gen_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

func f16Config(t testing.TB) gen.Config {
	return profileConfig(t, "f16")
}

// TestF16ProgramsVerify: every f16 program is a verified compute entry
// point that uses f16 (ir.UsesF16) and says so (`enable f16;`, WGSL
// #extension-f16), and a seed names one program.
func TestF16ProgramsVerify(t *testing.T) {
	cfg := f16Config(t)
	texts := map[string]bool{}
	for seed := uint64(0); seed < 150; seed++ {
		p := gen.Generate(seed, cfg)
		require.True(t, p.IsEntry(), "seed %d", seed)
		require.NoError(t, ir.Verify(p.Module), "seed %d:\n%s", seed, p)
		assert.True(t, p.Module.UsesF16(p.Kernel), "seed %d:\n%s", seed, p)
		assert.False(t, p.Module.UsesSubgroups(p.Kernel), "seed %d", seed)
		text := p.String()
		assert.True(t, strings.HasPrefix(text, "enable f16;\n"), "seed %d:\n%s", seed, text)
		assert.Equal(t, text, gen.Generate(seed, cfg).String(), "seed %d: not deterministic", seed)
		texts[text] = true
	}
	assert.Greater(t, len(texts), 145, "distinct seeds give distinct programs")
}

// TestF16ProgramsRunOnEveryPath: the canonical WGSL and the emitted
// entry point of every f16 program parse back, and gpudiff's SPIR-V of
// it (Float16, 16-bit storage) passes spirv-val.
func TestF16ProgramsRunOnEveryPath(t *testing.T) {
	parsesAndValidates(t, f16Config(t), 60)
}

// parsesAndValidates checks the first n programs of cfg: the canonical
// WGSL and the emitted entry point parse back (one entry point), and
// gpudiff's SPIR-V passes spirv-val.
func parsesAndValidates(t *testing.T, cfg gen.Config, n uint64) {
	t.Helper()
	for seed := uint64(0); seed < n; seed++ {
		p := gen.Generate(seed, cfg)
		_, err := wgsl.Parse("gen.wgsl", []byte(p.String()))
		require.NoError(t, err, "seed %d:\n%s", seed, p)
		src, err := wgsl.EmitEntry(p.Module, p.Kernel, wgsl.EmitOptions{})
		require.NoError(t, err, "seed %d", seed)
		m, err := wgsl.Parse("gen.wgsl", []byte(src))
		require.NoError(t, err, "seed %d:\n%s", seed, src)
		assert.Len(t, m.EntryPoints(), 1)
		words, err := spirv.Emit(p.Module, p.Kernel, spirv.Options{})
		require.NoError(t, err, "seed %d", seed)
		assert.Empty(t, spirvVal(t, words), "seed %d:\n%s", seed, p)
	}
}

// spirvVal runs `spirv-val --target-env vulkan1.1` (spirv-tools, make
// deps: never skipped) on words and returns its complaint, "" when the
// module is valid.
func spirvVal(t testing.TB, words []uint32) string {
	t.Helper()
	val, err := exec.LookPath("spirv-val")
	require.NoError(t, err, "spirv-val not found: install spirv-tools (make deps)")
	var buf bytes.Buffer
	require.NoError(t, binary.Write(&buf, binary.NativeEndian, words))
	path := filepath.Join(t.TempDir(), "module.spv")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	out, err := exec.Command(val, "--target-env", "vulkan1.1", path).CombinedOutput()
	if err != nil {
		return strings.TrimSpace(string(out)) + " (" + err.Error() + ")"
	}
	return ""
}

// TestF16ProgramsAreExactAndRaceFree: the f16 discipline (compute_f16.go)
// checked by the reference, whose f16 arithmetic carries WGSL's
// accuracy bounds: no race, flatten accepts the entry point and its twin
// agrees, and no leaf of any binding is indeterminate — every f16
// operation was exact (an inexact one would give the reference a bound,
// and its conversion to an integer an indeterminate leaf).
func TestF16ProgramsAreExactAndRaceFree(t *testing.T) {
	cfg := f16Config(t)
	for seed := uint64(0); seed < 80; seed++ {
		p := gen.Generate(seed, cfg)
		c := &testcase.ComputeCase{Module: p.Module, Entry: p.Kernel, Workgroups: p.Workgroups, Buffers: testcase.MustBindingBuffers(p.Module, gen.Bindings(seed, p.Module))}
		res, err := check.Execute(context.Background(), c.Case(), check.Options{Flat: true})
		require.NoError(t, err, "seed %d:\n%s", seed, p)
		assert.Empty(t, res.Races, "seed %d:\n%s", seed, p)
		assert.NoError(t, res.FlattenErr, "seed %d:\n%s", seed, p)
		assert.Equal(t, oracle.Pass, res.Verdict, "seed %d:\n%s", seed, p)
		for i, ref := range res.Reference[0] {
			assert.NotContains(t, ref.Indeterminate, true, "seed %d: binding %s: %s\n%s", seed, res.Names[i], ref.Why, p)
		}
	}
}

// TestF16BindingsAreExactIntegers: the f16 leaves Bindings gives are
// integers of magnitude ≤ 1024 (the profile's exact domain), and the
// first elements of an f16 array carry the edges ±1024, ±1 and 0.
func TestF16BindingsAreExactIntegers(t *testing.T) {
	cfg := f16Config(t)
	edges := map[float32]bool{}
	for seed := uint64(0); seed < 30; seed++ {
		p := gen.Generate(seed, cfg)
		b := gen.Bindings(seed, p.Module)
		hin, ok := b["hin"]
		require.True(t, ok, "seed %d: no hin binding", seed)
		var walk func(v ir.Value, first bool)
		walk = func(v ir.Value, first bool) {
			if v.Type.Kind == ir.KindF16 {
				f := v.F16()
				assert.Equal(t, float32(math.Trunc(float64(f))), f, "seed %d: %v is not an integer", seed, f)
				assert.LessOrEqual(t, math.Abs(float64(f)), 1024.0, "seed %d", seed)
				if first {
					edges[f] = true
				}
				return
			}
			for _, e := range v.Elems {
				walk(e, first)
			}
		}
		for i, e := range hin.Elems {
			walk(e, i < gen.EdgeInvocations)
		}
	}
	for _, e := range []float32{0, 1, -1, 1024, -1024} {
		assert.True(t, edges[e], "edge %v never given", e)
	}
}

// TestF16ProfileCoversItsConstructs: over 200 programs every construct
// the profile promises appears: f16 and vecN<f16> elements of the
// storage bindings, a uniform struct with f16, vec3<f16> and f32 members,
// the workgroup tile, each operation and builtin on f16, and every
// conversion to and from f32, i32 and u32.
func TestF16ProfileCoversItsConstructs(t *testing.T) {
	cfg := f16Config(t)
	seen := map[string]int{}
	const n = 200
	for seed := uint64(0); seed < n; seed++ {
		p := gen.Generate(seed, cfg)
		hit := map[string]bool{}
		for _, v := range p.Module.Shared {
			if v.T.HasF16() {
				hit[v.Space.String()+" "+strings.TrimPrefix(v.T.String(), "array<")] = true
			}
			if v.Space == ir.SpaceUniform && v.T.Kind == ir.KindStruct {
				for _, f := range v.T.Struct.Fields {
					hit["uniform member "+f.Type.String()] = true
				}
			}
		}
		ir.Inspect(p.Module.Func(p.Kernel).Body, func(nd ir.Node) bool {
			switch x := nd.(type) {
			case *ir.Binary:
				if x.X.Type().HasF16() {
					hit["f16 "+x.Op.String()] = true
				}
			case *ir.Unary:
				if x.X.Type().HasF16() {
					hit["f16 unary "+x.Op.String()] = true
				}
			case *ir.BuiltinCall:
				if len(x.Args) > 0 && x.Args[0].Type().HasF16() {
					hit["f16 "+x.Fn.String()] = true
				}
			case *ir.Select:
				if x.T.HasF16() {
					hit["f16 select"] = true
				}
			case *ir.Convert:
				from, to := x.X.Type().Scalar(), x.T.Scalar()
				if from.Kind == ir.KindF16 || to.Kind == ir.KindF16 {
					hit["convert "+from.String()+" to "+to.String()] = true
				}
			case *ir.Assign:
				if _, ok := x.LHS.(*ir.Swizzle); ok && x.RHS.Type().HasF16() {
					hit["f16 component write"] = true
				}
				if id, ok := x.LHS.(*ir.Ident); ok && id.Name == "acc" && ir.Any(x.RHS, func(n ir.Node) bool { i, ok := n.(*ir.Ident); return ok && i.Name == "hacc" }) {
					hit["f16 feeds acc"] = true
				}
			}
			return true
		})
		for k := range hit {
			seen[k]++
		}
	}
	want := []string{
		"storage f16, N>", "storage vec2<f16>, N>", "storage vec3<f16>, N>", "storage vec4<f16>, N>",
		"workgroup f16, L>", "workgroup vec3<f16>, L>", "uniform HParams",
		"uniform member f16", "uniform member vec2<f16>", "uniform member vec3<f16>", "uniform member vec4<f16>", "uniform member f32",
		"f16 +", "f16 -", "f16 *", "f16 <", "f16 ==", "f16 unary -",
		"f16 abs", "f16 sign", "f16 min", "f16 max", "f16 clamp", "f16 floor", "f16 ceil", "f16 round", "f16 trunc", "f16 dot", "f16 select",
		"convert f16 to f32", "convert f32 to f16", "convert f16 to i32", "convert i32 to f16", "convert f16 to u32", "convert u32 to f16",
		"f16 component write", "f16 feeds acc",
	}
	norm := map[string]int{}
	for k, v := range seen {
		// array lengths vary: array<T, 96> → "T, N>"; workgroup arrays "T, L>"
		if i := strings.LastIndex(k, ", "); i >= 0 && strings.HasSuffix(k, ">") {
			if strings.HasPrefix(k, "workgroup") {
				k = k[:i] + ", L>"
			} else {
				k = k[:i] + ", N>"
			}
		}
		norm[k] += v
	}
	for _, w := range want {
		assert.Positive(t, norm[w], "construct %q never generated in %d programs", w, n)
	}
	if t.Failed() {
		var ks []string
		for k, v := range norm {
			ks = append(ks, fmt.Sprintf("%s: %d", k, v))
		}
		sort.Strings(ks)
		t.Logf("seen:\n%s", strings.Join(ks, "\n"))
	}
}
