package harness

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness/internal/wgpuext"
)

// TestAdaptersFindCPUAdapters: one instance enumerates lavapipe, SwiftShader
// (through VK_ADD_DRIVER_FILES) and llvmpipe through GL/EGL with no display,
// Vulkan first.
func TestAdaptersFindCPUAdapters(t *testing.T) {
	all, err := Adapters()
	require.NoError(t, err)
	got := names(all)
	for _, want := range cpuAdapters {
		require.Contains(t, got, want, installHint)
	}
	assert.Equal(t, "vulkan", all[0].Backend, "Vulkan adapters come first: %v", got)
	seenGL := false
	for _, a := range all {
		seenGL = seenGL || a.Backend == "gl"
		assert.False(t, seenGL && a.Backend == "vulkan", "a Vulkan adapter after a GL one: %v", got)
		assert.Equal(t, "wgpu", a.Implementation)
		assert.True(t, strings.HasPrefix(a.Name, a.Backend+":"), "%s does not start with its backend", a.Name)
		assert.NotEmpty(t, a.Device)
		assert.NotEmpty(t, a.Vendor)
		assert.NotEmpty(t, a.Type)
	}
	again, err := Adapters()
	require.NoError(t, err)
	assert.Equal(t, all, again, "enumeration is stable")

	byName := map[string]AdapterInfo{}
	for _, a := range all {
		byName[a.Name] = a
	}
	assert.Contains(t, byName[lavapipe].Device, "llvmpipe")
	assert.Equal(t, "mesa", byName[lavapipe].Vendor)
	assert.Equal(t, "cpu", byName[lavapipe].Type)
	assert.Contains(t, byName[swiftshader].Device, "SwiftShader")
	assert.Equal(t, "google", byName[swiftshader].Vendor)
	assert.Equal(t, "gl", byName[glLLVMpipe].Backend)
}

// TestSetupEnvReachesC: the variable that adds SwiftShader is visible to C's
// getenv, which is what the Vulkan loader reads.
func TestSetupEnvReachesC(t *testing.T) {
	_, err := Adapters() // creates the instance, after setupEnv
	require.NoError(t, err)
	goVal, goSet := os.LookupEnv("VK_ADD_DRIVER_FILES")
	require.True(t, goSet, "VK_ADD_DRIVER_FILES unset: is %s missing? %s", swiftShaderICD, installHint)
	cVal, cSet := wgpuext.Getenv("VK_ADD_DRIVER_FILES")
	assert.True(t, cSet)
	assert.Equal(t, goVal, cVal)
}

func TestShortDevice(t *testing.T) {
	cases := []struct {
		device   string
		vendorID uint32
		want     string
	}{
		{"llvmpipe (LLVM 15.0.6, 256 bits)", 0x10005, "llvmpipe"},
		{"SwiftShader Device (Subzero)", 0x1ae0, "swiftshader"},
		{"NVIDIA GeForce RTX 4090", 0x10de, "nvidia-rtx-4090"},
		{"AMD Radeon RX 7900 XTX (RADV NAVI31)", 0x1002, "amd-radeon-rx-7900-xtx"},
		{"Intel(R) UHD Graphics 630 (CFL GT2)", 0x8086, "intel-uhd-graphics-630"},
		{"Radeon Pro 560X", 0x1002, "amd-radeon-pro-560x"},
		{"Apple M2", 0x106b, "apple-m2"},
		{"", 0, "unknown"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, shortDevice(c.device, c.vendorID), "shortDevice(%q, %#x)", c.device, c.vendorID)
	}
}

// TestNameAdaptersOrderAndSuffixes: Vulkan first, GPUs before CPUs, names
// alphabetical, duplicates suffixed in the order found.
func TestNameAdaptersOrderAndSuffixes(t *testing.T) {
	in := []AdapterInfo{
		{Name: "gl:llvmpipe", Backend: "gl", Type: "cpu", DeviceID: 1},
		{Name: "vulkan:swiftshader", Backend: "vulkan", Type: "cpu", DeviceID: 2},
		{Name: "vulkan:llvmpipe", Backend: "vulkan", Type: "cpu", DeviceID: 3},
		{Name: "vulkan:nvidia-rtx-4090", Backend: "vulkan", Type: "discrete-gpu", DeviceID: 4},
		{Name: "vulkan:llvmpipe", Backend: "vulkan", Type: "cpu", DeviceID: 5},
	}
	out, perm := nameAdapters(in)
	assert.Equal(t, []string{"vulkan:nvidia-rtx-4090", "vulkan:llvmpipe", "vulkan:llvmpipe#2", "vulkan:swiftshader", "gl:llvmpipe"}, names(out))
	assert.Equal(t, []int{3, 2, 4, 1, 0}, perm)
	for i, p := range perm {
		assert.Equal(t, in[p].DeviceID, out[i].DeviceID)
	}
}

func TestSelect(t *testing.T) {
	all := []AdapterInfo{
		{Name: "vulkan:llvmpipe", Backend: "vulkan"},
		{Name: "vulkan:llvmpipe#2", Backend: "vulkan"},
		{Name: "vulkan:swiftshader", Backend: "vulkan"},
		{Name: "gl:llvmpipe", Backend: "gl"},
	}
	cases := []struct {
		name      string
		selectors []string
		want      []string
	}{
		{"none-is-first-vulkan", nil, []string{"vulkan:llvmpipe"}},
		{"exact-beats-prefix", []string{"vulkan:llvmpipe"}, []string{"vulkan:llvmpipe"}},
		{"exact-suffixed", []string{"vulkan:llvmpipe#2"}, []string{"vulkan:llvmpipe#2"}},
		{"backend-prefix", []string{"vulkan"}, []string{"vulkan:llvmpipe", "vulkan:llvmpipe#2", "vulkan:swiftshader"}},
		{"device-prefix", []string{"vulkan:swift"}, []string{"vulkan:swiftshader"}},
		{"case-insensitive", []string{"GL:LLVMpipe"}, []string{"gl:llvmpipe"}},
		{"all", []string{"all"}, []string{"vulkan:llvmpipe", "vulkan:llvmpipe#2", "vulkan:swiftshader", "gl:llvmpipe"}},
		{"union-in-adapter-order", []string{"gl", "vulkan:swift", "gl:llvmpipe"}, []string{"vulkan:swiftshader", "gl:llvmpipe"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Select(all, c.selectors)
			require.NoError(t, err)
			assert.Equal(t, c.want, names(got))
		})
	}

	t.Run("no-vulkan-is-first", func(t *testing.T) {
		got, err := Select(all[3:], nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"gl:llvmpipe"}, names(got))
	})
	for _, sel := range []string{"metal", "vulkan:nvidia", ""} {
		t.Run("unknown/"+sel, func(t *testing.T) {
			_, err := Select(all, []string{"vulkan", sel})
			var unknown *UnknownAdapterError
			require.ErrorAs(t, err, &unknown)
			assert.Equal(t, sel, unknown.Selector)
			for _, a := range all {
				assert.Contains(t, err.Error(), a.Name, "the error lists the available adapters")
			}
		})
	}
	t.Run("no-adapters", func(t *testing.T) {
		_, err := Select(nil, nil)
		assert.ErrorIs(t, err, errNoAdapters)
	})
}

// TestSelectRealAdapters: the default selection on this machine is lavapipe
// (no GPU), and Open accepts what Select returns.
func TestSelectRealAdapters(t *testing.T) {
	all, err := Adapters()
	require.NoError(t, err)
	def, err := Select(all, nil)
	require.NoError(t, err)
	require.Len(t, def, 1)
	if def[0].Type == "cpu" {
		assert.Equal(t, lavapipe, def[0].Name)
	}
	d := openDevice(t, def[0].Name)
	assert.Equal(t, def[0], d.Info())
}

func TestOpenUnknownAdapter(t *testing.T) {
	_, err := Open("vulkan:no-such-gpu")
	var unknown *UnknownAdapterError
	require.ErrorAs(t, err, &unknown)
	assert.Contains(t, unknown.Available, lavapipe)
}
