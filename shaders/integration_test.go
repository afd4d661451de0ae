package shaders

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// The examples through the code under test: the WGSL front end, the
// reference interpreter, the WGSL emitter with its kernel ABI wrapper and
// lavapipe. Both tests compare against NAME.expected.json, whose values
// come from the native implementations (TestExamplesNativeGoldens).

// compiled is an example parsed, with its kernel picked and its ABI.
type compiled struct {
	example
	m       *ir.Module
	kernel  string
	abi     *ir.KernelABI
	params  []field
	outputs []field
	args    [][]ir.Value
}

// compileExample parses NAME.wgsl, picks its kernel the way the CLI does
// (wgsl.Kernel with no name), checks that the kernel's signature and ABI
// outputs are those the native implementation and the golden assume, and
// decodes the inputs with the parsed parameter types.
func compileExample(t *testing.T, name string) compiled {
	t.Helper()
	c := compiled{example: loadExample(t, name, true)}
	var err error
	c.m, err = wgsl.Parse(examplePath(name, ".wgsl"), c.src)
	require.NoError(t, err)
	kf, err := wgsl.Kernel(c.m, "")
	require.NoError(t, err)
	c.kernel = kf.Name
	require.Equal(t, c.expected.Kernel, c.kernel, "the kernel the front end picks")
	c.abi, err = ir.NewKernelABI(c.m, c.kernel)
	require.NoError(t, err)
	for _, f := range c.abi.Inputs {
		c.params = append(c.params, field{f.Name, f.T})
	}
	for _, f := range c.abi.Outputs {
		c.outputs = append(c.outputs, field{f.Name, f.T})
	}
	nat := nativeFor(name)
	require.NotNil(t, nat)
	sameFields(t, "parameters", nat.params, c.params)
	sameFields(t, "ABI outputs", nat.outputs, c.outputs)
	c.args = c.invocations(t, c.params)
	return c
}

func sameFields(t *testing.T, what string, want, got []field) {
	t.Helper()
	require.Len(t, got, len(want), "%s: native has %v, module has %v", what, fieldNames(want), fieldNames(got))
	for i := range want {
		require.Equal(t, want[i].name, got[i].name, "%s[%d]", what, i)
		require.True(t, ir.Identical(want[i].t, got[i].t), "%s %s: native type %v, module type %v", what, want[i].name, want[i].t, got[i].t)
	}
}

func fieldNames(fs []field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.name)
	}
	return out
}

// runInterp runs the reference on every invocation; a per-invocation
// error fails the test.
func (c compiled) runInterp(t *testing.T) []interp.Invocation {
	t.Helper()
	invs, err := interp.Run(c.m, c.kernel, c.args, interp.Options{})
	require.NoError(t, err)
	require.Len(t, invs, len(c.args))
	for i, inv := range invs {
		require.NoError(t, inv.Err, "invocation %d (%s)", i, argString(c.args[i]))
		require.Len(t, inv.Outputs, len(c.outputs), "invocation %d", i)
	}
	return invs
}

// TestExamplesInterp runs every example through the WGSL front end and the
// reference interpreter and checks each invocation's outputs against the
// golden: exactly (up to the sign of zero and subnormal flushing), since
// the goldens are exact, whatever tolerance the interpreter grants
// implementations. The examples are chosen in WGSL's determinate domain, so
// no leaf may be indeterminate either.
func TestExamplesInterp(t *testing.T) {
	for _, name := range exampleNames(t) {
		t.Run(name, func(t *testing.T) {
			c := compileExample(t, name)
			for i, inv := range c.runInterp(t) {
				want := c.decodeReference(t, i, c.outputs)
				for j, out := range inv.Outputs {
					for k, ind := range out.Indeterminate {
						assert.False(t, ind, "invocation %d (%s), output %s leaf %d is indeterminate: %s",
							i, argString(c.args[i]), c.outputs[j].name, k, out.Why)
					}
					// The goldens are exact (the native f64 shadow agrees), so
					// the reference value must hit them exactly; its
					// tolerance is the slack WGSL grants implementations,
					// not the reference.
					for _, d := range sameLeaves(want[j], out.Value, nil) {
						t.Errorf("invocation %d (%s), output %s: interp %s, golden %s: %s",
							i, argString(c.args[i]), c.outputs[j].name, ir.MarshalValue(out.Value), ir.MarshalValue(want[j]), d)
					}
				}
			}
		})
	}
}

var (
	lavapipeOnce sync.Once
	lavapipe     *harness.Device
	lavapipeErr  error
)

// lavapipeDevice opens Vulkan on llvmpipe once for the package's tests.
func lavapipeDevice(t *testing.T) *harness.Device {
	t.Helper()
	lavapipeOnce.Do(func() { lavapipe, lavapipeErr = harness.Open("vulkan:llvmpipe") })
	require.NoError(t, lavapipeErr, "lavapipe (Vulkan on llvmpipe) is needed: install mesa-vulkan-drivers (make deps)")
	return lavapipe
}

// TestExamplesLavapipe emits every example with the kernel ABI wrapper
// (portable mode, the default), runs it on lavapipe and checks each
// invocation's outputs against the golden, f32 leaves within the
// interpreter's tolerance where it grants one.
func TestExamplesLavapipe(t *testing.T) {
	dev := lavapipeDevice(t)
	for _, name := range exampleNames(t) {
		t.Run(name, func(t *testing.T) {
			c := compileExample(t, name)
			invs := c.runInterp(t)
			src, entry, err := wgsl.Emit(c.m, c.kernel, wgsl.EmitOptions{})
			require.NoError(t, err)
			in, err := c.abi.EncodeInputs(c.args)
			require.NoError(t, err)
			n := len(c.args)
			raw, err := dev.Run(context.Background(), harness.Kernel{WGSL: src, EntryPoint: entry},
				harness.Dispatch{Input: in, OutputSize: n * c.abi.OutputStride, Invocations: n})
			require.NoError(t, err, "emitted WGSL:\n%s", src)
			got, err := c.abi.DecodeOutputs(raw, n)
			require.NoError(t, err)
			failed := false
			for i := range got {
				want := c.decodeReference(t, i, c.outputs)
				for j := range c.outputs {
					for _, d := range sameLeaves(want[j], got[i][j], invs[i].Outputs[j].Tolerance) {
						failed = true
						t.Errorf("invocation %d (%s), output %s: lavapipe %s, golden %s: %s",
							i, argString(c.args[i]), c.outputs[j].name, ir.MarshalValue(got[i][j]), ir.MarshalValue(want[j]), d)
					}
				}
			}
			if failed {
				t.Logf("emitted WGSL:\n%s", src)
			}
		})
	}
}
