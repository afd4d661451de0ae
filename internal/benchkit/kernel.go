// Package benchkit holds what the interpreter's benchmarks share with
// gpudiff's throughput table (campaign's BenchmarkGpudiff, `make bench`): the
// interpreter benchmark kernel, as WGSL and written in Go, and a clock of
// the calling thread's CPU time. It is internal to gpudiff's tests and
// must never be imported by non-test code. Its subdirectory instructions
// is `make bench-instructions`, a command of its own.
package benchkit

// KernelWGSL is the interpreter benchmark kernel: a bounded loop with
// branches, a continue, wrapping i32/u32 arithmetic, shifts, f32 and
// vec4<f32> arithmetic in the exact domain, conversions and a builtin.
// Native is the same function in Go.
const KernelWGSL = `
fn k(a: i32, b: u32, c: f32, v: vec4<f32>) -> vec4<f32> {
  var acc = a; var h = b; var f = c; var w = v;
  for (var i = 0; i < 64; i++) {
    if ((acc & 1) == 0) { acc = (acc >> 1u) + i; } else { acc = acc * 3 + 1; }
    h = (h ^ (h << 13u)) * 5u + u32(i);
    h = h ^ (h >> 7u);
    if (f < 1000.0) { f = f + f32(i & 7); } else { f = f - 512.0; }
    w = clamp(w * 2.0 - vec4<f32>(f32(i)), vec4<f32>(-4096.0), vec4<f32>(4096.0));
    if (h % 3u == 0u) { continue; }
    w.x = w.x + f32(acc & 15);
  }
  return w + vec4<f32>(f32(acc & 255), f32(h & 255u), f, 1.0);
}
`

// Native is KernelWGSL written in Go.
func Native(a int32, b uint32, c float32, v [4]float32) [4]float32 {
	acc, h, f, w := a, b, c, v
	for i := int32(0); i < 64; i++ {
		if acc&1 == 0 {
			acc = acc>>1 + i
		} else {
			acc = acc*3 + 1
		}
		h = (h^(h<<13))*5 + uint32(i)
		h ^= h >> 7
		if f < 1000 {
			f += float32(i & 7)
		} else {
			f -= 512
		}
		for j := range w {
			w[j] = min(max(w[j]*2-float32(i), -4096), 4096)
		}
		if h%3 == 0 {
			continue
		}
		w[0] += float32(acc & 15)
	}
	return [4]float32{w[0] + float32(acc&255), w[1] + float32(h&255), w[2] + f, w[3] + 1}
}
