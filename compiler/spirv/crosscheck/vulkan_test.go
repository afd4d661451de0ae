package crosscheck

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

var (
	vkrunOnce sync.Once
	vkrunPath string
	vkrunErr  string
)

// vkrun returns compiler/spirv's testdata/vkrun runner (a Vulkan compute
// runner outside gpudiff: lavapipe with shaderFloat16, 16-bit storage and
// subgroup extended types; raw buffers at set 0), built once against the
// Vulkan headers (GPUDIFF_VULKAN_INCLUDE, else the system's:
// libvulkan-dev), skipping the test where it does not build.
func vkrun(t *testing.T) string {
	t.Helper()
	vkrunOnce.Do(func() {
		cc, err := exec.LookPath("cc")
		if err != nil {
			vkrunErr = "no C compiler for testdata/vkrun"
			return
		}
		dir, err := os.MkdirTemp("", "vkrun")
		if err != nil {
			vkrunErr = err.Error()
			return
		}
		vkrunPath = filepath.Join(dir, "vkrun")
		args := []string{"-O1", "-o", vkrunPath, "../testdata/vkrun/vkrun.c"}
		if inc := os.Getenv("GPUDIFF_VULKAN_INCLUDE"); inc != "" {
			args = append(args, "-I", inc)
		}
		lib := "-lvulkan"
		if _, err := os.Stat("/usr/lib/x86_64-linux-gnu/libvulkan.so.1"); err == nil {
			lib = "/usr/lib/x86_64-linux-gnu/libvulkan.so.1"
		}
		if msg, err := exec.Command(cc, append(args, lib)...).CombinedOutput(); err != nil {
			vkrunErr = fmt.Sprintf("testdata/vkrun does not build (Vulkan headers: libvulkan-dev, or GPUDIFF_VULKAN_INCLUDE): %s", msg)
		}
	})
	if vkrunErr != "" {
		t.Skip(vkrunErr)
	}
	return vkrunPath
}

// vkDriver is a lavapipe configuration for vkrun: Mesa 25 where `make
// mesa25` unpacked it (build/mesa25), else the system's, at
// LP_NATIVE_VECTOR_WIDTH 256, 128 and 512 (subgroup sizes 8, 4 and 16;
// the shader cache off, as harness/dawn's variants).
type vkDriver struct {
	name string
	env  []string
}

func vkDrivers() []vkDriver {
	base := vkDriver{name: "system lavapipe"}
	if root, err := filepath.Abs("../../../build/mesa25"); err == nil {
		if _, err := os.Stat(filepath.Join(root, "VERSION")); err == nil {
			icd := filepath.Join(root, "lvp_icd.json")
			base = vkDriver{"lavapipe Mesa 25", []string{"LD_LIBRARY_PATH=" + filepath.Join(root, "root/usr/lib/x86_64-linux-gnu"),
				"VK_ICD_FILENAMES=" + icd, "VK_DRIVER_FILES=" + icd, "VK_ADD_DRIVER_FILES="}}
		}
	}
	var out []vkDriver
	for _, w := range []string{"256", "128", "512"} {
		out = append(out, vkDriver{base.name + " lp" + w, append(append([]string(nil), base.env...), "LP_NATIVE_VECTOR_WIDTH="+w, "MESA_SHADER_CACHE_DISABLE=true")})
	}
	return out
}

// lavapipeQuirk is Mesa 22.3.6's LLVM abort on some subgroup modules
// (compiler/spirv's TestLavapipeBroadcastFirstQuirk).
const lavapipeQuirk = "LLVM ERROR: Cannot select"

// vkDispatch runs entry of words on driver d with bufs[i] at set 0,
// binding i (uniform[i]: a uniform buffer) and returns every buffer's
// bytes after the dispatch (uniforms unchanged), or vkrun's output when
// the driver aborted with lavapipeQuirk.
func vkDispatch(t *testing.T, d vkDriver, words []uint32, entry string, wg [3]uint32, bufs [][]byte, uniform []bool) ([][]byte, string) {
	t.Helper()
	dir := t.TempDir()
	var spv bytes.Buffer
	require.NoError(t, binary.Write(&spv, binary.LittleEndian, words))
	mod := filepath.Join(dir, "m.spv")
	require.NoError(t, os.WriteFile(mod, spv.Bytes(), 0o644))
	args := []string{mod, entry, strconv.Itoa(int(wg[0])), strconv.Itoa(int(wg[1])), strconv.Itoa(int(wg[2]))}
	for i, b := range bufs {
		p := filepath.Join(dir, "b"+strconv.Itoa(i))
		require.NoError(t, os.WriteFile(p, b, 0o644))
		if uniform[i] {
			p = "u:" + p
		}
		args = append(args, p)
	}
	cmd := exec.Command(vkrun(t), args...)
	cmd.Env = append(os.Environ(), d.env...)
	msg, err := cmd.CombinedOutput()
	if err != nil && bytes.Contains(msg, []byte(lavapipeQuirk)) {
		return nil, string(msg)
	}
	if err != nil {
		var sizes []int
		for _, b := range bufs {
			sizes = append(sizes, len(b))
		}
		t.Fatalf("vkrun %s %v: %v: %s (buffers %v)", entry, wg, err, msg, sizes)
	}
	out := make([][]byte, len(bufs))
	for i := range bufs {
		out[i] = bufs[i]
		if !uniform[i] {
			out[i], err = os.ReadFile(filepath.Join(dir, "b"+strconv.Itoa(i)+".out"))
			require.NoError(t, err)
		}
	}
	return out, ""
}

// TestSubgroupProgramsMatchInterpOnVulkan runs programs of the
// "subgroups" generator profile — and their flattened twins, whose
// subgroup operations carry the path's guards — as gpudiff's portable
// SPIR-V on lavapipe through Vulkan (testdata/vkrun; no stack gpudiff
// links reads subgroups from SPIR-V), with ir.AddSubgroupProbe's binding,
// and compares every read_write binding leaf with the reference
// interpreter run under the partition the run observed: determinate
// leaves exactly (f32 within the reference's tolerance), allowed sets by
// membership; leaves whose value rests on a reconvergence assumption WGSL
// does not make (Output.Reconvergence) are not compared.
func TestSubgroupProgramsMatchInterpOnVulkan(t *testing.T) {
	vkrun(t)
	p, err := gen.LookupProfile("subgroups")
	require.NoError(t, err)
	sizes := []int{10, 30, 60}
	drivers := vkDrivers()
	ran, compared, reconv, aborted := 0, 0, 0, 0
	subgroupSizes := map[int]bool{}
	for i := 0; i < 24; i++ {
		prog := gen.Generate(uint64(i+1), gen.Config{Size: sizes[i%len(sizes)], Profile: p})
		name := programName(prog, i)
		groupZero := true
		for _, v := range prog.Module.Shared {
			groupZero = groupZero && (v.Space == ir.SpaceWorkgroup || v.Group == 0)
		}
		if !groupZero || len(prog.Module.Textures) > 0 {
			continue
		}
		pm := ir.CloneModule(prog.Module)
		twin, err := flatten.Function(pm, prog.Kernel, flatten.Options{})
		require.NoError(t, err, "%s: flatten", name)
		probe, err := ir.AddSubgroupProbe(pm, prog.Kernel, twin.Name)
		require.NoError(t, err)
		vals := gen.Bindings(prog.Seed, prog.Module)
		ep := prog.Module.Func(prog.Kernel)
		per := int(ep.WorkgroupSize[0] * max(ep.WorkgroupSize[1], 1) * max(ep.WorkgroupSize[2], 1))
		total := per * int(prog.Workgroups[0]*prog.Workgroups[1]*prog.Workgroups[2])
		d, err := interp.CompileEntry(prog.Module, prog.Kernel)
		require.NoError(t, err, name)
		for _, k := range []string{prog.Kernel, twin.Name} {
			words, err := spirv.Emit(pm, k, spirv.Options{Mode: spirv.Portable})
			require.NoError(t, err, "%s %s", name, k)
			var bufs [][]byte
			var uniform []bool
			var vars []*ir.SharedVar
			for _, v := range pm.Shared {
				if v.Space == ir.SpaceWorkgroup {
					continue
				}
				for len(bufs) <= v.Binding {
					bufs, uniform, vars = append(bufs, make([]byte, 4)), append(uniform, false), append(vars, nil)
				}
				data := make([]byte, total*ir.SubgroupProbeStride)
				if v != probe.Var {
					data, err = ir.BindingBytes(v.T, vals[v.Name])
					require.NoError(t, err, "%s: binding %s", name, v.Name)
				}
				bufs[v.Binding], uniform[v.Binding], vars[v.Binding] = data, v.Space == ir.SpaceUniform, v
			}
			drv := drivers[i%len(drivers)]
			got, abort := vkDispatch(t, drv, words, k, prog.Workgroups, bufs, uniform)
			if abort != "" {
				require.NotContains(t, drv.name, "Mesa 25", "%s %s: %s", name, k, abort)
				t.Logf("%s %s: %s aborts (Mesa 22.3's quirk): %.80s", name, k, drv.name, abort)
				aborted++
				continue
			}
			part := observed(t, got[probe.Var.Binding], per)
			subgroupSizes[part.Size()] = true
			ref, err := d.Run(vals, prog.Workgroups, interp.Options{Subgroups: part})
			require.NoError(t, err, "%s: reference", name)
			ran++
			for b, v := range vars {
				if v == nil || v == probe.Var || !v.Writable() {
					continue
				}
				gv, err := ir.BindingValue(v.T, got[b])
				require.NoError(t, err)
				want := ref.Buffers[v.Name]
				gl, wl := leaves(gv), leaves(want.Value)
				require.Len(t, gl, len(wl))
				for j := range wl {
					switch {
					case j < len(want.Reconvergence) && want.Reconvergence[j]:
						reconv++
					case want.Indeterminate != nil && want.Indeterminate[j]:
						if j < len(want.Allowed) && !want.Allowed[j].IsAny() {
							assert.True(t, oracle.Contains(want.Allowed[j], gl[j], 0), "%s %s: %s leaf %d = %v, allowed %s\n%s", name, k, v.Name, j, gl[j], want.Allowed[j].Format(wl[j].Type), prog)
							compared++
						}
					default:
						tol := 0.0
						if j < len(want.Tolerance) {
							tol = want.Tolerance[j]
						}
						if !assert.True(t, leafEqual(gl[j], wl[j], tol), "%s %s: %s leaf %d = %v, reference %v\n%s", name, k, v.Name, j, gl[j], wl[j], prog) {
							return
						}
						compared++
					}
				}
			}
		}
	}
	t.Logf("%d runs at subgroup sizes %v (%s), %d leaves compared, %d left to reconvergence, %d runs the driver aborted", ran, subgroupSizes, drivers[0].name, compared, reconv, aborted)
	require.Positive(t, ran)
}

// observed decodes the probe's bytes (ir.SubgroupProbeStride per
// invocation: subgroup_invocation_id, its subgroup's first
// local_invocation_index, subgroup_size, 1) into the run's partition.
func observed(t *testing.T, b []byte, perWorkgroup int) *interp.SubgroupPartition {
	t.Helper()
	obs := make([]interp.SubgroupObservation, len(b)/ir.SubgroupProbeStride)
	for i := range obs {
		e := b[i*ir.SubgroupProbeStride:]
		require.Equal(t, uint32(1), binary.LittleEndian.Uint32(e[12:]), "invocation %d did not run", i)
		obs[i] = interp.SubgroupObservation{ID: binary.LittleEndian.Uint32(e[0:]), First: binary.LittleEndian.Uint32(e[4:]), Size: binary.LittleEndian.Uint32(e[8:])}
	}
	part, err := interp.ObservedSubgroups(perWorkgroup, obs)
	require.NoError(t, err)
	return part
}
