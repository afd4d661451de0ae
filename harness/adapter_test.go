package harness

import (
	"os"
	"os/exec"
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
		assert.True(t, strings.HasPrefix(a.Name, "wgpu-"+a.Backend+":"), "%s does not start with its implementation and backend", a.Name)
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
		device, vendor string
		want           string
	}{
		{"llvmpipe (LLVM 15.0.6, 256 bits)", "mesa", "llvmpipe"},
		{"SwiftShader Device (Subzero)", "google", "swiftshader"},
		{"NVIDIA GeForce RTX 4090", "nvidia", "nvidia-rtx-4090"},
		{"AMD Radeon RX 7900 XTX (RADV NAVI31)", "amd", "amd-radeon-rx-7900-xtx"},
		{"Intel(R) UHD Graphics 630 (CFL GT2)", "intel", "intel-uhd-graphics-630"},
		{"Radeon Pro 560X", "amd", "amd-radeon-pro-560x"},
		{"Apple M2", "apple", "apple-m2"},
		{"Radeon Pro 560X", "", "radeon-pro-560x"},
		{"", "", "unknown"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, shortDevice(c.device, c.vendor), "shortDevice(%q, %q)", c.device, c.vendor)
	}
}

// TestNamesAreImplementationBackendDevice: "<implementation>-<backend>:
// <device-short>", the vendor taken from the id when known, else from the
// reported vendor name (Dawn reports names, not ids).
func TestNamesAreImplementationBackendDevice(t *testing.T) {
	in := []AdapterInfo{
		{Implementation: "dawn", Backend: "vulkan", Device: "SwiftShader Device (Subzero)", Vendor: "google", Type: "cpu"},
		{Implementation: "dawn", Backend: "gles", Device: "llvmpipe (LLVM 15.0.6, 256 bits)", Vendor: "mesa", Type: "cpu"},
		{Implementation: "dawn", Backend: "gl", Device: "llvmpipe (LLVM 15.0.6, 256 bits)", Vendor: "mesa", Type: "cpu"},
		{Implementation: "dawn", Backend: "vulkan", Device: "Radeon Pro 560X", Vendor: "amd", Type: "discrete-gpu"},
		{Implementation: "wgpu", Backend: "vulkan", Device: "Radeon Pro 560X", VendorID: 0x1002, Type: "discrete-gpu"},
		{Implementation: "dawn", Backend: "vulkan", Device: "SwiftShader Device (Subzero)", Vendor: "google", Type: "cpu"},
	}
	assert.Equal(t, []string{
		"dawn-vulkan:amd-radeon-pro-560x", "wgpu-vulkan:amd-radeon-pro-560x",
		"dawn-vulkan:swiftshader", "dawn-vulkan:swiftshader#2",
		"dawn-gl:llvmpipe", "dawn-gles:llvmpipe",
	}, names(NameAdapters(in)))
	assert.Empty(t, in[0].Name, "NameAdapters copies")
}

// TestNameAdaptersOrderAndSuffixes: Vulkan first, GPUs before CPUs, names
// alphabetical, duplicates suffixed in the order found.
func TestNameAdaptersOrderAndSuffixes(t *testing.T) {
	in := []AdapterInfo{
		{Name: "wgpu-gl:llvmpipe", Backend: "gl", Type: "cpu", DeviceID: 1},
		{Name: "wgpu-vulkan:swiftshader", Backend: "vulkan", Type: "cpu", DeviceID: 2},
		{Name: "wgpu-vulkan:llvmpipe", Backend: "vulkan", Type: "cpu", DeviceID: 3},
		{Name: "wgpu-vulkan:nvidia-rtx-4090", Backend: "vulkan", Type: "discrete-gpu", DeviceID: 4},
		{Name: "wgpu-vulkan:llvmpipe", Backend: "vulkan", Type: "cpu", DeviceID: 5},
	}
	out, perm := nameAdapters(in)
	assert.Equal(t, []string{"wgpu-vulkan:nvidia-rtx-4090", "wgpu-vulkan:llvmpipe", "wgpu-vulkan:llvmpipe#2",
		"wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe"}, names(out))
	assert.Equal(t, []int{3, 2, 4, 1, 0}, perm)
	for i, p := range perm {
		assert.Equal(t, in[p].DeviceID, out[i].DeviceID)
	}
}

// selectAdapters is what AllAdapters returns on a machine with no GPU (and
// a second lavapipe, for the suffix rules).
var selectAdapters = []AdapterInfo{
	{Name: "wgpu-vulkan:llvmpipe", Implementation: "wgpu", Backend: "vulkan"},
	{Name: "wgpu-vulkan:llvmpipe#2", Implementation: "wgpu", Backend: "vulkan"},
	{Name: "wgpu-vulkan:swiftshader", Implementation: "wgpu", Backend: "vulkan"},
	{Name: "wgpu-gl:llvmpipe", Implementation: "wgpu", Backend: "gl"},
	{Name: "dawn-vulkan:swiftshader", Implementation: "dawn", Backend: "vulkan"},
	{Name: "dawn-gl:llvmpipe", Implementation: "dawn", Backend: "gl"},
	{Name: "dawn-gles:llvmpipe", Implementation: "dawn", Backend: "gles"},
}

func TestSelect(t *testing.T) {
	all := selectAdapters
	cases := []struct {
		name      string
		selectors []string
		want      []string
	}{
		{"none-is-first-vulkan", nil, []string{"wgpu-vulkan:llvmpipe"}},
		{"exact-beats-prefix", []string{"wgpu-vulkan:llvmpipe"}, []string{"wgpu-vulkan:llvmpipe"}},
		{"exact-suffixed", []string{"wgpu-vulkan:llvmpipe#2"}, []string{"wgpu-vulkan:llvmpipe#2"}},
		{"alias-is-wgpu", []string{"vulkan:llvmpipe"}, []string{"wgpu-vulkan:llvmpipe"}},
		{"alias-suffixed", []string{"vulkan:llvmpipe#2"}, []string{"wgpu-vulkan:llvmpipe#2"}},
		{"alias-never-dawn", []string{"vulkan:swiftshader"}, []string{"wgpu-vulkan:swiftshader"}},
		{"alias-backend-prefix", []string{"vulkan"}, []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:llvmpipe#2", "wgpu-vulkan:swiftshader"}},
		{"alias-device-prefix", []string{"vulkan:swift"}, []string{"wgpu-vulkan:swiftshader"}},
		{"alias-gl", []string{"gl"}, []string{"wgpu-gl:llvmpipe"}},
		{"implementation-prefix", []string{"dawn"}, []string{"dawn-vulkan:swiftshader", "dawn-gl:llvmpipe", "dawn-gles:llvmpipe"}},
		{"wgpu-prefix", []string{"wgpu"}, []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:llvmpipe#2", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe"}},
		{"implementation-backend-prefix", []string{"dawn-vulkan"}, []string{"dawn-vulkan:swiftshader"}},
		{"dawn-gl-prefixes-gles", []string{"dawn-gl"}, []string{"dawn-gl:llvmpipe", "dawn-gles:llvmpipe"}},
		{"dawn-gl-exact", []string{"dawn-gl:llvmpipe"}, []string{"dawn-gl:llvmpipe"}},
		{"case-insensitive", []string{"GL:LLVMpipe", "Dawn-Vulkan:SwiftShader"}, []string{"wgpu-gl:llvmpipe", "dawn-vulkan:swiftshader"}},
		{"all", []string{"all"}, names(all)},
		{"union-in-adapter-order", []string{"dawn-vulkan", "gl", "vulkan:swift", "gl:llvmpipe"},
			[]string{"wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe", "dawn-vulkan:swiftshader"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Select(all, c.selectors)
			require.NoError(t, err)
			assert.Equal(t, c.want, names(got))
		})
	}

	t.Run("no-vulkan-is-first", func(t *testing.T) {
		got, err := Select(all[3:4], nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"wgpu-gl:llvmpipe"}, names(got))
	})
	for _, sel := range []string{"metal", "vulkan:nvidia", "dawn-metal", "swiftshader", ""} {
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

func TestLookup(t *testing.T) {
	all := selectAdapters
	for _, c := range []struct{ name, want string }{
		{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:llvmpipe"},
		{"vulkan:llvmpipe", "wgpu-vulkan:llvmpipe"},
		{"vulkan:llvmpipe#2", "wgpu-vulkan:llvmpipe#2"},
		{"gl:llvmpipe", "wgpu-gl:llvmpipe"},
		{"gl", "wgpu-gl:llvmpipe"},
		{"vulkan:swiftshader", "wgpu-vulkan:swiftshader"},
		{"dawn-vulkan", "dawn-vulkan:swiftshader"},
		{"DAWN-GLES", "dawn-gles:llvmpipe"},
		{"dawn-gl:llvmpipe", "dawn-gl:llvmpipe"},
	} {
		got, err := Lookup(all, c.name)
		if assert.NoError(t, err, c.name) {
			assert.Equal(t, c.want, got.Name, c.name)
		}
	}
	for _, c := range []struct {
		name    string
		matches []string
	}{
		{"dawn", []string{"dawn-vulkan:swiftshader", "dawn-gl:llvmpipe", "dawn-gles:llvmpipe"}},
		{"vulkan", []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:llvmpipe#2", "wgpu-vulkan:swiftshader"}},
		{"dawn-gl", []string{"dawn-gl:llvmpipe", "dawn-gles:llvmpipe"}},
	} {
		_, err := Lookup(all, c.name)
		var amb *AmbiguousAdapterError
		if assert.ErrorAs(t, err, &amb, c.name) {
			assert.Equal(t, c.matches, amb.Matches)
			for _, m := range c.matches {
				assert.Contains(t, err.Error(), m)
			}
		}
	}
	for _, name := range []string{"", "all", "swiftshader", "dawn-metal"} {
		_, err := Lookup(all, name)
		var unknown *UnknownAdapterError
		assert.ErrorAs(t, err, &unknown, "%q", name)
	}
}

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

	_, err = Open("vulkan")
	var amb *AmbiguousAdapterError
	require.ErrorAs(t, err, &amb, "lavapipe and SwiftShader are both wgpu Vulkan adapters")
	assert.Contains(t, amb.Matches, lavapipe)
	assert.Contains(t, amb.Matches, swiftshader)
}

// TestOpenAliases: the short names gpudiff used before it named
// implementations still open wgpu's adapters, and the Device reports its
// full name.
func TestOpenAliases(t *testing.T) {
	for alias, name := range map[string]string{
		"vulkan:llvmpipe":    lavapipe,
		"vulkan:swiftshader": swiftshader,
		"gl:llvmpipe":        glLLVMpipe,
	} {
		d := openDevice(t, alias)
		assert.Equal(t, name, d.Info().Name, alias)
		assert.Equal(t, "wgpu", d.Info().Implementation)
	}
}

// TestOpenAnyWgpu: with no other implementation registered in this test
// binary, AllAdapters is Adapters and OpenAny opens wgpu's adapters by name
// or alias.
func TestOpenAnyWgpu(t *testing.T) {
	all, err := AllAdapters()
	require.NoError(t, err)
	wgpuOnly, err := Adapters()
	require.NoError(t, err)
	assert.Equal(t, wgpuOnly, all)

	r, err := OpenAny("vulkan:llvmpipe")
	require.NoError(t, err)
	defer r.Close()
	assert.Equal(t, lavapipe, r.Info().Name)
	out, err := r.Run(t.Context(), Kernel{WGSL: tripleWGSL, EntryPoint: "main"},
		Dispatch{Input: le(1, 2), OutputSize: 8, Invocations: 2})
	require.NoError(t, err)
	assert.Equal(t, []uint32{4, 7}, words(out))

	_, err = OpenAny("dawn-vulkan:swiftshader")
	var unknown *UnknownAdapterError
	assert.ErrorAs(t, err, &unknown, "dawn is not registered in package harness's own tests")
}

// TestAdaptersDriver checks that every wgpu adapter names its driver and
// version, and that lavapipe's and llvmpipe GL's are the installed Mesa
// packages' versions (dpkg).
func TestAdaptersDriver(t *testing.T) {
	infos, err := Adapters()
	if err != nil {
		t.Fatal(err)
	}
	dpkg := func(pkg string) string {
		out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", pkg).Output()
		if err != nil {
			return ""
		}
		v, _, _ := strings.Cut(string(out), "-")
		return v
	}
	seen := 0
	for _, a := range infos {
		t.Logf("%s: driver %q version %q info %q conformance %q", a.Name, a.Driver, a.DriverVersion, a.DriverInfo, a.DriverConformance)
		if a.Driver == "" || a.DriverVersion == "" {
			t.Errorf("%s: driver %q version %q, want both", a.Name, a.Driver, a.DriverVersion)
		}
		var want string
		switch a.Name {
		case "wgpu-vulkan:llvmpipe":
			want = dpkg("mesa-vulkan-drivers")
			if a.Driver != "llvmpipe" || a.DriverConformance == "" {
				t.Errorf("%s: driver %q conformance %q, want llvmpipe and a version", a.Name, a.Driver, a.DriverConformance)
			}
		case "wgpu-gl:llvmpipe":
			want = dpkg("libgl1-mesa-dri")
			if a.Driver != "Mesa" {
				t.Errorf("%s: driver %q, want Mesa", a.Name, a.Driver)
			}
		default:
			continue
		}
		seen++
		if want != "" && a.DriverVersion != want {
			t.Errorf("%s: driver version %q, want the installed Mesa's %q", a.Name, a.DriverVersion, want)
		}
	}
	if seen == 0 {
		t.Skip("no Mesa adapter here (make deps installs lavapipe and llvmpipe)")
	}
}

func TestDriverRecords(t *testing.T) {
	recs := DriverRecords([]string{"wgpu-vulkan:llvmpipe", "interp", "no-such:adapter", "wgpu-vulkan:llvmpipe", "wgpu-gl:llvmpipe"})
	require.Len(t, recs, 2, "%+v", recs)
	assert.Equal(t, "wgpu-gl:llvmpipe", recs[0].Adapter)
	assert.Equal(t, "Mesa", recs[0].Driver)
	assert.Equal(t, "wgpu-vulkan:llvmpipe", recs[1].Adapter)
	assert.Equal(t, "llvmpipe", recs[1].Driver)
	assert.Regexp(t, `^[0-9]+\.[0-9]+\.[0-9]+$`, recs[1].Version)
	assert.Empty(t, DriverRecords(nil))
	assert.NotNil(t, DriverRecords([]string{"interp"}))
}
