package shaders

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
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
// Each row gives the wall time (s), the CPU time (user + system, s: on a
// machine shared with other work the steadier figure) and the peak
// resident memory (MB, the child's getrusage ru_maxrss) beside issue
// 26's target (64 MB + 4× the bound buffers' bytes).
func BenchmarkDispatchSweep(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "gpudiff")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/gpudiff").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	src := filepath.Join(dir, "tile.wgsl")
	if err := os.WriteFile(src, []byte(tileKernel), 0o644); err != nil {
		b.Fatal(err)
	}
	var rows []string
	for _, wg := range []int{256, 4096, 16384} {
		inv := wg * 256
		for _, what := range []string{"exec", "reference", "reference-1"} {
			b.Run(fmt.Sprintf("%s/invocations=%d", what, inv), func(b *testing.B) {
				var wall, cpu time.Duration
				var rss int64
				for b.Loop() {
					cmd := exec.Command(bin, "exec", src, "--workgroups", fmt.Sprint(wg), "--no-gpu", "--json", "--max-invocations", fmt.Sprint(inv))
					if what != "exec" {
						cmd = exec.Command(os.Args[0], "-test.run", "^TestSweepReferenceChild$")
						cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", sweepChildEnv, wg))
						if what == "reference-1" {
							cmd.Env = append(cmd.Env, sweepWorkersEnv+"=1")
						}
					}
					// The output (exec's JSON: tens of MB) is not kept: a child
					// started with vfork inherits the parent's peak RSS
					// as its own ru_maxrss (Linux sets it from the mm the
					// exec leaves), so this process must stay small.
					out := &tailWriter{}
					cmd.Stdout, cmd.Stderr = out, out
					t0 := time.Now()
					err := cmd.Run()
					wall = time.Since(t0)
					if err != nil {
						b.Fatalf("%v: %v\n%s", cmd.Args, err, out.b)
					}
					rss = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
					cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				}
				mb := float64(rss) / 1024
				target := 64 + 4*float64(inv*8)/(1<<20)
				b.ReportMetric(wall.Seconds(), "s")
				b.ReportMetric(cpu.Seconds(), "cpu-s")
				b.ReportMetric(mb, "peak-MB")
				rows = append(rows, fmt.Sprintf("%-11s %9d invocations: %6.2f s (CPU %6.2f s), peak %7.1f MB (target ≤ %.0f MB: %s)",
					what, inv, wall.Seconds(), cpu.Seconds(), mb, target, map[bool]string{true: "met", false: "not met"}[mb <= target]))
			})
		}
	}
	b.Logf("reference dispatch sweep (one process each; exec: gpudiff exec --no-gpu, reference: interp.Dispatch.RunBuffers alone on every core, reference-1: on one worker):\n%s", strings.Join(rows, "\n"))
}

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
	res, err := d.RunBuffers(map[string]ir.Buffer{"x": x, "y": y}, [3]uint32{uint32(wgs), 1, 1}, interp.Options{Workers: workers})
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
