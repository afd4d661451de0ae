package shaders

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// computeModels are small, obviously-correct Go reimplementations of the
// compute shaders whose expectations are too long to derive by hand: each
// takes NAME.inputs.json and returns the read_write bindings' final
// contents. They share no code with gpudiff's interpreter, emitters or
// flatten: sequential loops over the arrays, the algorithm's plain
// definition (sort, a running sum, a triple loop), not the shader's
// parallel schedule.
var computeModels = map[string]func(in map[string]json.RawMessage) map[string]any{
	"matmul_tiled": func(in map[string]json.RawMessage) map[string]any {
		a, b := u32s(in["a"]), u32s(in["b"])
		c := make([]uint32, 64)
		for r := 0; r < 8; r++ {
			for col := 0; col < 8; col++ {
				for k := 0; k < 8; k++ {
					c[r*8+col] += a[r*8+k] * b[k*8+col]
				}
			}
		}
		return map[string]any{"c": c}
	},
	"bitonic_sort": func(in map[string]json.RawMessage) map[string]any {
		d := u32s(in["data"])
		for blk := 0; blk < len(d); blk += 16 {
			s := d[blk : blk+16]
			sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		}
		return map[string]any{"data": d}
	},
	"bitonic_step": func(in map[string]json.RawMessage) map[string]any {
		var st struct{ K, J uint32 }
		must(json.Unmarshal(in["step"], &st))
		d := u32s(in["data"])
		for i := uint32(0); i < uint32(len(d)); i++ {
			p := i ^ st.J
			if p <= i {
				continue
			}
			up := i&st.K == 0
			if (up && d[i] > d[p]) || (!up && d[i] < d[p]) {
				d[i], d[p] = d[p], d[i]
			}
		}
		return map[string]any{"data": d}
	},
	"stencil_1d": func(in map[string]json.RawMessage) map[string]any {
		s := i32s(in["src"])
		n := len(s)
		at := func(i int) int32 { return s[min(max(i, 0), n-1)] }
		d := make([]int32, n)
		for i := range d {
			d[i] = at(i-1) + 2*at(i) + at(i+1)
		}
		return map[string]any{"dst": d}
	},
	"laplacian_2d": func(in map[string]json.RawMessage) map[string]any {
		img := i32s(in["img"])
		const w, h = 8, 8
		at := func(x, y int) int32 {
			if x < 0 || y < 0 || x >= w || y >= h {
				return 0
			}
			return img[y*w+x]
		}
		out := make([]int32, w*h)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				out[y*w+x] = 4*at(x, y) - at(x, y-1) - at(x, y+1) - at(x-1, y) - at(x+1, y)
			}
		}
		return map[string]any{"lap": out}
	},
	"collatz": func(in map[string]json.RawMessage) map[string]any {
		vs := u32s(in["values"])
		steps := make([]uint32, len(vs))
		for i, n := range vs {
			for n != 1 {
				if n%2 == 0 {
					n /= 2
				} else {
					n = 3*n + 1
				}
				steps[i]++
			}
		}
		return map[string]any{"steps": steps}
	},
	"particles": func(in map[string]json.RawMessage) map[string]any {
		var prm struct {
			Dt, Gravity float32
			FloorY      float32 `json:"floor_y"`
			Count       int
		}
		must(json.Unmarshal(in["params"], &prm))
		var ps []struct {
			Pos [2]float32 `json:"pos"`
			Vel [2]float32 `json:"vel"`
		}
		must(json.Unmarshal(in["particles"], &ps))
		for i := 0; i < prm.Count && i < len(ps); i++ {
			p := &ps[i]
			p.Vel[1] -= prm.Gravity * prm.Dt
			p.Pos[0] += p.Vel[0] * prm.Dt
			p.Pos[1] += p.Vel[1] * prm.Dt
			if p.Pos[1] < prm.FloorY {
				p.Pos[1] = prm.FloorY
				p.Vel[1] = -p.Vel[1]
			}
		}
		return map[string]any{"particles": ps}
	},
	"stream_compaction": func(in map[string]json.RawMessage) map[string]any {
		vs, out := u32s(in["values"]), u32s(in["out"])
		counts := make([]uint32, len(vs)/8)
		for w := range counts {
			for _, v := range vs[8*w : 8*w+8] {
				if v%3 == 0 {
					out[8*w+int(counts[w])] = v
					counts[w]++
				}
			}
		}
		return map[string]any{"out": out, "counts": counts}
	},
	"radix_pass": func(in map[string]json.RawMessage) map[string]any {
		var prm struct{ Shift uint32 }
		must(json.Unmarshal(in["params"], &prm))
		keys := u32s(in["keys"])
		digit := func(k uint32) uint32 { return k >> prm.Shift & 3 }
		hist := make([]uint32, 4)
		for _, k := range keys {
			hist[digit(k)]++
		}
		sorted := append([]uint32(nil), keys...)
		sort.SliceStable(sorted, func(i, j int) bool { return digit(sorted[i]) < digit(sorted[j]) })
		return map[string]any{"sorted": sorted, "hist": hist}
	},
	"transpose_padded": func(in map[string]json.RawMessage) map[string]any {
		src := u32s(in["src"])
		dst := make([]uint32, 64)
		for r := 0; r < 8; r++ {
			for c := 0; c < 8; c++ {
				dst[c*8+r] = src[r*8+c]
			}
		}
		return map[string]any{"dst": dst}
	},
	"downsample_8x8": func(in map[string]json.RawMessage) map[string]any {
		img := u32s(in["img"])
		const w = 16
		out := make([]uint32, 32)
		for y := 0; y < 4; y++ {
			for x := 0; x < 8; x++ {
				out[y*8+x] = (img[2*y*w+2*x] + img[2*y*w+2*x+1] + img[(2*y+1)*w+2*x] + img[(2*y+1)*w+2*x+1]) / 4
			}
		}
		return map[string]any{"half_img": out}
	},
	"scan_blelloch": func(in map[string]json.RawMessage) map[string]any {
		d := u32s(in["data"])
		var sum uint32
		for i, v := range d {
			d[i] = sum
			sum += v
		}
		return map[string]any{"data": d}
	},
}

// TestComputeModelsMatchExpectations: every NAME.expected.json a model in
// computeModels covers holds exactly what the model computes from
// NAME.inputs.json (-update writes it; TestComputeShadersMatchHandDerived-
// Expectations then checks the reference dispatch against it).
func TestComputeModelsMatchExpectations(t *testing.T) {
	for name, model := range computeModels {
		t.Run(name, func(t *testing.T) {
			base := filepath.Join("compute", name)
			raw, err := os.ReadFile(base + ".inputs.json")
			require.NoError(t, err)
			var in map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(raw, &in))
			want := model(in)
			want["races"] = 0
			b, err := json.Marshal(want)
			require.NoError(t, err)
			if *update {
				require.NoError(t, os.WriteFile(base+".expected.json", append(b, '\n'), 0o644))
				return
			}
			got, err := os.ReadFile(base + ".expected.json")
			require.NoError(t, err)
			assert.JSONEq(t, string(b), string(got))
		})
	}
}

// TestComputeConformanceCitations: every shaders/compute/conformance_*
// kernel has exactly one `rule:` and one `spec:` line in its header, and
// the spec line cites a real WGSL section by anchor and title and quotes
// it verbatim (checkCitation, as for shaders/conformance).
func TestComputeConformanceCitations(t *testing.T) {
	spec := readSpec(t)
	files := computeConformanceFiles(t)
	require.GreaterOrEqual(t, len(files), 7)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		name := strings.TrimSuffix(filepath.Base(f), ".wgsl")
		_, line := ruleAndSpec(t, name, src)
		assert.NoError(t, checkCitation(spec, line), name)
	}
}

// computeConformanceFiles lists shaders/compute/conformance_*.wgsl.
func computeConformanceFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("compute", "conformance_*.wgsl"))
	require.NoError(t, err)
	return files
}

func u32s(raw json.RawMessage) []uint32 {
	var v []uint32
	must(json.Unmarshal(raw, &v))
	return v
}

func i32s(raw json.RawMessage) []int32 {
	var v []int32
	must(json.Unmarshal(raw, &v))
	return v
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
