package spirv

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// fragKernelFile is the kernel both emitters' fragment wrappers are
// tested on (its header gives the outputs).
const fragKernelFile = "../testdata/frag_kernel.wgsl"

func fragModule(t testing.TB) *ir.Module {
	t.Helper()
	src, err := os.ReadFile(fragKernelFile)
	require.NoError(t, err)
	m, err := wgsl.Parse("frag_kernel.wgsl", src)
	require.NoError(t, err)
	return m
}

// TestFragmentWrapperValidates: the kernel ABI's Fragment entry point
// passes spirv-val (Vulkan 1.1) in both modes and is what Emit documents:
// a Fragment OpEntryPoint whose interface is FragCoord and the marker,
// OriginUpperLeft, the marker at Location 0.
func TestFragmentWrapperValidates(t *testing.T) {
	m := fragModule(t)
	for _, o := range bothModes {
		o.Fragment = true
		words := emitValid(t, m, "k", o)
		dis, err := Disassemble(words)
		require.NoError(t, err)
		for _, want := range []string{"OpEntryPoint Fragment", "OpExecutionMode %", "OriginUpperLeft", "BuiltIn FragCoord", "Location 0", "OpConvertFToU"} {
			assert.Contains(t, dis, want, "mode %s", o.Mode)
		}
		assert.NotContains(t, dis, "GLCompute")
		assert.NotContains(t, dis, "GlobalInvocationId")
	}
}

// TestFragmentWrapperRuns draws both emitters' fragment wrappers (gpudiff's
// SPIR-V and, from compiler/wgsl, WGSL) on every CPU adapter for 300
// invocations (a full row of 256 and a partial second row) with outputs
// worked out from the kernel's source: for a = i, flip = (i % 3 == 0):
// v = (3i + 1, i >> 1), odd = (i odd) != flip, seen = i ^ 0xff. The
// marker attachment is 1 at each invocation's pixel, 0 past them.
func TestFragmentWrapperRuns(t *testing.T) {
	m := fragModule(t)
	words := emitValid(t, m, "k", Options{Mode: Portable, Fragment: true})
	src, entry, err := wgsl.Emit(m, "k", wgsl.EmitOptions{Fragment: true})
	require.NoError(t, err)
	abi, err := ir.NewKernelABI(m, "k")
	require.NoError(t, err)
	const n = 300
	args := make([][]ir.Value, n)
	for i := range args {
		args[i] = []ir.Value{ir.U32Val(uint32(i)), ir.BoolVal(i%3 == 0)}
	}
	in, err := abi.EncodeInputs(args)
	require.NoError(t, err)
	tg := harness.FragmentTarget(n)
	kernels := map[string]harness.Kernel{
		"spirv": {SPIRV: words, EntryPoint: EntryPoint, Stage: harness.FragmentStage},
		"wgsl":  {WGSL: src, EntryPoint: entry, Stage: harness.FragmentStage},
	}
	for _, name := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe"} {
		t.Run(name, func(t *testing.T) {
			d, err := harness.Open(name)
			require.NoError(t, err, "install the CPU adapters (make deps)")
			defer d.Close()
			for format, k := range kernels {
				out, err := d.Run(context.Background(), k,
					harness.Dispatch{Input: in, OutputSize: n * abi.OutputStride, Invocations: n, Target: tg, Attachments: []harness.AttachmentFormat{harness.R32Uint}})
				require.NoError(t, err, format)
				require.Len(t, out, n*abi.OutputStride+4*int(tg[0]*tg[1]), format)
				vals, err := abi.DecodeOutputs(out[:n*abi.OutputStride], n)
				require.NoError(t, err, format)
				for i, v := range vals {
					u := uint32(i)
					r, seen := v[0], v[1]
					got := []uint32{r.Elems[0].Elems[0].U32(), r.Elems[0].Elems[1].U32(), r.Elems[1].Bits, seen.U32()}
					odd := uint32(0)
					if (i%2 == 1) != (i%3 == 0) {
						odd = 1
					}
					require.Equal(t, []uint32{3*u + 1, u >> 1, odd, u ^ 0xff}, got, "%s: invocation %d", format, i)
				}
				for p, mk := range words32(out[n*abi.OutputStride:]) {
					want := uint32(0)
					if p < n {
						want = 1
					}
					require.Equal(t, want, mk, "%s: marker at pixel %d", format, p)
				}
			}
		})
	}
}

func words32(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
	}
	return w
}

// TestFragmentEntryValidates: a fragment entry point as written (a struct
// of two @location outputs, a helper with a loop; and a single vec4
// output) emits a module spirv-val accepts in both modes, whose entry
// point keeps its name, is a Fragment OpEntryPoint with OriginUpperLeft,
// FragCoord in and a Location-decorated Output per output.
func TestFragmentEntryValidates(t *testing.T) {
	for _, src := range []string{`
struct Out {
  @location(0) id: u32,
  @location(1) d: vec2<i32>,
}

fn ring(m: i32) -> u32 {
  var r = 0u;
  loop {
    if (r == 4u || m < i32(2u * r + 2u)) {
      break;
    }
    r += 1u;
  }
  return r;
}

@fragment
fn rings(@builtin(position) p: vec4<f32>) -> Out {
  var o: Out;
  o.d = vec2<i32>(i32(p.x) - 8, i32(p.y) - 8);
  o.id = ring(max(abs(o.d.x), abs(o.d.y))) * 1000u + u32(p.x);
  return o;
}
`, `
@fragment
fn rings(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
  return vec4<f32>(p.x / 16.0, p.y / 16.0, p.z, p.w);
}
`} {
		m, err := wgsl.Parse("f.wgsl", []byte(src))
		require.NoError(t, err)
		for _, o := range bothModes {
			dis, err := Disassemble(emitValid(t, m, "rings", o))
			require.NoError(t, err)
			for _, want := range []string{`OpEntryPoint Fragment %`, `"rings"`, "OriginUpperLeft", "BuiltIn FragCoord", "Location 0"} {
				assert.Contains(t, dis, want)
			}
			assert.NotContains(t, dis, "GLCompute")
		}
	}
}
