package amber

import (
	"context"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness"
)

// TestExportEntryMatchesLavapipe: a compute entry point's script (original
// and twin) declares every binding at its own group and binding with its
// initial words, its assembly passes spirv-as and spirv-val, and every
// EXPECT — the reference interpreter's final contents of the read_write
// bindings — holds on what lavapipe leaves in them when it runs that very
// assembly on the script's own buffers and workgroup count (issue 25:
// export-amber refused entry points).
func TestExportEntryMatchesLavapipe(t *testing.T) {
	// Files whose bindings mix read-only, read_write, uniform, runtime-sized,
	// f32, i32 and u32 (wgpu's SPIR-V reader has no atomics: histogram's
	// script is only assembled and validated).
	for _, path := range []string{"../../shaders/compute/particles.wgsl", "../../shaders/compute/saxpy_bounds.wgsl",
		"../../shaders/compute/matmul_tiled.wgsl", "../../shaders/compute/prefix_sum.wgsl", "../../shaders/compute/histogram.wgsl"} {
		c, err := testcase.Load(path, testcase.LoadOptions{KernelOnly: true})
		require.NoError(t, err)
		e := c.Entry()
		require.NotNil(t, e, "%s loads as a compute entry point", path)
		for _, flat := range []bool{false, true} {
			sc, err := ExportEntry(e.Case(), Options{Flat: flat, Tool: "test"})
			require.NoError(t, err, "%s flat=%v", path, flat)
			checkEntryScript(t, sc, !strings.HasSuffix(path, "histogram.wgsl"))
		}
	}
}

func checkEntryScript(t *testing.T, sc *Script, run bool) {
	t.Helper()
	lines := strings.Split(sc.Text, "\n")
	require.Equal(t, "#!amber", lines[0])
	shader := sc.Text[strings.Index(sc.Text, "SPIRV-ASM TARGET_ENV "+TargetEnv+"\n")+len("SPIRV-ASM TARGET_ENV "+TargetEnv+"\n"):]
	shader = shader[:strings.Index(shader, "END")]
	words := assemble(t, &script{shader: shader})

	type buf struct {
		words []uint32
		group int
		bind  int
		rw    bool
		as    string
	}
	bufs := map[string]*buf{}
	var order []string
	var wg [3]uint32
	var cur *buf
	var expects [][]string
	for _, l := range lines {
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
		case cur != nil && f[0] == "END":
			cur = nil
		case cur != nil:
			for _, w := range f {
				v, err := strconv.ParseUint(w, 10, 32)
				require.NoError(t, err)
				cur.words = append(cur.words, uint32(v))
			}
		case f[0] == "BUFFER" && f[4] == "DATA":
			cur = &buf{}
			bufs[f[1]] = cur
			order = append(order, f[1])
		case f[0] == "BIND":
			b := bufs[f[2]]
			require.NotNil(t, b, "BIND of an undeclared buffer %s", f[2])
			b.as = f[4]
			b.group, _ = strconv.Atoi(f[6])
			b.bind, _ = strconv.Atoi(f[8])
		case f[0] == "RUN":
			for k := range wg {
				n, err := strconv.Atoi(f[2+k])
				require.NoError(t, err)
				wg[k] = uint32(n)
			}
		case f[0] == "EXPECT":
			expects = append(expects, f)
		}
	}
	require.NotEmpty(t, expects)
	if !run {
		return
	}
	for _, e := range expects {
		name := strings.TrimSuffix(strings.TrimSuffix(e[1], "_i32"), "_f32")
		require.Contains(t, bufs, name)
		bufs[name].rw = true
	}
	var job harness.Dispatch
	job.Workgroups = wg
	for _, name := range order {
		b := bufs[name]
		data := make([]byte, 4*len(b.words))
		for i, w := range b.words {
			binary.LittleEndian.PutUint32(data[4*i:], w)
		}
		kind := harness.BindingReadOnly
		if b.rw {
			kind = harness.BindingStorage
		}
		if b.as == "uniform" {
			kind = harness.BindingUniform
		}
		job.Buffers = append(job.Buffers, harness.BufferBinding{Group: uint32(b.group), Binding: uint32(b.bind), Kind: kind, Data: data})
	}
	out, err := lavapipe(t).Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: sc.Function, Label: "amber-entry-test"}, job)
	require.NoError(t, err)
	final := map[string][]byte{}
	off := 0
	for _, name := range order {
		if b := bufs[name]; b.rw {
			final[name] = out[off : off+4*len(b.words)]
			off += 4 * len(b.words)
		}
	}
	checked := 0
	for _, e := range expects {
		name := strings.TrimSuffix(strings.TrimSuffix(e[1], "_i32"), "_f32")
		idx, err := strconv.Atoi(e[3])
		require.NoError(t, err)
		k := 4
		if e[k] == "TOLERANCE" {
			k += 2
		}
		for j, v := range e[k+1:] {
			bits := binary.LittleEndian.Uint32(final[name][idx+4*j:])
			switch {
			case strings.HasSuffix(e[1], "_i32"):
				assert.Equal(t, v, strconv.FormatInt(int64(int32(bits)), 10), "%s IDX %d", e[1], idx+4*j)
			case strings.HasSuffix(e[1], "_f32"):
				want, _ := strconv.ParseFloat(v, 64)
				assert.InDelta(t, want, float64(math.Float32frombits(bits)), 1e-6, "%s IDX %d", e[1], idx+4*j)
			default:
				assert.Equal(t, v, strconv.FormatUint(uint64(bits), 10), "%s IDX %d", e[1], idx+4*j)
			}
			checked++
		}
	}
	assert.Equal(t, sc.Checked, checked)
}
