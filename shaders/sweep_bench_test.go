package shaders

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
// 26; `make bench` runs it): `gpudiff exec tile.wgsl --workgroups N
// --no-gpu --json` for 65,536, 1,048,576 and 4,194,304 invocations, each
// in a process of its own, reporting its wall time (s) and peak resident
// memory (MB, the child's getrusage ru_maxrss) beside the target of
// issue 26 (64 MB + 4× the bound buffers' bytes).
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
		b.Run(fmt.Sprintf("invocations=%d", inv), func(b *testing.B) {
			var wall time.Duration
			var rss int64
			for b.Loop() {
				cmd := exec.Command(bin, "exec", src, "--workgroups", fmt.Sprint(wg), "--no-gpu", "--json", "--max-invocations", fmt.Sprint(inv))
				cmd.Stdout, cmd.Stderr = nil, nil
				t0 := time.Now()
				out, err := cmd.CombinedOutput()
				wall = time.Since(t0)
				if err != nil {
					b.Fatalf("%v: %v\n%.2000s", cmd.Args, err, out)
				}
				rss = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
			}
			mb := float64(rss) / 1024
			target := 64 + 4*float64(inv*8)/(1<<20)
			b.ReportMetric(wall.Seconds(), "s")
			b.ReportMetric(mb, "peak-MB")
			rows = append(rows, fmt.Sprintf("%9d invocations: %6.2f s, peak %7.1f MB (target ≤ %.0f MB: %s)", inv, wall.Seconds(), mb, target, map[bool]string{true: "met", false: "not met"}[mb <= target]))
		})
	}
	b.Logf("reference dispatch sweep (gpudiff exec --no-gpu, one process each):\n%s", strings.Join(rows, "\n"))
}
