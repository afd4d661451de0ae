package harness

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tripleFragmentWGSL is tripleWGSL in the fragment stage under the kernel
// ABI: invocation i = y*256 + x of the pixel (x, y) whose centre is
// @builtin(position).xy, out[i] = in[i]*3 + 1 below arrayLength(out), and
// @location(0) = x + 1000*y at every pixel, so the attachment shows where
// each fragment landed.
const tripleFragmentWGSL = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@fragment
fn main(@builtin(position) pos: vec4<f32>) -> @location(0) u32 {
	let x = u32(pos.x);
	let y = u32(pos.y);
	let i = y * 256u + x;
	if (i < arrayLength(&outp)) {
		outp[i] = inp[i] * 3u + 1u;
	}
	return x + 1000u * y;
}
`

var tripleFragment = Kernel{WGSL: tripleFragmentWGSL, EntryPoint: "main", Stage: FragmentStage}

func TestFragmentTarget(t *testing.T) {
	for _, c := range []struct {
		n    int
		want [2]uint32
	}{{0, [2]uint32{1, 1}}, {1, [2]uint32{1, 1}}, {8, [2]uint32{8, 1}}, {256, [2]uint32{256, 1}}, {257, [2]uint32{256, 2}}, {600, [2]uint32{256, 3}}} {
		assert.Equal(t, c.want, FragmentTarget(c.n), "n = %d", c.n)
	}
}

// TestRunFragmentTriple draws the tripler on every CPU adapter: the
// hand-derived cases, then counts around the row pitch (a partial row, a
// full one, a second row), checking every output word and every pixel of
// the marker attachment (x + 1000*y: the pixel (x, y) of the readback is
// the fragment whose position is (x + 0.5, y + 0.5), rows from the top).
func TestRunFragmentTriple(t *testing.T) {
	for _, name := range cpuAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			var in, want []uint32
			for _, c := range tripleCases {
				in, want = append(in, c.in), append(want, c.out)
			}
			job := Dispatch{Input: le(in...), OutputSize: 4 * len(in), Invocations: len(in), Target: FragmentTarget(len(in)), Attachments: []AttachmentFormat{R32Uint}}
			out, err := d.Run(context.Background(), tripleFragment, job)
			require.NoError(t, err)
			require.Len(t, out, 4*len(in)+4*len(in))
			assert.Equal(t, want, words(out[:4*len(in)]))
			for _, n := range []int{1, 255, 256, 257, 600} {
				t.Run(fmt.Sprintf("invocations=%d", n), func(t *testing.T) {
					tg := FragmentTarget(n)
					out, err := d.Run(context.Background(), tripleFragment, Dispatch{Input: le(iota32(n)...), OutputSize: 4 * n, Invocations: n,
						Target: tg, Attachments: []AttachmentFormat{R32Uint}})
					require.NoError(t, err)
					require.Len(t, out, 4*n+4*int(tg[0]*tg[1]))
					for i, got := range words(out[:4*n]) {
						if want := uint32(3*i + 1); got != want {
							t.Fatalf("out[%d] = %d, want %d", i, got, want)
						}
					}
					for p, got := range words(out[4*n:]) {
						x, y := p%int(tg[0]), p/int(tg[0])
						if want := uint32(x + 1000*y); got != want {
							t.Fatalf("pixel (%d, %d) = %d, want %d", x, y, got, want)
						}
					}
				})
			}
		})
	}
}

// TestRunFragmentRejects: fragment draws the harness refuses before
// touching the device.
func TestRunFragmentRejects(t *testing.T) {
	d := openDevice(t, lavapipe)
	for _, c := range []struct {
		name string
		job  Dispatch
		want string
	}{
		{"no target", Dispatch{Attachments: []AttachmentFormat{R32Uint}}, "fragment target 0×0"},
		{"no attachment", Dispatch{Target: [2]uint32{1, 1}}, "at least one colour attachment"},
		{"unknown format", Dispatch{Target: [2]uint32{1, 1}, Attachments: []AttachmentFormat{"bgra8unorm"}}, "unknown format"},
		{"bytes per sample", Dispatch{Target: [2]uint32{1, 1}, Attachments: []AttachmentFormat{RGBA32Uint, RGBA32Uint, RGBA32Uint, RGBA32Uint, RGBA32Uint, RGBA32Uint, RGBA32Uint, RGBA32Uint, RGBA32Uint}}, "colour attachments"},
		{"workgroups", Dispatch{Target: [2]uint32{1, 1}, Attachments: []AttachmentFormat{R32Uint}, Workgroups: [3]uint32{1, 1, 1}}, "no Workgroups"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := d.Run(context.Background(), tripleFragment, c.job)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			var ce *CompileError
			assert.False(t, errors.As(err, &ce))
		})
	}
	_, err := d.Run(context.Background(), triple, Dispatch{Invocations: 1, OutputSize: 4, Target: [2]uint32{1, 1}})
	assert.ErrorContains(t, err, "compute dispatch has no Target")
}
