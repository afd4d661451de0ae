package crosscheck

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// surveyDir is a tree of WGSL files (Dawn's test/tint) for
// TestTintF16OnVulkan, which runs only when it is given:
//
//	git -C DAWN archive HEAD test/tint | tar -x -C /tmp/t
//	go test ./compiler/spirv/crosscheck -run TestTintF16OnVulkan -survey-dir /tmp/t/test/tint -v
var surveyDir = flag.String("survey-dir", "", "a tree of WGSL files (Dawn's test/tint) for TestTintF16OnVulkan")

// TestTintF16OnVulkan is issue 40's measurement for gpudiff's SPIR-V of
// f16: every compute entry point of Tint's inputs that enable f16 (and
// not subgroups) that the front end accepts and whose bindings are all in
// group 0 and fixed-size is emitted in portable mode, run on lavapipe
// through vkrun (Mesa 25 where build/mesa25 is) with zeroed bindings, and
// each read_write leaf compared with the reference (f16 within its
// tolerance, allowed sets by membership). A mismatch fails the test;
// the counts are logged.
func TestTintF16OnVulkan(t *testing.T) {
	if *surveyDir == "" {
		t.Skip("no -survey-dir")
	}
	vkrun(t)
	drv := vkDrivers()[0]
	var files []string
	require.NoError(t, filepath.Walk(*surveyDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".wgsl") && !strings.Contains(p, ".expected.") {
			files = append(files, p)
		}
		return nil
	}))
	sort.Strings(files)
	stats := map[string]int{}
	for _, p := range files {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		if !strings.Contains(string(src), "enable f16") || strings.Contains(string(src), "enable subgroups") {
			continue
		}
		m, err := wgsl.Parse(filepath.Base(p), src)
		if err != nil {
			stats["refused by the front end"]++
			continue
		}
		for _, ep := range m.EntryPoints() {
			if ep.Stage != ir.StageCompute {
				continue
			}
			name := p + " " + ep.Name
			d, err := interp.CompileEntry(m, ep.Name)
			if err != nil {
				stats["refused by the interpreter"]++
				continue
			}
			vals := map[string]ir.Value{}
			var bufs [][]byte
			var uniform []bool
			var vars []*ir.SharedVar
			ok := true
			for _, v := range m.Shared {
				if v.Space == ir.SpaceWorkgroup {
					continue
				}
				if v.Group != 0 || v.T.HasRuntimeArray() {
					ok = false
					break
				}
				vals[v.Name] = ir.Zero(v.T)
				for len(bufs) <= v.Binding {
					bufs, uniform, vars = append(bufs, make([]byte, 4)), append(uniform, false), append(vars, nil)
				}
				data, err := ir.BindingBytes(v.T, vals[v.Name])
				require.NoError(t, err, name)
				bufs[v.Binding], uniform[v.Binding], vars[v.Binding] = data, v.Space == ir.SpaceUniform, v
			}
			if !ok {
				stats["bindings vkrun does not lay out"]++
				continue
			}
			ref, err := d.Run(vals, [3]uint32{1, 1, 1}, interp.Options{})
			if err != nil {
				stats["reference error"]++
				continue
			}
			words, err := spirv.Emit(m, ep.Name, spirv.Options{Mode: spirv.Portable})
			require.NoError(t, err, name)
			got, abort := vkDispatch(t, drv, words, ep.Name, [3]uint32{1, 1, 1}, bufs, uniform)
			if abort != "" {
				t.Errorf("%s: %s aborts: %.100s", name, drv.name, abort)
				continue
			}
			stats["ran"]++
			for b, v := range vars {
				if v == nil || !v.Writable() {
					continue
				}
				gv, err := ir.BindingValue(v.T, got[b])
				require.NoError(t, err)
				want := ref.Buffers[v.Name]
				gl, wl := leaves(gv), leaves(want.Value)
				for j := range wl {
					switch {
					case want.Indeterminate != nil && want.Indeterminate[j]:
						if j < len(want.Allowed) && !want.Allowed[j].IsAny() {
							assert.True(t, oracle.Contains(want.Allowed[j], gl[j], 0), "%s: %s leaf %d = %v, allowed %s", name, v.Name, j, gl[j], want.Allowed[j].Format(wl[j].Type))
						}
					default:
						tol := 0.0
						if j < len(want.Tolerance) {
							tol = want.Tolerance[j]
						}
						assert.True(t, floatLeafEqual(gl[j], wl[j], tol), "%s: %s leaf %d = %v, reference %v (tolerance %g)", name, v.Name, j, gl[j], wl[j], tol)
						stats["leaves compared"]++
					}
				}
			}
		}
	}
	t.Logf("%s: %v", drv.name, fmt.Sprint(stats))
}

// floatLeafEqual is leafEqual for f32 and f16 leaves: bits, or within
// the tolerance, or both zero or subnormal (f16's smallest normal is
// 2^-14).
func floatLeafEqual(got, want ir.Value, tol float64) bool {
	if want.Type.Kind != ir.KindF16 {
		return leafEqual(got, want, tol)
	}
	if got.Bits == want.Bits {
		return true
	}
	g, w := got.Float(), want.Float()
	tiny := func(f float64) bool { return f > -0x1p-14 && f < 0x1p-14 }
	if tiny(g) && tiny(w) {
		return true
	}
	return g-w <= tol && w-g <= tol
}
