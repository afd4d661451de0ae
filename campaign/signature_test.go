package campaign

import (
	"fmt"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// faultCampaign runs count programs of seed with flatten's options fo and
// no GPU, and returns its failures' distinct signatures.
func faultCampaign(t *testing.T, seed uint64, count int, fo flatten.Options) (sigs map[string]int, failures int) {
	t.Helper()
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	sum, err := RunCampaign(t.Context(), Config{Seed: seed, Count: count, Gen: gen.Config{Profile: prof}, Flatten: fo})
	require.NoError(t, err)
	sigs = map[string]int{}
	for _, f := range sum.Failures {
		sigs[f.Signature]++
	}
	return sigs, len(sum.Failures)
}

// TestOneFlattenFaultFewSignatures: the programs of a campaign that meet
// one injected flatten fault (retest-else: the else arm re-tests the
// condition) shrink to different programs — other operators, types,
// calls, returns — yet collapse to at most three signatures per campaign,
// each naming the construct the fault lives in; over several seeds.
func TestOneFlattenFaultFewSignatures(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			sigs, failures := faultCampaign(t, seed, 150, flatten.Options{Fault: "retest-else"})
			require.GreaterOrEqual(t, failures, 4, "the fault is met by several programs")
			assert.LessOrEqual(t, len(sigs), 3, "one bug, few signatures: %v", sigs)
			for s := range sigs {
				assert.True(t, strings.HasPrefix(s, "flatten/interp/if+else"), "%s names the broken construct", s)
			}
		})
	}
}

// TestDistinctFaultsDistinctSignatures: a second, different flatten fault
// — an empty builtin whitelist, which makes flatten refuse programs inside
// its subset — met by the same programs signs no failure the way the
// retest-else fault does.
func TestDistinctFaultsDistinctSignatures(t *testing.T) {
	retest, n1 := faultCampaign(t, 1, 60, flatten.Options{Fault: "retest-else"})
	refuse, n2 := faultCampaign(t, 1, 60, flatten.Options{Whitelist: []string{}})
	require.NotZero(t, n1)
	require.NotZero(t, n2)
	for s := range refuse {
		assert.NotContains(t, retest, s)
		assert.True(t, strings.HasPrefix(s, "flatten-refused/flatten/"), s)
	}
}

func parseKernel(t *testing.T, src string) (*ir.Module, string) {
	t.Helper()
	m, err := wgsl.Parse("t.wgsl", []byte(src))
	require.NoError(t, err)
	return m, "kernel"
}

// TestSignatureNormalizes: two programs of one bug that differ in names,
// constants, operators, types and incidental calls and returns sign
// alike for a flatten finding; a program of another construct (a loop
// with continue), another class or another adapter signs differently;
// for a stack class the operations count, so two builtins are two bugs.
func TestSignatureNormalizes(t *testing.T) {
	a, ka := parseKernel(t, `
var<private> g1: i32;
fn h1() -> i32 { g1 -= 1i; return 0i; }
fn kernel() -> array<bool, 4> {
  if (h1() != g1) {
  } else {
    return array<bool, 4>(false, false, false, false);
  }
  return array<bool, 4>(false, false, false, false);
}`)
	b, kb := parseKernel(t, `
var<private> g0: f32;
fn kernel(p: u32) -> bool {
  if (any(vec3<f32>(g0) >= vec3<f32>(0.0f, 1.0f, 2.0f))) {
    g0 = -4.0f * g0;
  } else {
    g0 = 0.0f;
  }
  return p > 3u;
}`)
	loop, kl := parseKernel(t, `
fn kernel(p: i32) -> i32 {
  var s: i32;
  for (var i = 0i; i < 4i; i++) {
    if (i == p) { continue; }
    s += i;
  }
  return s;
}`)
	flat := check.Finding{Class: "flatten", Adapter: "interp"}
	sa, sb := Signature(flat, a, ka), Signature(flat, b, kb)
	assert.Equal(t, sa, sb)
	assert.Equal(t, "flatten/interp/if+else", sa) // the scheme's documented example
	assert.NotEqual(t, sa, Signature(flat, loop, kl))
	assert.Equal(t, "flatten/interp/if+loop+break+continue", Signature(flat, loop, kl))

	vendor := check.Finding{Class: "vendor", Adapter: "wgpu-gl:llvmpipe"}
	assert.NotEqual(t, sa, Signature(vendor, a, ka), "another class")
	assert.NotEqual(t, Signature(vendor, a, ka), Signature(check.Finding{Class: "vendor", Adapter: "wgpu-vulkan:llvmpipe"}, a, ka), "another adapter")
	assert.NotEqual(t, Signature(vendor, a, ka), Signature(vendor, b, kb), "a stack class keeps the operations")

	ones, k1 := parseKernel(t, "fn kernel(x: u32) -> u32 { return countOneBits(x + 7u); }")
	ones2, k2 := parseKernel(t, "fn kernel(y: u32) -> u32 { let z = y + 1234u; return countOneBits(z); }")
	msb, k3 := parseKernel(t, "fn kernel(x: u32) -> u32 { return firstLeadingBit(x + 7u); }")
	assert.Equal(t, Signature(vendor, ones, k1), Signature(vendor, ones2, k2))
	assert.Equal(t, "vendor/wgpu-gl:llvmpipe/add.u32+countOneBits.u32", Signature(vendor, ones, k1))
	assert.NotEqual(t, Signature(vendor, ones, k1), Signature(vendor, msb, k3))
	id, ki := parseKernel(t, "fn kernel(x: u32) -> u32 { return x; }")
	assert.Equal(t, "vendor/wgpu-gl:llvmpipe/straight", Signature(vendor, id, ki))
}

// TestSignatureShape: every form signature is "class/adapter/FORM" with
// FORM one path segment free of pattern metacharacters, so a baseline
// entry is an exact signature and "class/adapter/*" knows them all —
// over generated programs, unshrunk (their forms are the longest).
func TestSignatureShape(t *testing.T) {
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	b := &baseline.Set{}
	require.NoError(t, b.Add("vendor/wgpu-gl:llvmpipe/*"))
	for i := range 40 {
		p := gen.Generate(gen.ProgramSeed(7, i), gen.Config{Profile: prof})
		for _, class := range []check.Class{check.ClassFlatten, check.ClassVendor} {
			s := Signature(check.Finding{Class: class, Adapter: "wgpu-gl:llvmpipe"}, p.Module, p.Kernel)
			parts := strings.Split(s, "/")
			require.Len(t, parts, 3, s)
			assert.False(t, strings.ContainsAny(parts[2], "*?[\\# "), s)
			ok, _ := path.Match("*/wgpu-gl:llvmpipe/*", s)
			assert.True(t, ok, s)
			assert.Equal(t, class == check.ClassVendor, b.Known(s), s)
			assert.Equal(t, class == check.ClassVendor, b.KnowsEvery(signaturePrefix(check.Finding{Class: class, Adapter: "wgpu-gl:llvmpipe"})))
		}
	}
	for op := ir.OpAdd; op <= ir.OpGe; op++ {
		assert.NotEmpty(t, binaryNames[op], "a name for %v", op)
	}
}

// TestLongFormsStayVisible: a form is kept verbatim however long, so a
// family pattern sees the constructs of an unshrunk program (one whose
// shrinking a deadline cut short) — a program with a workgroup barrier
// matches "*workgroupBarrier*" — and a baseline written when such forms
// were hashed (f and 16 hex digits of the form's SHA-256) still knows it.
func TestLongFormsStayVisible(t *testing.T) {
	vendor := check.Finding{Class: check.ClassVendor, Adapter: "dawn-gl:llvmpipe"}
	family := &baseline.Set{}
	require.NoError(t, family.Add("vendor/dawn-gl*:*/*workgroupBarrier*"))
	long, barrier, pinned := 0, 0, 0
	for i := range 120 {
		prof, err := gen.LookupProfile([]string{"compute", "default"}[i%2])
		require.NoError(t, err)
		p := gen.Generate(gen.ProgramSeed(2028, i), gen.Config{Profile: prof})
		sig := Signature(vendor, p.Module, p.Kernel)
		form := strings.TrimPrefix(sig, "vendor/dawn-gl:llvmpipe/")
		if len(form) <= 128 {
			_, changed := LegacySignature(sig)
			assert.False(t, changed, sig)
			continue
		}
		long++
		assert.NotRegexp(t, `^f[0-9a-f]{16}$`, form)
		if strings.Contains(form, "workgroupBarrier") {
			barrier++
		}
		assert.Equal(t, strings.Contains(form, "workgroupBarrier"), knows(family, sig), sig)
		legacy, changed := LegacySignature(sig)
		require.True(t, changed, sig)
		assert.Regexp(t, `^vendor/dawn-gl:llvmpipe/f[0-9a-f]{16}$`, legacy)
		if i == 0 {
			pinned++
			// What gpudiff at 3c8e3a3 (the last version that hashed forms)
			// signed compute program 0 of seed 2028 as, printed by that
			// version's Signature; the compute generator is unchanged since.
			assert.Equal(t, "vendor/dawn-gl:llvmpipe/f1bcc0cc547d0beed", legacy)
		}
		old := &baseline.Set{}
		require.NoError(t, old.Add(legacy))
		assert.True(t, knows(old, sig), "a baseline holding the hashed form knows %s", sig)
		entry, _ := KnownBy(old, sig)
		assert.Equal(t, legacy, entry)
		assert.False(t, knows(old, sig+"+x.u32"), "another form is not known by it")
	}
	assert.Greater(t, long, 5, "unshrunk programs have forms over 128 bytes")
	assert.Positive(t, pinned, "program 0's form is long, so its legacy signature was checked")
	assert.Greater(t, barrier, 0, "some of them have a workgroup barrier (compute)")
	assert.Less(t, barrier, long, "and some have none (default)")
	msg, changed := LegacySignature("compile-error/wgpu-gl:llvmpipe/wgsl/m795fbff784837294")
	assert.False(t, changed)
	assert.Equal(t, "compile-error/wgpu-gl:llvmpipe/wgsl/m795fbff784837294", msg)
}

// TestBugsGroupPrograms: records group into one bug per signature in the
// order of first appearance, with every program and seed, the case of the
// program that saved one, and the state; the phrase counts both.
func TestBugsGroupPrograms(t *testing.T) {
	recs := []ProgramRecord{
		{Index: 2, Seed: 20, Signature: "flatten/interp/if+else", Classes: []check.Class{check.ClassFlatten}, Adapters: []string{"interp"}, Case: "a.wgsl", Stmts: 80, ShrunkStmts: 5},
		{Index: 4, Seed: 40, Signature: "vendor/wgpu-gl:llvmpipe/straight", Known: true, Classes: []check.Class{check.ClassVendor}, Adapters: []string{"wgpu-gl:llvmpipe"}},
		{Index: 7, Seed: 70, Signature: "flatten/interp/if+else", Classes: []check.Class{check.ClassFlatten}, Adapters: []string{"interp"}, Stmts: 60, ShrunkStmts: 4},
		{Index: 9, Seed: 90, Signature: "flatten/interp/if+else", Classes: []check.Class{check.ClassFlatten}, Adapters: []string{"interp"}},
	}
	bugs := Bugs(recs)
	require.Len(t, bugs, 2)
	assert.Equal(t, []int{2, 7, 9}, bugs[0].Programs)
	assert.Equal(t, []uint64{20, 70, 90}, bugs[0].Seeds)
	assert.Equal(t, "a.wgsl", bugs[0].Case)
	assert.Equal(t, 2, bugs[0].CaseIndex)
	assert.Equal(t, "new", bugs[0].State)
	assert.Equal(t, "known", bugs[1].State)
	n, programs := BugCount(bugs, "new")
	assert.Equal(t, "1 new bug in 3 programs", CountPhrase(n, programs, "new"))
	n, programs = BugCount(bugs, "known")
	assert.Equal(t, "1 known bug in 1 program", CountPhrase(n, programs, "known"))
	n, programs = BugCount(nil, "new")
	assert.Equal(t, "0 new bugs in 0 programs", CountPhrase(n, programs, "new"))
}

// One stack bug met by two programs is one compile-error signature: the
// error line is found past wgpu's wrapper lines and its positions and
// generated numbers do not count; another error, or another format, is
// another signature.
func TestCompileErrorSignatureIgnoresPositions(t *testing.T) {
	wrap := func(line string) string {
		return "Validation Error\n\nCaused by:\n    In wgpuDeviceCreateComputePipeline\n    " + line + "\n0:31(2): error: value of type bool cannot be assigned to variable of type bvec4"
	}
	a := check.Finding{Class: "compile-error", Adapter: "wgpu-gl:llvmpipe", Runs: []string{"wgpu-gl:llvmpipe kernel spirv"}, Format: "spirv",
		Message: wrap("Internal error: 0:31(18): error: LHS of `||' must be scalar boolean")}
	b := a
	b.Message = wrap("Internal error: 0:256(49): error: LHS of `||' must be scalar boolean")
	other := a
	other.Message = wrap("Internal error: 0:31(18): error: LHS of `&&' must be scalar boolean")
	wgslRun := a
	wgslRun.Runs, wgslRun.Format = []string{"wgpu-gl:llvmpipe kernel wgsl"}, "wgsl"

	sa, sb := Signature(a, nil, ""), Signature(b, nil, "")
	assert.Equal(t, sa, sb)
	assert.Regexp(t, `^compile-error/wgpu-gl:llvmpipe/spirv/m[0-9a-f]{16}$`, sa)
	assert.NotEqual(t, sa, Signature(other, nil, ""))
	assert.NotEqual(t, sa, Signature(wgslRun, nil, ""))
	// Shrinking keeps a compile error only while it is the same error.
	assert.True(t, hasFinding([]check.Finding{b}, a))
	assert.False(t, hasFinding([]check.Finding{other}, a))
}

// TestFormNamesTextureBuiltins: a texture builtin is a construct of the
// form, with the dimension of its texture, so a stack bug in one kind of
// texture access (wgpu-gl's one-layer texture_2d_array,
// findings/compute/wgpu_gl_one_layer_array.wgsl) is not signed like any
// program with the same arithmetic.
func TestFormNamesTextureBuiltins(t *testing.T) {
	src := `@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(1) var tin: texture_2d_array<u32>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = textureLoad(tin, vec2<u32>(i, 0u), 0i, 0i).x + textureNumLayers(tin);
}
`
	m, err := wgsl.Parse("t.wgsl", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, "add.u32+dynindex+swizzle+textureLoad.2d_array+textureNumLayers.2d_array", Form(check.ClassVendor, m, "main"))
}
