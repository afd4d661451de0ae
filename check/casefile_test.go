package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

const tricky = `struct S {
  a: i32,
  b: vec2<bool>,
}

fn k(s: S, x: f32) -> i32 {
  if (s.b.x && x > 0.5f) {
    return s.a;
  }
  return -s.a;
}
`

func trickyCase(t *testing.T) (*testcase.KernelCase, *Result) {
	m, err := wgsl.Parse("tricky.wgsl", []byte(tricky))
	require.NoError(t, err)
	st := m.Struct("S")
	sv := func(a int32, b0 bool) ir.Value {
		return ir.CompositeVal(ir.StructType(st), ir.I32Val(a), ir.CompositeVal(ir.Vec(2, ir.Bool), ir.BoolVal(b0), ir.BoolVal(false)))
	}
	c := &testcase.KernelCase{Module: m, Kernel: "k", Args: [][]ir.Value{{sv(3, true), ir.F32Val(0.75)}, {sv(-2147483648, false), ir.F32Val(-0)}}}
	res, err := Execute(t.Context(), c.Case(), Options{Flat: true})
	require.NoError(t, err)
	return c, res
}

// TestCaseFileRoundTrip: a case written with an error message that holds
// comment delimiters reads back to the same module, kernel, inputs and
// record, and its WGSL part stays a valid module.
func TestCaseFileRoundTrip(t *testing.T) {
	c, res := trickyCase(t)
	rec := NewRecord(c, res, Options{Flat: true}, "test")
	rec.Note = "a message with */ and /* inside"
	path := filepath.Join(t.TempDir(), "case.wgsl")
	require.NoError(t, testcase.WriteCase(path, c.Module, rec))
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, testcase.IsCase(src))
	assert.Equal(t, 1, strings.Count(string(src), "*/\n"), "the record comment is closed once, at the end")

	c2, rec2, err := testcase.ParseCase(path, src)
	require.NoError(t, err)
	assert.Equal(t, ir.Print(c.Module), ir.Print(c2.Module))
	assert.Equal(t, c.Kernel, c2.Kernel)
	require.Len(t, c2.Args, len(c.Args))
	for i := range c.Args {
		for j := range c.Args[i] {
			assert.True(t, ir.Equal(c.Args[i][j], c2.Args[i][j]), "arg [%d][%d]", i, j)
		}
	}
	assert.Equal(t, rec.Note, rec2.Note)
	assert.Equal(t, rec.Hash, rec2.Hash)
	assert.Equal(t, string(oracle.Pass), rec2.Verdict)
	assert.NotContains(t, string(src), t.TempDir(), "no absolute paths of this machine")
}

func TestParseCaseRejectsWithPositions(t *testing.T) {
	c, res := trickyCase(t)
	good, err := testcase.MarshalCase(c.Module, NewRecord(c, res, Options{}, "test"))
	require.NoError(t, err)
	cases := []struct{ name, src, want string }{
		{"no record", tricky, "not a gpudiff case file"},
		{"unterminated", tricky + testcase.CaseMarker + "\n{", "unterminated"},
		{"bad json", tricky + testcase.CaseMarker + "\n{\"format\": }\n*/\n", "c.wgsl:13:"},
		{"wrong format", tricky + testcase.CaseMarker + "\n{\"format\": \"other/9\"}\n*/\n", `format "other/9"`},
		{"unknown field", strings.Replace(string(good), `"kernel":`, `"kernal": "k", "kernel":`, 1), "unknown field"},
		{"bad inputs", strings.Replace(string(good), "0.75", `"hot"`, 1), "x[0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := testcase.ParseCase("c.wgsl", []byte(tc.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "c.wgsl"), "positioned: %v", err)
		})
	}
}

// FuzzParseCase: the case-file reader never panics; it accepts or returns
// an error naming the file.
func FuzzParseCase(f *testing.F) {
	files, _ := filepath.Glob("../shaders/*/*.wgsl")
	tiers, _ := filepath.Glob("../shaders/tiers/*/*.wgsl")
	files = append(files, tiers...)
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(tricky + testcase.CaseMarker + "\n{\"format\": \"gpudiff-case/1\", \"kernel\": \"k\", \"invocations\": 1, \"inputs\": {\"s\": [{\"a\": 1, \"b\": [true, false]}], \"x\": [1]}}\n*/\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, _, err := testcase.ParseCase("f.wgsl", src)
		if err != nil && !strings.HasPrefix(err.Error(), "f.wgsl") {
			t.Fatalf("unpositioned error: %v", err)
		}
	})
}

// FuzzParseInputs: the inputs reader never panics and its errors name
// where they come from.
func FuzzParseInputs(f *testing.F) {
	m, err := wgsl.Parse("tricky.wgsl", []byte(tricky))
	if err != nil {
		f.Fatal(err)
	}
	k := m.Func("k")
	f.Add([]byte(`{"s": [{"a": 1, "b": [true, false]}], "x": [1.5]}`))
	f.Add([]byte(`{"s": [], "x": []}`))
	f.Add([]byte(`{"x": ["NaN"], "s": [{"a": -2147483648, "b": [false, true]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		args, err := testcase.ParseInputs("in.json", data, k)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "in.json") {
				t.Fatalf("unpositioned error: %v", err)
			}
			return
		}
		for _, a := range args {
			if len(a) != 2 {
				t.Fatalf("invocation with %d arguments", len(a))
			}
		}
	})
}

// TestWriteFileAtomicKeepsDevices: writing to a path that is not a
// regular file writes through it instead of renaming a file over it (run
// as root, the rename replaced /dev/null with a regular file).
func TestWriteFileAtomicKeepsDevices(t *testing.T) {
	require.NoError(t, testcase.WriteFileAtomic(os.DevNull, []byte("x")))
	st, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.Equal(t, os.ModeDevice|os.ModeCharDevice, st.Mode()&(os.ModeDevice|os.ModeCharDevice), "%s is still a character device", os.DevNull)
	assert.Error(t, testcase.WriteFileAtomic(t.TempDir(), []byte("x")), "a directory is refused")
}
