package harness

import (
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogentcore/webgpu/wgpu"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assembleSPIRV assembles a committed .spvasm file with spirv-as for the
// Vulkan 1.1 environment and returns the module's words. A missing spirv-as
// fails the test.
func assembleSPIRV(t *testing.T, path string) []uint32 {
	t.Helper()
	as, err := exec.LookPath("spirv-as")
	if err != nil {
		t.Fatalf("spirv-as not found: install spirv-tools (make deps)")
	}
	out := filepath.Join(t.TempDir(), "module.spv")
	if msg, err := exec.Command(as, "--target-env", "vulkan1.1", "-o", out, path).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as %s: %v\n%s", path, err, msg)
	}
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Zero(t, len(b)%4, "SPIR-V binary is whole words")
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.NativeEndian.Uint32(b[4*i:]) // spirv-as writes host order
	}
	require.Equal(t, uint32(0x07230203), w[0], "SPIR-V magic number")
	return w
}

// TestRunSPIRV runs testdata/triple.spvasm, the SPIR-V twin of tripleWGSL,
// through wgpuext's shader-module path on every CPU adapter.
func TestRunSPIRV(t *testing.T) {
	k := Kernel{SPIRV: assembleSPIRV(t, "testdata/triple.spvasm"), EntryPoint: "main"}
	for _, name := range cpuAdapters {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			checkTripleHandDerived(t, d, k)
			// Same bytes as the WGSL tripler over two partly idle workgroups.
			job := Dispatch{Input: le(iota32(100)...), OutputSize: 400, Invocations: 100}
			fromSPIRV, err := d.Run(context.Background(), k, job)
			require.NoError(t, err)
			fromWGSL, err := d.Run(context.Background(), triple, job)
			require.NoError(t, err)
			assert.Equal(t, fromWGSL, fromSPIRV)
		})
	}
}

// childEnv selects a test's child-process role; see
// TestBindingSPIRVPathIsBroken.
const childEnv = "GPUDIFF_HARNESS_TEST_CHILD"

// TestBindingSPIRVPathIsBroken documents why wgpuext exists: the binding's
// own ShaderModuleSPIRVDescriptor path passes the byte length as the word
// count, so wgpu-native reads past the end of the code and rejects a module
// that wgpuext accepts. The binding's call reads out of bounds, so it runs
// in a child process (this test binary, re-executed).
func TestBindingSPIRVPathIsBroken(t *testing.T) {
	if os.Getenv(childEnv) == "binding-spirv" {
		bindingSPIRVChild(t)
		return
	}
	assembleSPIRV(t, "testdata/triple.spvasm") // fail early, in the parent, without spirv-as
	cmd := exec.Command(os.Args[0], "-test.run=^TestBindingSPIRVPathIsBroken$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=binding-spirv")
	out, err := cmd.CombinedOutput()
	t.Logf("child (exit %v):\n%s", err, out)
	assert.NotContains(t, string(out), "binding-spirv: accepted", "the binding's SPIR-V path works now: wgpuext's SPIR-V path may be retired")
	if err == nil {
		assert.Contains(t, string(out), "binding-spirv: rejected:")
	}
}

func bindingSPIRVChild(t *testing.T) {
	words := assembleSPIRV(t, "testdata/triple.spvasm")
	d := openDevice(t, lavapipe)
	code := make([]byte, 4*len(words))
	for i, w := range words {
		binary.NativeEndian.PutUint32(code[4*i:], w)
	}
	m, err := d.dev.CreateShaderModule(&wgpu.ShaderModuleDescriptor{
		SPIRVDescriptor: &wgpu.ShaderModuleSPIRVDescriptor{Code: code},
	})
	if err != nil {
		t.Logf("binding-spirv: rejected: %s", strings.ReplaceAll(err.Error(), "\n", " "))
		return
	}
	m.Release()
	t.Logf("binding-spirv: accepted")
}
