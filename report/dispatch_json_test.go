package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// floatsKernel writes NaN, ±Inf, -0 and a subnormal (bitcasts of the
// input words), a nested struct with a matrix and a padded vec3, and an
// atomic, into several read_write bindings.
const floatsKernel = `struct Inner { v: vec3<f32>, k: i32 }
struct Outer { inner: Inner, m: mat2x2<f32>, tags: array<u32, 2> }
@group(0) @binding(0) var<storage, read> words: array<u32, 6>;
@group(0) @binding(1) var<storage, read_write> fs: array<f32, 6>;
@group(0) @binding(2) var<storage, read_write> o: Outer;
@group(0) @binding(3) var<storage, read_write> n: atomic<u32>;
@group(0) @binding(4) var<storage, read_write> rt: array<Inner>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) l: u32) {
  if (l == 0u) {
    for (var i = 0u; i < 6u; i++) {
      fs[i] = bitcast<f32>(words[i]);
    }
    o.inner.v = vec3<f32>(fs[0], 1.5, -2.25);
    o.inner.k = -7;
    o.m = mat2x2<f32>(0.25, 0.5, 0.75, 1e20);
    o.tags = array<u32, 2>(1u, 4294967295u);
    rt[1].v = vec3<f32>(3.0, fs[3], 0.1);
  }
  atomicAdd(&n, 1u);
}
`

const floatsInputs = `{"words": [2143289344, 2139095040, 4286578688, 2147483648, 1, 1065353216], "rt": [{"v": [0, 0, 0], "k": 1}, {"v": [0, 0, 0], "k": 2}, {"v": [1, 2, 3], "k": 3}]}`

// outOfDomainKernel loops until a binding holds a value the made-up
// inputs (--fill small: 1 + index mod 16) never give: the reference stops
// at the step limit, the verdict is out-of-domain.
const outOfDomainKernel = `@group(0) @binding(0) var<storage, read_write> x: array<u32, 4>;

@compute @workgroup_size(1)
fn main() {
  var i = 0u;
  while (x[0] != 12345u) {
    i++;
  }
  x[1] = i;
}
`

// tileKernel is issue 26's tiled kernel (shaders/sweep_bench_test.go):
// 256 leaves of y per workgroup, for the tables' hidden rows.
const tileKernel = `@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
var<workgroup> tile: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) l: u32) {
  let i = gid.x;
  tile[l] = x[i] * 2.0;
  workgroupBarrier();
  y[i] = tile[l] + tile[(l + 1u) % 256u] + y[i];
}
`

// dispatchJSONCases are the entry points the byte-identity test renders:
// races (indeterminate leaves, allowed sets), an atomic counter's allowed
// range, out-of-bounds stores, structs with padding and a runtime-sized
// array of them, textures, the floats kernel, a twin (--flat) and an
// out-of-domain reference.
func dispatchJSONCases(t *testing.T) map[string]*check.Result {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "floats.wgsl"), []byte(floatsKernel), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "floats.inputs.json"), []byte(floatsInputs), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ood.wgsl"), []byte(outOfDomainKernel), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tile.wgsl"), []byte(tileKernel), 0o644))
	type src struct {
		path string
		opts testcase.LoadOptions
	}
	srcs := map[string]src{}
	for _, n := range []string{"race", "race_neighbour_read", "race_across_workgroups", "atomic_counter_read", "atomic_minmax_global",
		"oob_store_whole_binding", "oob_read_values", "particles", "core_align_size", "core_vec3_binding", "histogram", "indeterminate_loop_exit"} {
		srcs[n] = src{"../shaders/compute/" + n + ".wgsl", testcase.LoadOptions{}}
	}
	srcs["race flat"] = src{"../shaders/compute/race.wgsl", testcase.LoadOptions{Flat: new(true)}}
	srcs["tile"] = src{filepath.Join(dir, "tile.wgsl"), testcase.LoadOptions{Workgroups: &[3]uint32{3, 1, 1}}}
	srcs["store_load"] = src{"../shaders/textures/store_load.wgsl", testcase.LoadOptions{}}
	srcs["floats"] = src{filepath.Join(dir, "floats.wgsl"), testcase.LoadOptions{}}
	srcs["floats flat"] = src{filepath.Join(dir, "floats.wgsl"), testcase.LoadOptions{Flat: new(true)}}
	srcs["out of domain"] = src{filepath.Join(dir, "ood.wgsl"), testcase.LoadOptions{Fill: "small"}}
	out := map[string]*check.Result{}
	for name, s := range srcs {
		c, err := testcase.Load(s.path, s.opts)
		require.NoError(t, err, name)
		o, err := check.Execute(context.Background(), c, check.CaseOptions(c, check.Options{}))
		require.NoError(t, err, name)
		require.NotNil(t, o, name)
		out[name] = o
	}
	require.Equal(t, oracle.OutOfDomain, out["out of domain"].Verdict, "the out-of-domain case is one")
	return out
}

// withRuns adds judged runs to res: one returning the reference's values
// with its first determinate leaf of every output changed (a differing
// leaf: "≠") and every indeterminate one at its allowed set's first
// member or bound, the last leaf's value pushed past a range; one whose
// last output lacks its last leaf ("<missing>"); a crashed one whose
// message has HTML and control characters; and a skipped one. asBuffer
// gives the runs' buffer outputs as ir.Buffer.
func withRuns(t *testing.T, c *testcase.ComputeCase, res *check.Result, asBuffer bool) {
	t.Helper()
	if res.Domain != "" {
		return
	}
	var changed, short []oracle.Expected
	for b, e := range res.Reference[0] {
		v := e.Val().Clone()
		leaf, first := 0, true
		var rec func(v *ir.Value)
		rec = func(v *ir.Value) {
			if v.Elems == nil && v.Type.IsScalar() {
				ind := leaf < len(e.Indeterminate) && e.Indeterminate[leaf]
				switch {
				case !ind && first:
					v.Bits ^= 0x40000001
					first = false
				case ind && len(e.Set(leaf).Values) > 0:
					v.Bits = e.Set(leaf).Values[0]
				case ind && e.Set(leaf).HasRange:
					v.Bits = e.Set(leaf).Hi + 1 // outside the range: a mismatch "one of [lo, hi]"
				}
				leaf++
				return
			}
			for i := range v.Elems {
				rec(&v.Elems[i])
			}
		}
		rec(&v)
		changed = append(changed, expectedAs(t, c, res.Names[b], v, asBuffer))
		sv := e.Val().Clone()
		if b == len(res.Reference[0])-1 && sv.Type.Kind == ir.KindRuntimeArray && len(sv.Elems) > 0 {
			sv.Elems = sv.Elems[:len(sv.Elems)-1]
		}
		short = append(short, expectedAs(t, c, res.Names[b], sv, asBuffer))
	}
	runs := []oracle.Run{
		{Adapter: "fake <a&b>", Function: c.Entry, Format: oracle.FormatWGSL, Mode: "portable", Outputs: [][]oracle.Expected{changed}},
		{Adapter: "fake", Function: c.Entry, Format: oracle.FormatSPIRV, Mode: "raw", Outputs: [][]oracle.Expected{short}},
		{Adapter: "crashy", Function: c.Entry, Format: oracle.FormatWGSL, Failed: oracle.Crash, Message: "SIGSEGV in <vtn> & \"more\"\n\tline 2\x01 \u2028 é"},
	}
	for _, r := range res.Runs { // the twin's interpreter run (--flat)
		runs = append(runs, r.Run)
	}
	res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, runs)
	res.Skipped = append(res.Skipped, oracle.Run{Adapter: "dawn", Function: c.Entry, Format: oracle.FormatSPIRV, Failed: oracle.Unsupported, Message: "Dawn takes <WGSL> only"})
}

// expectedAs is v as the output name of c: a Buffer of its binding's type
// when asBuffer (a storage texture's output stays a Value).
func expectedAs(t *testing.T, c *testcase.ComputeCase, name string, v ir.Value, asBuffer bool) oracle.Expected {
	t.Helper()
	sv := c.Module.SharedVar(name)
	if !asBuffer || sv == nil {
		return oracle.Expected{Value: v}
	}
	b, err := ir.NewBuffer(sv.T, v)
	require.NoError(t, err, name)
	return oracle.Expected{Buffer: b}
}

// asReference is res with its reference's buffer outputs as ir.Buffer
// (asBuffer) or as ir.Value trees, whichever form check gave (their
// indeterminacy and allowed sets kept).
func asReference(t *testing.T, c *testcase.ComputeCase, res *check.Result, asBuffer bool) *check.Result {
	t.Helper()
	r := *res
	var ref []oracle.Expected
	for b, e := range res.Reference[0] {
		x := expectedAs(t, c, res.Names[b], e.Val(), asBuffer)
		x.Indeterminate, x.Tolerance, x.Allowed, x.Why = e.Indeterminate, e.Tolerance, e.Allowed, e.Why
		ref = append(ref, x)
	}
	r.Reference = [][]oracle.Expected{ref}
	return &r
}

// TestDispatchJSONIsByteIdentical: exec --json's document for an entry
// point, streamed (WriteDispatchJSON), is byte for byte what the
// encoding/json code path it replaces printed (dispatch_json_old_test.go,
// a copy of that code), on reference results of real dispatches with
// judged runs added — with the reference and the runs' outputs as
// ir.Value trees and as ir.Buffer alike; and WriteEntriesJSON's array of
// several entry points likewise.
func TestDispatchJSONIsByteIdentical(t *testing.T) {
	var entries []EntryRun
	for name, o := range dispatchJSONCases(t) {
		c := o.Case.Entry()
		valueRes := *asReference(t, c, o, false)
		withRuns(t, c, &valueRes, false)
		var want, got bytes.Buffer
		require.NoError(t, oldWriteDispatchJSON(&want, c, &valueRes), name)
		require.NoError(t, WriteDispatchJSON(&got, c.Case(), &valueRes), name)
		require.Equal(t, want.String(), got.String(), "%s: ir.Value form", name)

		bufRes := asReference(t, c, o, true)
		withRuns(t, c, bufRes, true)
		got.Reset()
		require.NoError(t, WriteDispatchJSON(&got, c.Case(), bufRes), name)
		require.Equal(t, want.String(), got.String(), "%s: ir.Buffer form", name)
		// The oracle judged both forms alike (its own test covers the
		// cases one by one).
		for k := range valueRes.Runs {
			assert.Equal(t, valueRes.Runs[k].Diffs, bufRes.Runs[k].Diffs, "%s run %d", name, k)
			assert.Equal(t, valueRes.Runs[k].Verdict, bufRes.Runs[k].Verdict, "%s run %d", name, k)
		}
		if name == "floats" {
			for _, s := range []string{`"NaN"`, `"+Inf"`, `"-Inf"`, `-0`, `1e-45`, `1e+20`, `"\u003cmissing\u003e"`, `"fake \u003ca\u0026b\u003e"`, `"indeterminate"`} {
				assert.Contains(t, got.String(), s, "the floats case covers %s", s)
			}
		}
		if strings.Contains(got.String(), `"oneOf"`) {
			t.Logf("%s has allowed sets", name)
		}
		o2 := valueRes
		entries = append(entries, EntryRun{Name: name, Outcome: &o2, Exit: len(entries) % 4})
	}
	entries = append(entries[:2], append([]EntryRun{{Name: "refused", Err: "x.wgsl:1:2: no <such> thing", Exit: 2}}, entries[2:]...)...)
	var want, got bytes.Buffer
	require.NoError(t, oldWriteEntriesJSON(&want, entries))
	require.NoError(t, WriteEntriesJSON(&got, entries))
	require.Equal(t, want.String(), got.String())
}

// TestDispatchTableIsUnchanged: exec's table for an entry point, made
// leaf by leaf for the rows shown (WriteDispatchTable), is what the code
// it replaces printed (dispatch_json_old_test.go), with and without
// --all-rows and colour, both forms of outputs; except that a matrix is
// now its C×R leaves, a row each (the floats kernel's o.m), as the oracle
// compares and names them.
func TestDispatchTableIsUnchanged(t *testing.T) {
	for name, o := range dispatchJSONCases(t) {
		c := o.Case.Entry()
		valueRes := *asReference(t, c, o, false)
		withRuns(t, c, &valueRes, false)
		bufRes := asReference(t, c, o, true)
		withRuns(t, c, bufRes, true)
		for _, opts := range []ExecOptions{{}, {AllRows: true}, {Color: true}} {
			var want, got, gotBuf bytes.Buffer
			oldWriteDispatchTable(&want, c, &valueRes, opts)
			WriteDispatchTable(&got, c.Case(), &valueRes, opts)
			WriteDispatchTable(&gotBuf, c.Case(), bufRes, opts)
			require.Equal(t, got.String(), gotBuf.String(), "%s %+v: both forms", name, opts)
			if strings.HasPrefix(name, "floats") {
				// o.m's four leaves, column by column, a row each (the
				// old table had one row "o.m" for the whole matrix).
				for _, row := range []string{`│ o\.m\[0\]\[0\] +│ 0\.25 `, `│ o\.m\[0\]\[1\] +│ 0\.5 `, `│ o\.m\[1\]\[0\] +│ 0\.75 `, `│ o\.m\[1\]\[1\] +│ 1e\+20 `} {
					assert.Regexp(t, row, got.String(), name)
				}
				assert.Regexp(t, `│ o\.m +│ \(\(0\.25, 0\.5\), \(0\.75, 1e\+20\)\) `, want.String(), "the old table's one row for o.m")
				continue
			}
			require.Equal(t, want.String(), got.String(), "%s %+v", name, opts)
			if name == "tile" && !opts.AllRows {
				assert.Contains(t, got.String(), "agreeing leaves of y not shown", "the tile case hides rows")
			}
		}
	}
}

// matKernel returns a matrix and a struct (one output each leaf kind).
const matKernel = `struct R { m: mat2x2<f32>, s: f32, ok: bool }
fn k(x: f32, n: i32) -> R {
  return R(mat2x2<f32>(x, 2.0 * x, x * x, -x), x / f32(n), n > 0);
}
`

// loopKernel does not finish for an odd x (the step limit):
// reference_errors.
const loopKernel = `fn k(x: u32) -> u32 {
  var i = 0u;
  while (i != x) {
    i += 2u;
  }
  return i;
}
`

// TestExecJSONIsByteIdentical: exec --json for a function kernel and a
// fragment entry point, streamed (WriteExecJSON), is byte for byte what
// the encoding/json code path it replaces printed
// (dispatch_json_old_test.go), on real reference results (edge inputs:
// NaN, ±Inf, -0, indeterminate outputs; structs with bools; a matrix; a
// twin; unfinished invocations) with judged runs added, and with repro's
// member.
func TestExecJSONIsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mat.wgsl"), []byte(matKernel), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "loop.wgsl"), []byte(loopKernel), 0o644))
	edges := func(n int, flat bool) testcase.LoadOptions {
		return testcase.LoadOptions{Invocations: n, Flat: new(flat)}
	}
	cases := map[string]struct {
		path string
		opts testcase.LoadOptions
	}{
		"particle":      {"../shaders/examples/particle.wgsl", testcase.LoadOptions{}},
		"particle flat": {"../shaders/examples/particle.wgsl", testcase.LoadOptions{Flat: new(true)}},
		"tonemap edges": {"../shaders/examples/tonemap.wgsl", edges(40, true)},
		"pack edges":    {"../shaders/examples/pack.wgsl", edges(30, false)},
		"divmod edges":  {"../shaders/examples/divmod.wgsl", edges(30, false)},
		"mat":           {filepath.Join(dir, "mat.wgsl"), testcase.LoadOptions{Invocations: 24, Fill: "small", Flat: new(true)}},
		"mat edges":     {filepath.Join(dir, "mat.wgsl"), edges(24, false)},
		"loop":          {filepath.Join(dir, "loop.wgsl"), testcase.LoadOptions{Invocations: 6, Fill: "iota"}},
		"checker":       {"../shaders/fragment/checker.wgsl", testcase.LoadOptions{Size: &[2]uint32{4, 4}}},
	}
	for name, cs := range cases {
		c, err := testcase.Load(cs.path, cs.opts)
		require.NoError(t, err, name)
		o, err := check.Execute(context.Background(), c, check.CaseOptions(c, check.Options{Interp: interpOptions()}))
		require.NoError(t, err, name)
		require.NotNil(t, o, name)
		res := *o
		// A GPU-like run: the reference's outputs, invocation 1's first
		// determinate leaf changed, the last invocation missing.
		var outs [][]oracle.Expected
		for i, inv := range res.Reference {
			var row []oracle.Expected
			for _, e := range inv {
				v := e.Val().Clone()
				if i == 1 {
					flipFirstDeterminate(&v, e.Indeterminate)
				}
				row = append(row, oracle.Expected{Value: v})
			}
			if i < len(res.Reference)-1 {
				outs = append(outs, row)
			}
		}
		runs := []oracle.Run{
			{Adapter: "fake <gpu>", Function: o.Case.Func.Name, Format: oracle.FormatWGSL, Stage: oracle.StageCompute, Mode: "portable", Outputs: outs},
			{Adapter: "crashy", Function: o.Case.Func.Name, Format: oracle.FormatSPIRV, Stage: oracle.StageFragment, Mode: "raw", Failed: oracle.Crash, Message: "SIGSEGV <&>"},
		}
		for _, r := range res.Runs {
			runs = append(runs, r.Run)
		}
		res.Runs, res.Verdict = oracle.Judge(res.Reference, res.Names, runs)
		for _, replay := range []*check.ReplayOutcome{nil, {Outcome: "REPRODUCES", Recorded: []string{"stack"}, Message: "repro: REPRODUCES: <stack> & more"}} {
			var want, got bytes.Buffer
			require.NoError(t, oldWriteExecJSON(&want, o.Case.Func, o.Case.Args, &res, replay), name)
			require.NoError(t, WriteExecJSON(&got, o.Case.Func, o.Case.Args, &res, replay), name)
			w := want.String()
			if name == "mat edges" {
				// x / 0 (n = 0) is indeterminate: leaf 4 of R, after the
				// matrix's four. The old code took the matrix for one leaf
				// and read leaf 1's mark for s, writing its value.
				// (In the reference only: a GPU run's -Inf is its value.)
				ref, runs, ok := strings.Cut(w, `"runs": [`)
				require.True(t, ok)
				require.Contains(t, ref, `"s": "-Inf"`)
				ref = strings.ReplaceAll(ref, `"s": "-Inf"`, `"s": "indeterminate"`)
				ref = strings.ReplaceAll(ref, `"s": "+Inf"`, `"s": "indeterminate"`)
				w = ref + `"runs": [` + runs
			}
			require.Equal(t, w, got.String(), name)
			if name == "loop" {
				assert.Contains(t, got.String(), `"reference_errors"`)
			}
			if name == "particle" {
				for _, x := range []string{`"stage": "compute"`, `"class": `, `"fake \u003cgpu\u003e"`, `"mismatches": [`, `"indeterminate": []`} {
					assert.Contains(t, got.String(), x)
				}
			}
		}
	}
}

// flipFirstDeterminate changes v's first scalar leaf that ind does not
// mark indeterminate.
func flipFirstDeterminate(v *ir.Value, ind []bool) {
	leaf, done := 0, false
	var rec func(v *ir.Value)
	rec = func(v *ir.Value) {
		if done {
			return
		}
		if v.Elems == nil && v.Type.IsScalar() {
			if !(leaf < len(ind) && ind[leaf]) {
				v.Bits ^= 1
				done = true
			}
			leaf++
			return
		}
		for i := range v.Elems {
			rec(&v.Elems[i])
		}
	}
	rec(v)
}

// interpOptions bounds the loop kernel's unfinished invocations quickly.
func interpOptions() interp.Options { return interp.Options{MaxSteps: 10_000} }
