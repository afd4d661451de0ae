package campaign

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/baseline"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/findings"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
)

// TestBugClassesOfHandWrittenPrograms: the classes of WGSL programs
// written for each class, exactly (every other class absent), and the
// negatives next to them: a for loop's condition is the loop's exit
// test, not an early exit; a return at the end of a function is none
// either; a comparison of i32 values is not uint-eq, a division of f32
// values not int-div; a struct built inside one function is not
// composite; a helper called from the kernel counts.
func TestBugClassesOfHandWrittenPrograms(t *testing.T) {
	for _, tc := range []struct {
		name, kernel, src string
		want              []string
	}{
		{"straight", "kernel", `fn kernel(a: i32, b: f32) -> i32 { let c = a * 3i; if (c == 2i) { return 4i; } else { return i32(b / 2.0); } }`, []string{}},
		{"return in one arm only", "kernel", `fn kernel(a: i32) -> i32 { if (a == 2i) { return 4i; } return a; }`, []string{"early-exit"}},
		{"return at the end", "kernel", `fn kernel(a: i32) -> i32 { var x = a; x = x + 1i; return x; }`, []string{}},
		{"for loop, no early exit", "kernel", `fn kernel(n: i32) -> i32 {
  var s = 0i;
  for (var i = 0i; i < n && i < 8i; i++) { s += i; }
  return s;
}`, []string{"loop"}},
		{"while with a last if-break (do-while)", "kernel", `fn kernel(n: i32) -> i32 {
  var s = 0i;
  loop { s += 1i; if (s > n) { break; } }
  return s;
}`, []string{"loop"}},
		{"loop with a break inside", "kernel", `fn kernel(n: u32) -> u32 {
  var s = 0u;
  for (var i = 0u; i < 8u; i++) { if (i == n) { break; } s += i; }
  return s;
}`, []string{"loop", "early-exit", "uint-eq"}},
		{"continue, break-if", "kernel", `fn kernel(n: i32) -> i32 {
  var s = 0i;
  loop {
    s += 1i;
    if (s < 2i) { continue; }
    s += n;
    continuing { break if s > 10i; }
  }
  return s;
}`, []string{"loop", "early-exit"}},
		{"switch and early return in a helper", "kernel", `fn h(x: i32) -> i32 {
  if (x < 0i) { return 0i; }
  switch (x) { case 1i: { return 2i; } default: { } }
  return x;
}
fn kernel(x: i32) -> i32 { return h(x) + 1i; }`, []string{"switch", "early-exit"}},
		{"a helper not called does not count", "kernel", `fn h(x: u32) -> u32 { return x / 3u; }
fn kernel(x: i32) -> i32 { return x + 1i; }`, []string{}},
		{"zero-init var", "kernel", `fn kernel(x: i32) -> i32 { var y: vec2<i32>; y.x += x; return y.x; }`, []string{"zero-init"}},
		{"zero-init private global", "kernel", `var<private> g: array<u32, 2>;
fn kernel(x: u32) -> u32 { return g[1] + x; }`, []string{"zero-init"}},
		{"zero-init scalars do not count", "kernel", `var<private> g: u32;
fn kernel(x: u32) -> u32 { var y: u32; y += x; return g + y; }`, []string{}},
		{"splat and T()", "kernel", `fn kernel(x: f32) -> vec3<f32> { return vec3<f32>(x) + vec3<f32>(); }`, []string{"zero-init"}},
		{"bool vector, dynamic store", "kernel", `fn kernel(i: i32, b: bool) -> i32 {
  var v = vec2<bool>(b, true);
  v[i & 1i] = false;
  return select(0i, 1i, v.x);
}`, []string{"bool-vec"}},
		{"int-div and compound rem", "kernel", `fn kernel(a: i32, b: u32) -> i32 { var y = b; y %= 7u; return a / 3i + i32(y); }`, []string{"int-div"}},
		{"u32 ordering is not uint-eq", "kernel", `fn kernel(a: u32) -> bool { return a < 4u; }`, []string{}},
		{"u32 vector equality", "kernel", `fn kernel(a: vec2<u32>) -> bool { return all(a != vec2<u32>(1u, 2u)); }`, []string{"bool-vec", "uint-eq"}},
		{"float negation", "kernel", `fn kernel(a: f32, b: i32) -> f32 { return -a + f32(-b); }`, []string{"float-neg"}},
		{"bits", "kernel", `fn kernel(a: u32) -> u32 { return countOneBits(a) + extractBits(a, 1u, 3u); }`, []string{"bits"}},
		{"pack", "kernel", `fn kernel(a: vec4<f32>) -> u32 { return pack4x8unorm(a); }`, []string{"pack"}},
		{"struct by value", "kernel", `struct S { a: i32, b: u32, }
fn h(s: S) -> i32 { return s.a + i32(s.b); }
fn kernel(x: i32) -> i32 { return h(S(x, 2u)); }`, []string{"composite"}},
		{"array returned", "kernel", `fn h(x: i32) -> array<i32, 2> { return array<i32, 2>(x, x); }
fn kernel(x: i32) -> i32 { return h(x)[1]; }`, []string{"composite"}},
		{"pointer parameter", "kernel", `fn h(p: ptr<function, i32>) { *p = *p + 1i; }
fn kernel(x: i32) -> i32 { var y = x; h(&y); return y; }`, []string{"composite"}},
		{"struct local only", "kernel", `struct S { a: i32, }
fn kernel(x: i32) -> i32 { let s = S(x); return s.a; }`, []string{}},
		{"compute: barrier, atomics, arrayLength", "main", `@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 4>;
@group(0) @binding(2) var<storage, read_write> c: atomic<u32>;
var<workgroup> tile: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) {
  tile[li] = inp[li % arrayLength(&inp)];
  workgroupBarrier();
  out[li] = tile[3u - li];
  atomicAdd(&c, 1u);
}`, []string{"int-div", "atomic", "barrier", "array-length"}},
		{"compute: atomic store and compare-exchange", "main", `@group(0) @binding(0) var<storage, read_write> c: atomic<u32>;
var<workgroup> w: atomic<i32>;
@compute @workgroup_size(1)
fn main() {
  atomicStore(&w, 1i);
  let r = atomicCompareExchangeWeak(&c, 0u, 1u);
}`, []string{"atomic-store"}},
		{"texture load and sample with offset", "main", `@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>, 1>;
@compute @workgroup_size(1)
fn main() {
  out[0] = textureLoad(t, vec2<i32>(0i, 0i), 0i) + textureSampleLevel(t, s, vec2<f32>(0.5, 0.5), 0.0, vec2<i32>(1i, 0i));
}`, []string{"texture", "sample-compare"}},
		{"depth comparison", "main", `@group(0) @binding(0) var t: texture_depth_2d;
@group(0) @binding(1) var s: sampler_comparison;
@group(0) @binding(2) var<storage, read_write> out: array<f32, 1>;
@compute @workgroup_size(1)
fn main() { out[0] = textureSampleCompareLevel(t, s, vec2<f32>(0.5, 0.5), 0.5); }`, []string{"texture", "sample-compare"}},
		{"texture without offset or comparison", "main", `@group(0) @binding(0) var t: texture_2d<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 1>;
@compute @workgroup_size(1)
fn main() { out[0] = textureLoad(t, vec2<u32>(0u, 0u), 0u).x + textureDimensions(t).x; }`, []string{"texture"}},
		{"f16 binding only", "main", `enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16, 1>;
@compute @workgroup_size(1)
fn main() { out[0] = 1.0h; }`, []string{"f16"}},
		{"subgroup builtin value", "main", `enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32, @builtin(subgroup_size) n: u32) { out[li] = n; }`, []string{"subgroup"}},
		{"subgroup reduction", "main", `enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32) { out[li] = subgroupAdd(li); }`, []string{"subgroup"}},
		{"fragment discard", "fs", `@fragment
fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
  if (p.x < 2.0) { discard; }
  return vec4<f32>(1.0, 0.0, 0.0, 1.0);
}`, []string{"early-exit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wgsl.Parse("t.wgsl", []byte(tc.src))
			require.NoError(t, err)
			assert.Equal(t, tc.want, BugClasses(m, tc.kernel))
		})
	}
	m, err := wgsl.Parse("t.wgsl", []byte(`fn kernel() -> i32 { return 1i; }`))
	require.NoError(t, err)
	assert.Equal(t, []string{}, BugClasses(m, "missing"), "a kernel the module does not hold")
}

// TestBugClassTableIsWellFormed: IDs are unique and short, every class
// says what it is and where the field met it, a class no generator
// reaches says so in Reach, and every class BugClasses can return is in
// the table.
func TestBugClassTableIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range BugClassTable() {
		assert.Regexp(t, `^[a-z0-9]+(-[a-z0-9]+)*$`, c.ID)
		assert.False(t, seen[c.ID], "duplicate %s", c.ID)
		seen[c.ID] = true
		assert.NotEmpty(t, c.Doc, c.ID)
		assert.NotEmpty(t, c.Sources, c.ID)
		assert.NotEmpty(t, c.Reach, c.ID)
		if len(c.Profiles) == 0 {
			assert.Contains(t, c.Reach, "none yet", c.ID)
		}
		got, ok := LookupBugClass(c.ID)
		assert.True(t, ok)
		assert.Equal(t, c.ID, got.ID)
	}
	_, ok := LookupBugClass("no-such-class")
	assert.False(t, ok)
}

// TestBugClassProfiles: each class's Profiles are exactly the profiles
// whose first 100 programs of campaign seed 1 (as a campaign generates
// them) have one in the class: a generator change that reaches a class,
// or stops reaching it, must update the table (and findings/CLASSES.md).
func TestBugClassProfiles(t *testing.T) {
	reached := map[string][]string{}
	for _, p := range gen.Profiles() {
		n := map[string]int{}
		for i := range 100 {
			prog := gen.Programs(gen.Config{Profile: p})(gen.CampaignParameters(1, i)).Result.(*gen.Program)
			for _, c := range programClasses(prog) {
				n[c]++
			}
		}
		for _, c := range BugClassTable() {
			if n[c.ID] > 0 {
				reached[c.ID] = append(reached[c.ID], p.Name)
			}
		}
	}
	for _, c := range BugClassTable() {
		assert.ElementsMatch(t, c.Profiles, reached[c.ID], "class %s: the profiles that reach it", c.ID)
	}
}

var updateClasses = flag.Bool("update-classes", false, "rewrite findings/CLASSES.md from campaign/bugclass.go's table")

// TestBugClassMarkdown: findings/CLASSES.md is BugClassMarkdown, the
// table as Go data says it (-update-classes rewrites the file).
func TestBugClassMarkdown(t *testing.T) {
	const file = "../findings/CLASSES.md"
	want := BugClassMarkdown()
	if *updateClasses {
		require.NoError(t, os.WriteFile(file, []byte(want), 0o644))
	}
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, want, string(got), "%s is out of date: go test ./campaign -run TestBugClassMarkdown -update-classes", file)
	for _, c := range BugClassTable() {
		assert.Contains(t, string(got), "| `"+c.ID+"` |")
	}
}

// TestCampaignClassTable: a campaign's summary counts, per class, exactly
// the programs whose records have the class; every record's classes are
// its program's (regenerated from its derived seed); a failure's
// ShrunkBugClasses are those of the case file it saved, parsed back by
// the WGSL front end; the bugs of each class are the bugs whose shrunk
// program is in it; and the journal of the campaign, merged as a one-shard
// campaign, gives the same table. Failures come from a flatten rule broken
// on purpose (flatten.FaultEnv), found by the interpreter alone.
func TestCampaignClassTable(t *testing.T) {
	t.Setenv(flatten.FaultEnv, "retest-else")
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	var recs []ProgramRecord
	cfg := Config{Seed: 1, Count: 20, Gen: gen.Config{Profile: prof}, Corpus: t.TempDir(), ToolVersion: "test",
		OnProgram: func(r ProgramRecord) { recs = append(recs, r) }}
	sum, err := RunCampaign(t.Context(), cfg)
	require.NoError(t, err)
	require.Len(t, recs, 20)
	require.NotEmpty(t, sum.Failures, "the broken rule is caught")

	want := map[string]int{}
	cases := 0
	for _, r := range recs {
		p := gen.Programs(cfg.Gen)(gen.CampaignParameters(cfg.Seed, r.Index)).Result.(*gen.Program)
		assert.Equal(t, BugClasses(p.Module, p.Kernel), r.BugClasses, "program #%d", r.Index)
		require.NotNil(t, r.BugClasses)
		for _, c := range r.BugClasses {
			want[c]++
		}
		if r.Signature == "" {
			assert.Nil(t, r.ShrunkBugClasses, "program #%d passed", r.Index)
			continue
		}
		require.NotNil(t, r.ShrunkBugClasses, "program #%d failed", r.Index)
		if r.Case != "" {
			path := filepath.Join(cfg.Corpus, r.Case)
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			c, _, err := testcase.ParseCase(path, src)
			require.NoError(t, err)
			assert.Equal(t, BugClasses(c.Module, c.Kernel), r.ShrunkBugClasses, "program #%d's saved case", r.Index)
			cases++
		}
	}
	assert.NotZero(t, cases, "some failure saved a case")
	assert.Equal(t, want, sum.ClassPrograms)
	assert.Zero(t, sum.Unclassified)
	assert.Greater(t, len(want), 5, "the default profile's programs reach many classes")

	counts := ClassCounts(sum, "default")
	require.Len(t, counts, len(BugClassTable()))
	bugs := Bugs(sum.Failures)
	newBugs := 0
	for _, cc := range counts {
		assert.Equal(t, want[cc.Class], cc.Programs, cc.Class)
		n := 0
		for _, b := range bugs {
			if b.State == "new" && slices.Contains(b.BugClasses, cc.Class) {
				n++
			}
		}
		assert.Equal(t, n, cc.NewBugs, cc.Class)
		newBugs += cc.NewBugs
		assert.Equal(t, cc.Programs == 0, cc.Why != "", "%s: a reason exactly when no program", cc.Class)
	}
	for _, id := range []string{"atomic", "barrier", "f16"} {
		cc := counts[slices.IndexFunc(counts, func(c ClassCount) bool { return c.Class == id })]
		assert.Zero(t, cc.Programs, id)
		assert.Contains(t, cc.Why, "not in profile default", id)
	}

	// The journal round trip: records read back (and merged) count alike.
	h := Spec{Tool: "test", Seed: 1, Count: 20, Size: 30, Profile: "default", Shard: "0/1", Mode: "portable", Corpus: cfg.Corpus}
	data, err := EncodeJournal(h, recs, time.Second, false)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "j.jsonl")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	m, err := MergeJournals([]string{path})
	require.NoError(t, err)
	assert.Equal(t, counts, ClassCounts(m.Summary, "default"))
	assert.Equal(t, stripUnjournaled(recs), stripUnjournaled(m.Records))
}

// stripUnjournaled clears what a journal does not hold (Millis, Saved).
func stripUnjournaled(rs []ProgramRecord) []ProgramRecord {
	out := slices.Clone(rs)
	for k := range out {
		out[k].Millis, out[k].Saved = 0, nil
	}
	return out
}

// TestKnownFamily: findings/known.txt's family pattern of the Mesa GLSL
// barrier finding knows a re-find of it under a new signature (another
// dawn-gl driver, other operations around the barrier) and says so —
// "family of" the finding, with the pattern — while the finding's own
// signature is known as the finding itself; a barrier finding on another
// stack (naga's GLSL on wgpu-gl, Tint's SPIR-V on lavapipe, Tint's GLSL
// on a stage other than vendor) is not known. A campaign whose baseline
// pattern knows every failure of a class records the pattern, with no
// project finding, and the program's own classes as its bug's.
func TestKnownFamily(t *testing.T) {
	known := &baseline.Set{}
	require.NoError(t, known.AddText(findings.KnownFile, findings.Known, nil))
	const mesa = "findings/compute/mesa_glsl_shared_load_after_barrier.wgsl"
	const own = "vendor/dawn-gl:llvmpipe/add.i32+add.u32+conv.i32.u32+dynindex+rem.u32+workgroupBarrier"
	entry, finding := KnownBy(known, own)
	assert.Equal(t, own, entry)
	assert.Equal(t, mesa, finding)
	assert.Equal(t, mesa, Bug{Signature: own, State: "known", KnownBy: entry, KnownAs: finding}.KnownText())

	for refind, pattern := range map[string]string{
		"vendor/dawn-gl:llvmpipe-mesa25/if+add.u32+dynindex+workgroupBarrier":      "vendor/dawn-gl*:*/*workgroupBarrier*",
		"vendor/dawn-gles:llvmpipe/add.i32+dynindex+workgroupBarrier":              "vendor/dawn-gl*:*/*workgroupBarrier*",
		"predication/dawn-gl:llvmpipe-mesa25/loop+break+dynindex+workgroupBarrier": "predication/dawn-gl*:*/*workgroupBarrier*",
	} {
		entry, finding = KnownBy(known, refind)
		assert.Equal(t, pattern, entry, refind)
		assert.Equal(t, mesa, finding, refind)
		assert.Equal(t, "family of "+mesa+" (pattern "+pattern+")",
			Bug{Signature: refind, State: "known", KnownBy: entry, KnownAs: finding}.KnownText())
	}

	for _, other := range []string{
		"vendor/wgpu-gl:llvmpipe/add.u32+dynindex+workgroupBarrier",   // naga's GLSL
		"vendor/dawn-vulkan:llvmpipe-mesa25/add.u32+workgroupBarrier", // Tint's SPIR-V on lavapipe
		"stack/dawn-gl:llvmpipe/add.u32+workgroupBarrier",             // a stack, not a driver, divergence
		"vendor/deno-gl:llvmpipe/add.u32+storageBarrier",
		"crash/dawn-gl:llvmpipe/workgroupBarrier",  // another class
		"vendor/dawn-gl:llvmpipe/add.u32+dynindex", // no barrier
		"predication/dawn-vulkan:swiftshader/add.u32+workgroupBarrier",
	} {
		assert.False(t, known.Known(other), other)
	}

	// Three more findings, each with the signature a campaign met it
	// under (its own, or a barely shrunk re-find), another re-find the
	// family pattern knows, and signatures it must not swallow.
	for _, fc := range []struct {
		finding, met, refind, pattern string
		unknown                       map[string]string // signature → why it is not this finding
	}{
		{ // naga 29's GLSL pack4xU8 (data profile, seed 2028 program 24)
			finding: "findings/compute/naga_glsl_pack4x8_precedence.wgsl",
			met:     "vendor/deno-gl:llvmpipe/add.u32+pack4xU8.u32+shl.u32+unpack4xU8.u32",
			refind:  "vendor/deno-gl:llvmpipe-mesa25/mul.u32+pack4xU8Clamp.u32+unpack4xU8.u32",
			pattern: "vendor/deno-gl:*/*pack4xU8*",
			unknown: map[string]string{
				"vendor/dawn-gl:llvmpipe/mul.u32+pack4xU8.u32+unpack4xU8.u32": "Tint's GLSL",
				"vendor/deno-gl:llvmpipe/mul.u32+pack4xI8.i32+unpack4xI8.u32": "the signed forms are right",
			},
		},
		{ // Mesa's GLSL continue two switches deep (default, seed 2028 program 16)
			finding: "findings/compute/mesa_glsl_continue_nested_switch.wgsl",
			met:     "spirv/wgpu-gl:llvmpipe/if+switch+loop+break+continue+add.i32+lt.i32+not.bool",
			refind:  "vendor/deno-gl:llvmpipe-mesa25/switch+loop+break+continue+add.i32",
			pattern: "vendor/deno-gl:*/*switch+loop*continue*",
			unknown: map[string]string{
				"vendor/dawn-gl:llvmpipe/switch+loop+break+continue+add.i32": "Tint's GLSL",
				"vendor/deno-gl:llvmpipe/if+loop+break+continue+add.i32":     "no switch",
			},
		},
		{ // lavapipe's product of two transposes (compute, seed 302 program 56)
			finding: "findings/compute/lavapipe_transpose_times_transpose.wgsl",
			met:     "crash/wgpu-vulkan:llvmpipe/add.mat3x4<f32>+add.u32+clamp.f32+conv.f32.u32+dynindex+max.u32+min.u32+mul.mat3x2<f32>+mul.mat4x2<f32>+mul.u32+or.u32+rem.u32+sub.u32+swizzle+transpose.mat2x4<f32>+transpose.mat3x2<f32>+transpose.mat4x3<f32>+workgroupBarrier+xor.u32",
			refind:  "crash/deno-vulkan:llvmpipe-mesa25/mul.mat2x3<f32>+transpose.mat3x2<f32>",
			pattern: "crash/*-vulkan:llvmpipe*/*mul.mat*transpose.mat*",
			unknown: map[string]string{
				"crash/wgpu-vulkan:swiftshader/mul.mat2x3<f32>+transpose.mat3x2<f32>": "SwiftShader",
				"crash/wgpu-vulkan:llvmpipe/mul.mat2x3<f32>":                          "no transpose",
				"vendor/wgpu-vulkan:llvmpipe/mul.mat2x3<f32>+transpose.mat3x2<f32>":   "a wrong result",
			},
		},
	} {
		for _, sig := range []string{fc.met, fc.refind} {
			_, finding = KnownBy(known, sig)
			assert.Equal(t, fc.finding, finding, sig)
		}
		entry, _ = KnownBy(known, fc.refind)
		assert.Equal(t, fc.pattern, entry, fc.refind)
		for sig, why := range fc.unknown {
			assert.False(t, known.Known(sig), "%s: %s", sig, why)
		}
	}

	t.Setenv(flatten.FaultEnv, "retest-else")
	prof, err := gen.LookupProfile("default")
	require.NoError(t, err)
	b := &baseline.Set{}
	require.NoError(t, b.Add("flatten/interp/*"))
	sum, err := RunCampaign(t.Context(), Config{Seed: 1, Count: 8, Gen: gen.Config{Profile: prof}, Baseline: b, ToolVersion: "test"})
	require.NoError(t, err)
	require.NotEmpty(t, sum.Failures)
	for _, f := range sum.Failures {
		assert.True(t, f.Known, f.Signature)
		assert.Equal(t, "flatten/interp/*", f.KnownBy)
		assert.Empty(t, f.KnownAs)
		assert.Equal(t, f.BugClasses, f.ShrunkBugClasses, "known without shrinking: the program's own classes")
	}
	bug := Bugs(sum.Failures)[0]
	assert.Equal(t, "baseline pattern flatten/interp/*", bug.KnownText())
}
