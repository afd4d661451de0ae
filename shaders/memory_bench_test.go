package shaders

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// clusterKernel is a light-culling pass in the shape of Tint's
// test/tint/benchmark/cluster-lights.wgsl (issue 41's memory figure, our
// own code): one workgroup of 32 invocations whose bindings hold about two
// million leaves — array<u32, 1769472> (6.75 MiB) beside two 27,648-element
// struct arrays (Bounds: 32 bytes, Cluster: 8) and 64 lights (16 bytes):
// 8,184,832 bytes (7.8 MiB) in all.
const clusterKernel = `struct Bounds { lo: vec3f, hi: vec3f }
struct Cluster { offset: u32, count: u32 }
struct Light { position: vec3f, range: f32 }

@group(0) @binding(0) var<storage, read> bounds: array<Bounds, 27648>;
@group(0) @binding(1) var<storage, read_write> clusters: array<Cluster, 27648>;
@group(0) @binding(2) var<storage, read_write> lightIndices: array<u32, 1769472>;
@group(0) @binding(3) var<storage, read> lights: array<Light, 64>;

@compute @workgroup_size(4, 2, 4)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3u) {
  let c = wg.x * 32u + l;
  var found: array<u32, 64>;
  var count = 0u;
  for (var i = 0u; i < 64u; i++) {
    let p = lights[i].position;
    let d = clamp(p, bounds[c].lo, bounds[c].hi) - p;
    if (dot(d, d) <= lights[i].range * lights[i].range) {
      found[count] = i;
      count++;
    }
  }
  for (var j = 0u; j < count; j++) {
    lightIndices[c * 64u + j] = found[j];
  }
  clusters[c] = Cluster(c * 64u, count);
}
`

// clusterBytes is clusterKernel's bindings' size in bytes (WGSL §14.4
// layouts: vec3f has size 12 and alignment 16, so Bounds is 32 bytes).
const clusterBytes = 27648*32 + 27648*8 + 1769472*4 + 64*16

// big64Kernel has one 64 MiB read_write storage buffer (16,777,216 u32
// leaves); its 64 invocations update 4,096 of them.
const big64Kernel = `@group(0) @binding(0) var<storage, read_write> data: array<u32, 16777216>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) l: u32) {
  for (var i = l; i < 16777216u; i += 262144u) {
    data[i] = data[i] * 3u + 1u;
  }
}
`

// BenchmarkExecMemory is issue 41's memory row (`make bench` runs it):
// the peak resident memory (MB, the child's getrusage ru_maxrss) of
// `gpudiff exec FILE --no-gpu` on shaders whose bindings are large beside
// their work — clusterKernel as written, flattened (--flat: the twin runs
// too) and flattened on random inputs (--fill random), and big64Kernel as
// written and flattened — each beside issue 41's target, 64 MB plus four
// times the bindings' bytes, with its wall time (s).
func BenchmarkExecMemory(b *testing.B) {
	dir, bin := buildGpudiff(b)
	files := map[string]string{"cluster.wgsl": clusterKernel, "big64.wgsl": big64Kernel}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	rows := []struct {
		name, file string
		bytes      int
		flags      []string
	}{
		{"cluster", "cluster.wgsl", clusterBytes, nil},
		{"cluster-flat", "cluster.wgsl", clusterBytes, []string{"--flat"}},
		{"cluster-flat-random", "cluster.wgsl", clusterBytes, []string{"--flat", "--fill", "random"}},
		{"buffer-64MiB", "big64.wgsl", 64 << 20, nil},
		{"buffer-64MiB-flat", "big64.wgsl", 64 << 20, []string{"--flat"}},
	}
	var lines []string
	for _, r := range rows {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				args := append([]string{"exec", filepath.Join(dir, r.file), "--no-gpu"}, r.flags...)
				cmd := exec.Command(bin, args...)
				// Only the tail is kept: this process must stay small (a
				// child started with vfork inherits its peak RSS).
				out := &tailWriter{}
				cmd.Stdout, cmd.Stderr = out, out
				if err := cmd.Run(); err != nil {
					b.Fatalf("%v: %v\n%s", cmd.Args, err, out.b)
				}
				mb := float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024
				target := 64 + 4*float64(r.bytes)/(1<<20)
				b.ReportMetric(mb, "peak-MB")
				lines = append(lines, fmt.Sprintf("%-20s %-45s peak %6.1f MB (target ≤ %.0f MB, 64 MB + 4 × %.1f MiB of bindings: %s)",
					r.name, strings.Join(args[2:], " "), mb, target, float64(r.bytes)/(1<<20), map[bool]string{true: "met", false: "not met"}[mb <= target]))
			}
		})
	}
	b.Logf("exec memory (gpudiff exec FILE --no-gpu, one process each):\n%s", strings.Join(lines, "\n"))
}
