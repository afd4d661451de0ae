package shaders

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// tileKernel is issue 26's one-barrier tiled kernel: each invocation
// writes its tile element, waits for the workgroup, and adds its
// neighbour's (workgroup size 256, f32 buffers: 8 bytes of bound buffers
// per invocation).
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

// BenchmarkDispatchSweep is the reference's dispatch-size sweep (issue
// 26; `make bench` runs it) for 65,536, 1,048,576 and 4,194,304
// invocations of tileKernel, each measured in a process of its own:
//
//   - exec: `gpudiff exec tile.wgsl --workgroups N --no-gpu --json`, the
//     whole command (loading, bindings, reference, report);
//   - reference: interp.Dispatch.RunBuffers alone, on bindings given as
//     bytes (ir.Buffer; this test binary re-run as
//     TestSweepReferenceChild), its workgroups on every core
//     (interp.Options.Workers 0);
//   - reference-1: the same on one worker (the sequential reference), for
//     the parallel speed-up (compare the wall times; CPU times stay close).
//
// Each size runs the three rows sweepReps times, alternating their order
// from one repetition to the next; a row gives the median wall time (s),
// the median CPU time (user + system, s: on a machine shared with other
// work the steadier figure) and the largest peak resident memory (MB, the
// child's getrusage ru_maxrss) beside issue 26's target (64 MB + 4× the
// bound buffers' bytes), and each size the parallel speed-up: the median
// over the repetitions of reference-1's wall time over reference's, each
// pair measured back to back (issue 26's target: ≥ 1.7× on 2 cores at
// 1,048,576 invocations).
func BenchmarkDispatchSweep(b *testing.B) {
	dir, bin := buildGpudiff(b)
	src := filepath.Join(dir, "tile.wgsl")
	if err := os.WriteFile(src, []byte(tileKernel), 0o644); err != nil {
		b.Fatal(err)
	}
	type sample struct {
		wall, cpu time.Duration
		rss       int64         // KiB
		dispatch  time.Duration // RunBuffers alone (the reference rows)
	}
	runOne := func(b *testing.B, what string, wg, inv int) sample {
		cmd := exec.Command(bin, "exec", src, "--workgroups", fmt.Sprint(wg), "--no-gpu", "--json", "--max-invocations", fmt.Sprint(inv))
		if what != "exec" {
			cmd = exec.Command(os.Args[0], "-test.run", "^TestSweepReferenceChild$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", sweepChildEnv, wg))
			if what == "reference-1" {
				cmd.Env = append(cmd.Env, sweepWorkersEnv+"=1")
			}
		}
		// The output (exec's JSON: tens of MB) is not kept: a child
		// started with vfork inherits the parent's peak RSS as its own
		// ru_maxrss (Linux sets it from the mm the exec leaves), so this
		// process must stay small.
		out := &tailWriter{}
		cmd.Stdout, cmd.Stderr = out, out
		t0 := time.Now()
		err := cmd.Run()
		wall := time.Since(t0)
		if err != nil {
			b.Fatalf("%v: %v\n%s", cmd.Args, err, out.b)
		}
		return sample{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
			rss: cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss, dispatch: dispatchTime(out.b)}
	}
	median := func(ds []time.Duration) time.Duration {
		ds = slices.Clone(ds)
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	whats := []string{"exec", "reference", "reference-1"}
	var rows []string
	for _, wg := range []int{256, 4096, 16384} {
		inv := wg * 256
		b.Run(fmt.Sprintf("invocations=%d", inv), func(b *testing.B) {
			for b.Loop() {
				samples := map[string][]sample{}
				var ratios, dratios []time.Duration // reference-1 / reference, in thousandths: processes, RunBuffers alone
				for r := range sweepReps {
					order := slices.Clone(whats)
					if r%2 == 1 {
						slices.Reverse(order)
					}
					for _, what := range order {
						samples[what] = append(samples[what], runOne(b, what, wg, inv))
					}
					ref, one := samples["reference"][r], samples["reference-1"][r]
					ratios = append(ratios, time.Duration(1000*one.wall.Seconds()/ref.wall.Seconds()))
					dratios = append(dratios, time.Duration(1000*one.dispatch.Seconds()/ref.dispatch.Seconds()))
				}
				target := 64 + 4*float64(inv*8)/(1<<20)
				for _, what := range whats {
					var walls, cpus []time.Duration
					var rss int64
					for _, x := range samples[what] {
						walls, cpus, rss = append(walls, x.wall), append(cpus, x.cpu), max(rss, x.rss)
					}
					wall, cpu, mb := median(walls), median(cpus), float64(rss)/1024
					b.ReportMetric(wall.Seconds(), what+"-s")
					b.ReportMetric(cpu.Seconds(), what+"-cpu-s")
					b.ReportMetric(mb, what+"-peak-MB")
					rows = append(rows, fmt.Sprintf("%-11s %9d invocations: %6.2f s (CPU %6.2f s), peak %7.1f MB (target ≤ %.0f MB: %s)",
						what, inv, wall.Seconds(), cpu.Seconds(), mb, target, map[bool]string{true: "met", false: "not met"}[mb <= target]))
				}
				speedup, dspeedup := float64(median(ratios))/1000, float64(median(dratios))/1000
				b.ReportMetric(speedup, "speedup")
				b.ReportMetric(dspeedup, "dispatch-speedup")
				rows = append(rows, fmt.Sprintf("  all cores vs one worker at %d invocations: the dispatch (RunBuffers) %.2f×, the whole process %.2f× (medians of %d back-to-back pairs%s)", inv, dspeedup, speedup, sweepReps,
					map[bool]string{true: fmt.Sprintf("; target ≥ 1.7× on 2 cores: %s", map[bool]string{true: "met", false: "not met"}[dspeedup >= 1.7]), false: ""}[inv == 1<<20]))
			}
		})
	}
	b.Logf("reference dispatch sweep (one process each, medians of %d alternating repetitions; exec: gpudiff exec --no-gpu, reference: interp.Dispatch.RunBuffers alone on every core, reference-1: on one worker):\n%s", sweepReps, strings.Join(rows, "\n"))
}

// sweepDispatchMark starts TestSweepReferenceChild's line giving
// RunBuffers' own wall time in nanoseconds.
const sweepDispatchMark = "sweep-dispatch-ns="

// dispatchTime reads a child's RunBuffers wall time from its output (0
// when absent: the exec rows).
func dispatchTime(out []byte) time.Duration {
	i := bytes.LastIndex(out, []byte(sweepDispatchMark))
	if i < 0 {
		return 0
	}
	rest := out[i+len(sweepDispatchMark):]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	ns, _ := strconv.ParseInt(string(rest), 10, 64)
	return time.Duration(ns)
}

// buildGpudiff builds cmd/gpudiff into a temporary directory of b's and
// returns the directory and the binary's path (the benchmarks that time
// or measure whole gpudiff commands, each in a process of its own).
func buildGpudiff(b *testing.B) (dir, bin string) {
	dir = b.TempDir()
	bin = filepath.Join(dir, "gpudiff")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/gpudiff").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return dir, bin
}

// sweepReps is how many times BenchmarkDispatchSweep runs each row.
const sweepReps = 5

// tailWriter keeps the last 2,000 bytes written to it.
type tailWriter struct{ b []byte }

func (w *tailWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	if len(w.b) > 2000 {
		w.b = append(w.b[:0], w.b[len(w.b)-2000:]...)
	}
	return len(p), nil
}

// sweepWorkersEnv is TestSweepReferenceChild's interp.Options.Workers
// (unset: 0, every core).
const sweepWorkersEnv = "GPUDIFF_SWEEP_REFERENCE_WORKERS"

// sweepProfileEnv, when set, names a file TestSweepReferenceChild
// writes its heap profile to after the dispatch.
const sweepProfileEnv = "GPUDIFF_SWEEP_REFERENCE_HEAPPROFILE"

// sweepChildEnv makes TestSweepReferenceChild run: its value is the
// number of workgroups.
const sweepChildEnv = "GPUDIFF_SWEEP_REFERENCE_WORKGROUPS"

// TestSweepReferenceChild is BenchmarkDispatchSweep's reference-only
// child: with sweepChildEnv set it dispatches tileKernel on that many
// workgroups, x[i] = (i mod 16 + 1) / 4 and y[i] = 1 (bindings as bytes,
// ir.Buffer, as check passes them), and checks two hand-derived leaves
// (y[i] = 2x[i] + 2x[next in the tile] + 1: y[0] = 0.5 + 1 + 1, y[15] =
// 8 + 0.5 + 1); without it, it is skipped.
func TestSweepReferenceChild(t *testing.T) {
	wgs, err := strconv.Atoi(os.Getenv(sweepChildEnv))
	if err != nil {
		t.Skipf("a child of BenchmarkDispatchSweep only (%s not set)", sweepChildEnv)
	}
	m, err := wgsl.Parse("tile.wgsl", []byte(tileKernel))
	require.NoError(t, err)
	d, err := interp.CompileEntry(m, "main")
	require.NoError(t, err)
	n := wgs * 256
	x := ir.BufferOfLength(m.SharedVar("x").T, n)
	y := ir.BufferOfLength(m.SharedVar("y").T, n)
	for i := range n {
		// array<f32>: leaf i at byte 4i.
		binary.LittleEndian.PutUint32(x.Bytes[4*i:], math.Float32bits(float32(i%16+1)/4))
		binary.LittleEndian.PutUint32(y.Bytes[4*i:], math.Float32bits(1))
	}
	workers, _ := strconv.Atoi(os.Getenv(sweepWorkersEnv)) // 0: GOMAXPROCS
	t0 := time.Now()
	res, err := d.RunBuffers(map[string]ir.Buffer{"x": x, "y": y}, [3]uint32{uint32(wgs), 1, 1}, interp.Options{Workers: workers})
	// The dispatch alone, for the parallel speed-up without the process's
	// start and the inputs' making (serial, and the same on any workers).
	fmt.Printf("%s%d\n", sweepDispatchMark, time.Since(t0).Nanoseconds())
	require.NoError(t, err)
	out := res.Buffers["y"]
	require.Nil(t, out.Indeterminate)
	require.Equal(t, float32(2.5), out.Buffer.Leaf(0).F32())
	require.Equal(t, float32(9.5), out.Buffer.Leaf(15).F32())
	require.Empty(t, res.Races)
	if path := os.Getenv(sweepProfileEnv); path != "" {
		// The live heap after the dispatch (its result still held).
		f, err := os.Create(path)
		require.NoError(t, err)
		runtime.GC()
		require.NoError(t, pprof.WriteHeapProfile(f))
		require.NoError(t, f.Close())
	}
	runtime.KeepAlive(res)
}
