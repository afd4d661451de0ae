package campaign

import (
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
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
