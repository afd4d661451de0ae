package shaders

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/report"
)

// TestCrossWorkgroupStorageRacesReported checks that the compact race
// shadow (interp/shadow.go: per location the last write, the first read
// and an optional second read) still finds races between workgroups far
// apart, with the same reports as the per-access definition gives.
//
// Hand derivation (8 workgroups of 4, run in order; every invocation
// reads buf[0], writes its own buf[gid+1]): invocation 21 (workgroup 5)
// writes buf[0], which invocation 0 (workgroup 0) read first; no barrier
// orders invocations of different workgroups, so that pair races, and
// the first read is the one reported. buf[40] is written by invocations
// 5 (workgroup 1) and, after a storageBarrier, 30 (workgroup 7): the
// barrier orders only invocations of one workgroup (WGSL
// #sync-builtin-functions), so that is a write-write race. Both are
// reported once, in the order found; buf[1..32] race with nothing.
// (The reports are also those of the reference before the shadow was
// made compact: same messages, same order.)
func TestCrossWorkgroupStorageRacesReported(t *testing.T) {
	src := `@group(0) @binding(0) var<storage, read_write> buf: array<u32, 64>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = buf[0];
  buf[gid.x + 1u] = v + gid.x;
  if (gid.x == 21u) {
    buf[0] = 7u;
  }
  if (gid.x == 5u) {
    buf[40] = 5u;
  }
  storageBarrier();
  if (gid.x == 30u) {
    buf[40] = 30u;
  }
}
`
	m, err := wgsl.Parse("xrace.wgsl", []byte(src))
	require.NoError(t, err)
	d, err := interp.CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, [3]uint32{8, 1, 1}, interp.Options{})
	require.NoError(t, err)
	var got []string
	for _, r := range res.Races {
		got = append(got, r.String())
	}
	require.Equal(t, []string{
		"data race on buf (leaf 0): xrace.wgsl:5:14: read by invocation 0 (workgroup 0), and xrace.wgsl:8:12: write by invocation 21 (workgroup 5)",
		"data race on buf (leaf 40): xrace.wgsl:11:13: write by invocation 5 (workgroup 1), and xrace.wgsl:15:13: write by invocation 30 (workgroup 7)",
	}, got)
	out := res.Buffers["buf"]
	require.NotNil(t, out.Indeterminate)
	for i := range 64 {
		// The racing leaves are indeterminate, and so is buf[1..32],
		// computed from the racing read of buf[0]; no invocation
		// touches the rest (zero, exact).
		require.Equal(t, i <= 32 || i == 40, out.Indeterminate[i], "leaf %d", i)
	}
}

// endsAfter is a context that ends at its n-th look (Err call): a
// deterministic stand-in for a SIGTERM arriving during a long dispatch.
type endsAfter struct {
	context.Context
	n     int64
	looks atomic.Int64 // parallel workers look too
	done  chan struct{}
}

func (c *endsAfter) Done() <-chan struct{} { return c.done }
func (c *endsAfter) Err() error {
	if c.looks.Add(1) >= c.n {
		return context.Canceled
	}
	return nil
}

// TestDispatchStopsWhenItsContextEnds: a dispatch of issue 26's tiled
// kernel (4,096 workgroups) whose Options.Context ends stops at the
// look that sees it (between workgroups, or every few thousand steps
// inside one) with an error wrapping context.Canceled and no result; an
// open context changes nothing.
func TestDispatchStopsWhenItsContextEnds(t *testing.T) {
	m, err := wgsl.Parse("tile.wgsl", []byte(tileKernel))
	require.NoError(t, err)
	d, err := interp.CompileEntry(m, "main")
	require.NoError(t, err)
	ctx := &endsAfter{Context: context.Background(), n: 10, done: make(chan struct{})}
	res, err := d.Run(nil, [3]uint32{4096, 1, 1}, interp.Options{Context: ctx, Workers: 1})
	require.ErrorIs(t, err, context.Canceled)
	require.Nil(t, res)
	require.LessOrEqual(t, ctx.looks.Load(), int64(10+2), "it stops at the look that sees the end (then builds its error)")
	// In parallel (interp/parallel.go) each worker stops at its next look.
	ctx = &endsAfter{Context: context.Background(), n: 10, done: make(chan struct{})}
	res, err = d.Run(nil, [3]uint32{4096, 1, 1}, interp.Options{Context: ctx, Workers: 3})
	require.ErrorIs(t, err, context.Canceled)
	require.Nil(t, res)
	require.LessOrEqual(t, ctx.looks.Load(), int64(10+2*3+2))

	arr := func(f func(i int) float32) ir.Value {
		v := ir.Value{Type: m.SharedVar("x").T}
		for i := range 512 {
			v.Elems = append(v.Elems, ir.F32Val(f(i)))
		}
		return v
	}
	in := map[string]ir.Value{"x": arr(func(i int) float32 { return float32(i) }), "y": arr(func(int) float32 { return 1 })}
	small := func(o interp.Options) *interp.DispatchResult {
		res, err := d.Run(in, [3]uint32{2, 1, 1}, o)
		require.NoError(t, err)
		return res
	}
	want := small(interp.Options{})
	require.Equal(t, want, small(interp.Options{Context: &endsAfter{Context: context.Background(), n: 1 << 30, done: make(chan struct{})}}))
	// y[i] = 2x[i] + 2x[next in the tile] + 1: y[0] = 0 + 2 + 1, y[255] = 510 + 0 + 1.
	y := want.Buffers["y"].Value.Elems
	require.Equal(t, float32(3), y[0].F32())
	require.Equal(t, float32(511), y[255].F32())
}

// TestParallelDispatchIsTheSameForAnyWorkers: the reference's dispatch
// on 1, 2 and 3 workers (interp.Options.Workers; interp/parallel.go)
// gives byte-identical exec --json reports (outputs, indeterminate marks,
// allowed sets, race reports and their order) for every compute shader of
// shaders/compute (atomics, barriers, races, out-of-bounds accesses among
// them) and for kernels chosen to stress the merge: issue 26's tiled
// kernel over 64 workgroups (parallel throughout), a cross-workgroup
// storage race (TestCrossWorkgroupStorageRacesReported's: abandoned,
// rerun in order), a global atomic counter, and a workgroup-memory race
// in every workgroup (reported once, for the first workgroup). The
// expected value is the one-worker run, the sequential reference every
// other test checks.
func TestParallelDispatchIsTheSameForAnyWorkers(t *testing.T) {
	files, err := filepath.Glob("compute/*.wgsl")
	require.NoError(t, err)
	dir := t.TempDir()
	extra := map[string]string{
		"tile.wgsl": tileKernel,
		"xrace.wgsl": `@group(0) @binding(0) var<storage, read_write> buf: array<u32, 64>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = buf[0];
  buf[gid.x + 1u] = v + gid.x;
  if (gid.x == 21u) { buf[0] = 7u; }
}
`,
		"counter.wgsl": `@group(0) @binding(0) var<storage, read_write> n: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 32>;
@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  out[gid.x] = atomicAdd(&n, gid.x);
}
`,
		"wgrace.wgsl": `@group(0) @binding(0) var<storage, read_write> out: array<u32, 32>;
var<workgroup> t: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) l: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
  t[l] = gid.x;
  out[gid.x] = t[(l + 1u) % 4u];
}
`,
	}
	wgs := map[string]uint32{"tile.wgsl": 64, "xrace.wgsl": 8, "counter.wgsl": 8, "wgrace.wgsl": 8}
	for name, src := range extra {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
		files = append(files, p)
	}
	ran := 0
	for _, f := range files {
		var opts testcase.LoadOptions
		if n := wgs[filepath.Base(f)]; n != 0 {
			opts.Workgroups = &[3]uint32{n, 1, 1}
		}
		c, err := testcase.Load(f, opts)
		if err != nil || c.Kind != testcase.KindCompute {
			continue // a function kernel, a fragment shader, several entry points
		}
		var want []byte
		for _, workers := range []int{1, 2, 3} {
			x, err := check.Execute(t.Context(), c, check.CaseOptions(c, check.Options{Interp: interp.Options{Workers: workers}}))
			var b bytes.Buffer
			if err == nil {
				require.NoError(t, report.WriteCaseJSON(&b, x, nil))
			} else {
				b.WriteString(err.Error()) // the reference's error: the same too
			}
			if workers == 1 {
				want = b.Bytes()
				continue
			}
			require.Equal(t, string(want), b.String(), "%s with %d workers", f, workers)
		}
		ran++
	}
	require.GreaterOrEqual(t, ran, 40, "compute shaders dispatched")
}
