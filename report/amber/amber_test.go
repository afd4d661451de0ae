package amber

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/ir"
)

// TestMain lets this test binary serve as its own harness worker process,
// so raw SPIR-V (possibly undefined) runs on lavapipe in a worker.
func TestMain(m *testing.M) {
	if os.Getenv(worker.MarkerEnv) == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "amber test worker:", err)
			os.Exit(worker.ExitServeError)
		}
		os.Exit(0)
	}
	xdg := ""
	if os.Getenv("XDG_RUNTIME_DIR") == "" {
		if dir, err := os.MkdirTemp("", "amber-xdg"); err == nil {
			xdg = dir
			os.Setenv("XDG_RUNTIME_DIR", dir)
		}
	}
	code := m.Run()
	if xdg != "" {
		os.RemoveAll(xdg)
	}
	os.Exit(code)
}

// ---- a small AmberScript reader for the subset Export writes ----

type buffer struct {
	name     string
	dataType string   // uint32, int32, float
	words    []uint32 // DATA values (uint32 buffers only)
	size     int      // elements
	line     int
}

type expect struct {
	buf    string
	idx    int
	tol    float64 // < 0: EQ without TOLERANCE
	values []string
	line   int
}

type script struct {
	shader    string
	targetEnv string
	entry     string
	buffers   map[string]*buffer
	binds     map[int]string
	run       [3]int
	runLine   int
	copies    map[string]int // destination → line
	expects   []expect
	comments  []string
}

// parseScript reads an exported script the way Amber tokenizes it: '#'
// starts a comment outside SHADER blocks, a SHADER block runs up to the
// first "END" anywhere in the text (Tokenizer::ExtractToNext), numbers
// with a '.' are floating point.
func parseScript(t *testing.T, text string) *script {
	t.Helper()
	require.True(t, strings.HasPrefix(text, "#!amber\n"), "the first line is #!amber")
	s := &script{buffers: map[string]*buffer{}, binds: map[int]string{}, copies: map[string]int{}}
	lines := strings.Split(text, "\n")
	var dataBuf *buffer
	for i := 0; i < len(lines); i++ {
		raw := lines[i]
		line := raw
		if c := strings.Index(line, "#"); c >= 0 {
			s.comments = append(s.comments, strings.TrimSpace(line[c+1:]))
			line = line[:c]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if dataBuf != nil {
			if f[0] == "END" {
				dataBuf = nil
				continue
			}
			for _, w := range f {
				v, err := strconv.ParseUint(w, 10, 32)
				require.NoError(t, err, "line %d: DATA word %q", i+1, w)
				dataBuf.words = append(dataBuf.words, uint32(v))
			}
			continue
		}
		switch f[0] {
		case "SHADER":
			require.Equal(t, []string{"SHADER", "compute", ShaderName, "SPIRV-ASM", "TARGET_ENV"}, f[:5], "line %d", i+1)
			s.targetEnv = f[5]
			rest := strings.Join(lines[i+1:], "\n")
			end := strings.Index(rest, "END")
			require.GreaterOrEqual(t, end, 0, "SHADER without END")
			s.shader = rest[:end]
			require.True(t, end == 0 || rest[end-1] == '\n', "the first END after SHADER is the block's own line")
			i += strings.Count(rest[:end], "\n") + 1
			require.Equal(t, "END", strings.TrimSpace(lines[i]), "line %d", i+1)
		case "BUFFER":
			b := &buffer{name: f[1], line: i + 1}
			require.Equal(t, "DATA_TYPE", f[2])
			b.dataType = f[3]
			switch f[4] {
			case "DATA":
				dataBuf = b
			case "SIZE":
				n, err := strconv.Atoi(f[5])
				require.NoError(t, err)
				b.size = n
				require.Equal(t, "FILL", f[6])
				if b.dataType == "float" {
					assert.Contains(t, f[7], ".", "a float FILL value needs a '.'")
				}
			default:
				t.Fatalf("line %d: unknown BUFFER initializer %q", i+1, f[4])
			}
			s.buffers[b.name] = b
		case "PIPELINE", "END":
		case "ATTACH":
			require.Equal(t, []string{"ATTACH", ShaderName, "ENTRY_POINT"}, f[:3])
			s.entry = f[3]
		case "BIND":
			require.Len(t, f, 9, "line %d", i+1)
			require.Equal(t, []string{"BIND", "BUFFER"}, f[:2])
			require.Equal(t, []string{"AS", "storage", "DESCRIPTOR_SET", "0", "BINDING"}, f[3:8])
			b, err := strconv.Atoi(f[8])
			require.NoError(t, err)
			s.binds[b] = f[2]
		case "RUN":
			require.Len(t, f, 5)
			for k := 0; k < 3; k++ {
				n, err := strconv.Atoi(f[2+k])
				require.NoError(t, err)
				s.run[k] = n
			}
			s.runLine = i + 1
		case "COPY":
			require.Len(t, f, 4)
			require.Equal(t, OutputBuffer, f[1])
			require.Equal(t, "TO", f[2])
			s.copies[f[3]] = i + 1
		case "EXPECT":
			e := expect{buf: f[1], tol: -1, line: i + 1}
			require.Equal(t, "IDX", f[2], "line %d", i+1)
			n, err := strconv.Atoi(f[3])
			require.NoError(t, err)
			e.idx = n
			k := 4
			if f[k] == "TOLERANCE" {
				require.Contains(t, f[k+1], ".", "line %d: a float needs a '.'", i+1)
				e.tol, err = strconv.ParseFloat(f[k+1], 64)
				require.NoError(t, err)
				k += 2
			}
			require.Equal(t, "EQ", f[k], "line %d", i+1)
			e.values = f[k+1:]
			require.NotEmpty(t, e.values)
			s.expects = append(s.expects, e)
		default:
			t.Fatalf("line %d: unexpected %q", i+1, f[0])
		}
	}
	return s
}

// checkStructure checks what Amber would reject or misread: bindings,
// dispatch size, buffer sizes, COPY views, and every EXPECT's offset and
// value syntax for its buffer's type.
func checkStructure(t *testing.T, s *script, sc *Script) {
	t.Helper()
	assert.Equal(t, TargetEnv, s.targetEnv)
	assert.Equal(t, "main", s.entry)
	assert.Equal(t, map[int]string{0: InputBuffer, 1: OutputBuffer}, s.binds)
	n := sc.Invocations
	assert.Equal(t, [3]int{(n + 63) / 64, 1, 1}, s.run, "RUN counts workgroups of 64")
	in, out := s.buffers[InputBuffer], s.buffers[OutputBuffer]
	require.NotNil(t, in)
	require.NotNil(t, out)
	assert.Equal(t, "uint32", in.dataType)
	assert.Len(t, in.words, n*sc.InputStride/4, "one input record per invocation")
	assert.Equal(t, "uint32", out.dataType)
	assert.Equal(t, n*sc.OutputStride/4, out.size, "one output record per invocation")
	for dst, line := range s.copies {
		b := s.buffers[dst]
		require.NotNil(t, b, "COPY to an undeclared buffer")
		assert.Equal(t, out.size, b.size, "COPY needs equal element counts (Buffer::CopyTo)")
		assert.Greater(t, line, s.runLine, "COPY after RUN")
	}
	checked := 0
	for _, e := range s.expects {
		b := s.buffers[e.buf]
		require.NotNil(t, b, "line %d: EXPECT on an undeclared buffer", e.line)
		if e.buf != OutputBuffer {
			require.Contains(t, s.copies, e.buf, "line %d: a view is filled by COPY", e.line)
			assert.Greater(t, e.line, s.copies[e.buf], "line %d: EXPECT after its COPY", e.line)
		}
		assert.Greater(t, e.line, s.runLine)
		assert.Zero(t, e.idx%4, "line %d: IDX %d is not a multiple of the element size 4", e.line, e.idx)
		assert.LessOrEqual(t, e.idx+4*len(e.values), 4*b.size, "line %d: reads past the buffer", e.line)
		for _, v := range e.values {
			switch b.dataType {
			case "float":
				assert.Contains(t, v, ".", "line %d: float %q needs a '.'", e.line, v)
				_, err := strconv.ParseFloat(v, 32)
				assert.NoError(t, err)
			case "int32":
				_, err := strconv.ParseInt(v, 10, 32)
				assert.NoError(t, err, "line %d", e.line)
			case "uint32":
				_, err := strconv.ParseUint(v, 10, 32)
				assert.NoError(t, err, "line %d", e.line)
			}
		}
		if e.tol >= 0 {
			assert.Equal(t, "float", b.dataType, "TOLERANCE only on floats here")
		}
		checked += len(e.values)
	}
	assert.Equal(t, sc.Checked, checked)
	assert.Equal(t, sc.Expects, len(s.expects))
}

// assemble runs spirv-as and spirv-val on the SHADER block and returns the
// module's words.
func assemble(t *testing.T, s *script) []uint32 {
	t.Helper()
	as, err := exec.LookPath("spirv-as")
	require.NoError(t, err, "spirv-as not found: install spirv-tools (make deps)")
	val, err := exec.LookPath("spirv-val")
	require.NoError(t, err, "spirv-val not found: install spirv-tools (make deps)")
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "k.spvasm"), filepath.Join(dir, "k.spv")
	require.NoError(t, os.WriteFile(src, []byte(s.shader), 0o644))
	msg, err := exec.Command(as, "--target-env", "spv1.3", src, "-o", bin).CombinedOutput()
	require.NoError(t, err, "spirv-as: %s\n%s", msg, s.shader)
	msg, err = exec.Command(val, "--target-env", "vulkan1.1", bin).CombinedOutput()
	require.NoError(t, err, "spirv-val: %s", msg)
	words, err := ReadSPIRV(bin)
	require.NoError(t, err)
	return words
}

var (
	lavaOnce sync.Once
	lava     *worker.Device
	lavaErr  error
)

func lavapipe(t *testing.T) *worker.Device {
	t.Helper()
	lavaOnce.Do(func() { lava, lavaErr = worker.Start("wgpu-vulkan:llvmpipe", worker.Options{}) })
	require.NoError(t, lavaErr, "lavapipe: install mesa-vulkan-drivers (make deps)")
	return lava
}

// gpuFailures runs the assembled module on lavapipe with the script's own
// input words and evaluates every EXPECT on the output bytes as Amber's
// verifier does (src/verifier.cc: integers exactly; float EQ within a
// relative 1e-8; TOLERANCE absolute). It returns the byte offsets of the
// values that fail.
func gpuFailures(t *testing.T, s *script, words []uint32, n int) []int {
	t.Helper()
	in := make([]byte, 4*len(s.buffers[InputBuffer].words))
	for i, w := range s.buffers[InputBuffer].words {
		binary.LittleEndian.PutUint32(in[4*i:], w)
	}
	outSize := 4 * s.buffers[OutputBuffer].size
	out, err := lavapipe(t).Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: s.entry, Label: "amber-test"},
		harness.Dispatch{Input: in, OutputSize: outSize, Invocations: n})
	require.NoError(t, err)
	require.Len(t, out, outSize)
	var bad []int
	for _, e := range s.expects {
		dt := s.buffers[e.buf].dataType
		for k, v := range e.values {
			off := e.idx + 4*k
			bits := binary.LittleEndian.Uint32(out[off:])
			ok := false
			switch dt {
			case "uint32":
				want, _ := strconv.ParseUint(v, 10, 32)
				ok = uint64(bits) == want
			case "int32":
				want, _ := strconv.ParseInt(v, 10, 32)
				ok = int64(int32(bits)) == want
			case "float":
				want, _ := strconv.ParseFloat(v, 64)
				got := float64(math.Float32frombits(bits))
				if e.tol >= 0 {
					ok = math.Abs(got-want) <= e.tol
				} else {
					ok = math.Abs(got-want) <= 1e-6/100*math.Abs(want)
				}
			}
			if !ok {
				bad = append(bad, off)
			}
		}
	}
	return bad
}

func loadFile(t *testing.T, path, kernel string) (*testcase.KernelCase, string) {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	m, err := wgsl.Parse(path, src)
	require.NoError(t, err)
	f, err := wgsl.Kernel(m, kernel)
	require.NoError(t, err)
	in := strings.TrimSuffix(path, ".wgsl") + ".inputs.json"
	var args [][]ir.Value
	if data, err := os.ReadFile(in); err == nil {
		args, err = testcase.ParseInputs(in, data, f)
		require.NoError(t, err)
	} else {
		args = gen.Inputs(1, f.Params, 16)
	}
	return &testcase.KernelCase{Module: m, Kernel: f.Name, Args: args}, string(src)
}

func parseCase(t *testing.T, src string, args [][]ir.Value) *testcase.KernelCase {
	t.Helper()
	m, err := wgsl.Parse("t.wgsl", []byte(src))
	require.NoError(t, err)
	f, err := wgsl.Kernel(m, "")
	require.NoError(t, err)
	return &testcase.KernelCase{Module: m, Kernel: f.Name, Args: args}
}

// TestExportPortableMatchesLavapipe: for kernels whose outputs mix f32,
// i32, u32, bool, vectors, structs and private globals, original and twin,
// with both disassemblers, the exported script is well formed, its
// assembly passes spirv-as and spirv-val, and its EXPECTs — the reference
// interpreter's values — all hold on the bytes lavapipe returns when it
// runs that very assembly on the script's own input words (portable mode,
// where lavapipe agrees with the reference).
func TestExportPortableMatchesLavapipe(t *testing.T) {
	files := []struct{ path, kernel string }{
		{"../../shaders/examples/particle.wgsl", ""},
		{"../../shaders/examples/divmod.wgsl", ""},
		{"../../shaders/examples/tonemap.wgsl", ""},
		{"../../shaders/examples/tri_setup.wgsl", ""},
		{"../../shaders/conformance/f32_to_i32_truncates.wgsl", "f32_to_i32_truncates"},
		{"../../shaders/conformance/div_by_zero_i32.wgsl", "div_by_zero_i32"},
	}
	for _, fl := range files {
		for _, flat := range []bool{false, true} {
			for _, dis := range []Disassembler{DefaultDisassembler(), Gpudiff} {
				name := fmt.Sprintf("%s/flat=%v/%s", filepath.Base(fl.path), flat, dis.Name)
				t.Run(name, func(t *testing.T) {
					c, src := loadFile(t, fl.path, fl.kernel)
					sc, err := Export(c.Case(), Options{Mode: wgsl.Portable, Flat: flat, Source: src, Disassemble: dis, Tool: "test"})
					require.NoError(t, err)
					s := parseScript(t, sc.Text)
					checkStructure(t, s, sc)
					assert.Greater(t, sc.Checked, 0)
					words := assemble(t, s)
					assert.Empty(t, gpuFailures(t, s, words, sc.Invocations), "EXPECTs that fail on lavapipe")
					if flat {
						assert.Equal(t, c.Kernel+"_flat", sc.Function)
					}
				})
			}
		}
	}
}

// TestExportRawCatchesTheDivergence: raw x / 0 on lavapipe (through the
// same SPIR-V) does not give WGSL's x, so the script fails — exactly at the
// EXPECTs of invocations whose divisor is 0 (the only place raw and
// portable SPIR-V differ), and at least once.
func TestExportRawCatchesTheDivergence(t *testing.T) {
	c, src := loadFile(t, "../../shaders/conformance/div_by_zero_i32.wgsl", "div_by_zero_i32")
	sc, err := Export(c.Case(), Options{Mode: wgsl.Raw, Source: src})
	require.NoError(t, err)
	s := parseScript(t, sc.Text)
	checkStructure(t, s, sc)
	bad := gpuFailures(t, s, assemble(t, s), sc.Invocations)
	require.NotEmpty(t, bad, "lavapipe's raw x/0 differs from WGSL's x for some x")
	for _, off := range bad {
		i := off / sc.OutputStride
		assert.Equal(t, int32(0), c.Args[i][1].I32(), "invocation %d fails but its divisor is not 0", i)
	}
	assert.Contains(t, sc.Text, "OpSDiv")
	assert.NotContains(t, sc.Text, "# recorded verdict", "no verdict given: no line")
}

// TestExportIndeterminateAndTolerance: an overflowing f32 leaf gets no
// EXPECT (and a comment), an inexact one a TOLERANCE, exact ones EQ; the
// expected values are hand-derived.
func TestExportIndeterminateAndTolerance(t *testing.T) {
	f := ir.F32Val
	c := parseCase(t, `fn k(x: f32) -> vec2<f32> { return vec2<f32>(x * x, sqrt(x)); }`,
		[][]ir.Value{{f(4)}, {f(1e30)}})
	sc, err := Export(c.Case(), Options{})
	require.NoError(t, err)
	s := parseScript(t, sc.Text)
	checkStructure(t, s, sc)
	byIdx := map[int]expect{}
	for _, e := range s.expects {
		byIdx[e.idx] = e
	}
	// Invocation 0: 4*4 = 16 exactly, sqrt(4) = 2 within WGSL's sqrt
	// accuracy (inherited from 1/inverseSqrt: not exact).
	require.Contains(t, byIdx, 0)
	assert.Equal(t, "16.0", byIdx[0].values[0])
	assert.Less(t, byIdx[0].tol, 0.0, "exact: plain EQ")
	require.Contains(t, byIdx, 4)
	assert.Equal(t, []string{"2.0"}, byIdx[4].values)
	assert.Greater(t, byIdx[4].tol, 0.0, "sqrt has an accuracy bound")
	// Invocation 1: 1e30 * 1e30 overflows f32: indeterminate, no EXPECT.
	assert.NotContains(t, byIdx, 8)
	assert.Equal(t, 1, sc.Unchecked)
	assert.Contains(t, sc.Text, "#   ret[0] at byte 8: indeterminate in WGSL")
	words := assemble(t, s)
	assert.Empty(t, gpuFailures(t, s, words, sc.Invocations))
}

func TestFormatFloat(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{3, "3.0"}, {-0.5, "-0.5"}, {1e9, "1.0e+09"}, {2147483520, "2.1474835e+09"},
		{float64(math.SmallestNonzeroFloat32), "1.0e-45"}, {0.1, "0.1"}, {float64(float32(0.1)), "0.1"},
		{1e-300, "1.0e-300"},
	} {
		got := FormatFloat(c.in)
		assert.Equal(t, c.want, got, "%v", c.in)
		back, err := strconv.ParseFloat(got, 64)
		require.NoError(t, err)
		if float64(float32(c.in)) == c.in {
			assert.Equal(t, float32(c.in), float32(back), "round trip of %v", c.in)
		} else {
			assert.Equal(t, c.in, back)
		}
	}
}

// TestExportSubnormalAllowsFlush: WGSL lets an implementation flush a
// subnormal result to zero, so its EXPECT tolerates |value|.
func TestExportSubnormalAllowsFlush(t *testing.T) {
	c := parseCase(t, `fn k(x: f32) -> f32 { return x * 0.5; }`, [][]ir.Value{{ir.F32Val(0x1p-126)}})
	sc, err := Export(c.Case(), Options{})
	require.NoError(t, err)
	s := parseScript(t, sc.Text)
	require.Len(t, s.expects, 1)
	assert.Equal(t, float64(0x1p-127), s.expects[0].tol, "the tolerance reads back exactly")
	v, err := strconv.ParseFloat(s.expects[0].values[0], 32)
	require.NoError(t, err)
	assert.Equal(t, float32(0x1p-127), float32(v), "the value reads back as the float32")
}

// TestExportNoENDInShader: Amber ends a SHADER block at the first "END"
// anywhere, so a name containing END is dropped from the assembly.
func TestExportNoENDInShader(t *testing.T) {
	c := parseCase(t, "fn BLEND_END(x: i32) -> i32 { return x + 1; }", [][]ir.Value{{ir.I32Val(1)}})
	for _, dis := range []Disassembler{DefaultDisassembler(), Gpudiff} {
		sc, err := Export(c.Case(), Options{Disassemble: dis})
		require.NoError(t, err)
		s := parseScript(t, sc.Text)
		assert.NotContains(t, s.shader, "END")
		assert.Contains(t, s.shader, "OpIAdd")
		assert.Contains(t, sc.Text, "#   fn BLEND_END(x: i32)", "the source keeps its names")
		assert.Empty(t, gpuFailures(t, s, assemble(t, s), 1))
	}
}

func TestExportRecordsProvenance(t *testing.T) {
	c := parseCase(t, "fn k(x: u32) -> bool { return x > 2u; }", [][]ir.Value{{ir.U32Val(1)}, {ir.U32Val(3)}})
	sc, err := Export(c.Case(), Options{Mode: wgsl.Raw, Name: "cases/k.wgsl", Verdict: "mismatch", Tool: "gpudiff v1.2.3",
		Seed: &testcase.SeedInfo{Campaign: 7, Index: 3, Program: 0xabc, Size: 30, Profile: "default"}})
	require.NoError(t, err)
	for _, want := range []string{
		"# gpudiff case cases/k.wgsl: function k, 2 invocations, raw mode\n",
		"# tool: gpudiff v1.2.3\n", "# recorded verdict: mismatch\n",
		"# seed: program 3 of campaign seed 7 (program seed 0xabc, size 30, profile default)\n",
		"#   fn k(x: u32) -> bool {\n",
		"EXPECT out IDX 0 EQ 0\n", "EXPECT out IDX 4 EQ 1\n", // bool as u32, hand-derived
	} {
		assert.Contains(t, sc.Text, want)
	}
	assert.NotContains(t, sc.Text, "COPY", "no i32 or f32 leaf: no views")
	s := parseScript(t, sc.Text)
	assert.Empty(t, gpuFailures(t, s, assemble(t, s), 2))
}

func TestExportErrors(t *testing.T) {
	c := parseCase(t, "fn k(x: u32) -> u32 { return x; }", nil)
	_, err := Export(c.Case(), Options{})
	assert.ErrorContains(t, err, "no invocations")
}

// TestEmit: emit's three formats of one function kernel, and an unknown
// format refused as a *FormatError naming it.
func TestEmit(t *testing.T) {
	m, err := wgsl.Parse("t.wgsl", []byte("fn k(x: i32) -> i32 { return x + 1; }\n"))
	require.NoError(t, err)
	src, binary, err := Emit(m, testcase.KindKernel, "k", "wgsl", wgsl.Portable, false)
	require.NoError(t, err)
	require.False(t, binary)
	require.Contains(t, string(src), "@compute")
	words, binary, err := Emit(m, testcase.KindKernel, "k", "spirv", wgsl.Portable, false)
	require.NoError(t, err)
	require.True(t, binary)
	require.Equal(t, []byte{0x03, 0x02, 0x23, 0x07}, words[:4])
	asm, binary, err := Emit(m, testcase.KindKernel, "k", "spirv-asm", wgsl.Portable, true)
	require.NoError(t, err)
	require.False(t, binary)
	require.Contains(t, string(asm), "OpEntryPoint Fragment")
	_, _, err = Emit(m, testcase.KindKernel, "k", "hlsl", wgsl.Portable, false)
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, `--format must be wgsl, spirv or spirv-asm, got "hlsl"`, err.Error())
}
