package main

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
)

// TestExportAmberWGSL: a conformance kernel with its inputs beside it, raw
// mode, two invocations kept; the expected values are the hand-derived
// ones of div_by_zero_i32 (a = 7, b = 0 → 7; a = 0, b = 0 → 0).
func TestExportAmberWGSL(t *testing.T) {
	out := filepath.Join(t.TempDir(), "div0.amber")
	code, stdout, errOut := gpudiffMine(t, "export-amber", repo("shaders/conformance/div_by_zero_i32.wgsl"), "--mode", "raw", "--only", "0,2", "-o", out)
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, stdout)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	s := string(data)
	assert.True(t, strings.HasPrefix(s, "#!amber\n"))
	for _, want := range []string{
		"function div_by_zero_i32, 2 invocations, raw mode\n",
		"SHADER compute kernel SPIRV-ASM TARGET_ENV spv1.3\n",
		"OpSDiv", // raw: the plain instruction
		"  7 0  # invocation 0: a = 7, b = 0\n",
		"  0 0  # invocation 1: a = 0, b = 0\n",
		"BIND BUFFER in AS storage DESCRIPTOR_SET 0 BINDING 0\n",
		"BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1\n",
		"RUN pipeline 1 1 1",
		"COPY out TO out_i32\n",
		"EXPECT out_i32 IDX 0 EQ 7\n",
		"EXPECT out_i32 IDX 4 EQ 0\n",
		"#   // rule: i32 division by zero yields the dividend\n",
	} {
		assert.Contains(t, s, want)
	}
	// Portable (the default for a .wgsl): the guarded divisor, no raw SDiv of b.
	code, stdout, errOut = gpudiffMine(t, "export-amber", repo("shaders/conformance/div_by_zero_i32.wgsl"))
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, stdout, "8 invocations, portable mode")
}

// TestExportAmberCaseFile: a case file supplies its kernel, inputs, mode,
// seed and verdict; --flat exports the twin.
func TestExportAmberCaseFile(t *testing.T) {
	m, err := wgsl.Parse("k.wgsl", []byte("fn k(a: u32, b: u32) -> u32 {\n  if (b == 0u) {\n    return a;\n  }\n  return a % b;\n}\n"))
	require.NoError(t, err)
	args := [][]ir.Value{{ir.U32Val(9), ir.U32Val(4)}, {ir.U32Val(9), ir.U32Val(0)}}
	rec := &testcase.CaseRecord{Format: testcase.CaseFormat, Kernel: "k", Invocations: 2, Inputs: testcase.InputsJSON(m.Func("k"), args),
		Verdict: "mismatch", Hash: "0123456789abcdef", Mode: "raw", Flat: true, SPIRV: true,
		Seed: &testcase.SeedInfo{Campaign: 4, Index: 11, Program: 0x1234, Size: 30, Profile: "default"}}
	path := filepath.Join(t.TempDir(), "case.wgsl")
	require.NoError(t, testcase.WriteCase(path, m, rec))

	out := filepath.Join(t.TempDir(), "case.amber")
	code, _, errOut := gpudiffMine(t, "export-amber", path, "--flat", "-o", out)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	s := string(data)
	for _, want := range []string{
		"function k_flat (the flattened twin of k), 2 invocations, raw mode\n",
		"# recorded verdict: mismatch\n",
		"# seed: program 11 of campaign seed 4 (program seed 0x1234, size 30, profile default)\n",
		"EXPECT out IDX 0 EQ 1\n", // 9 % 4
		"EXPECT out IDX 4 EQ 9\n", // b == 0 returns a
	} {
		assert.Contains(t, s, want)
	}
	assert.NotContains(t, s, "gpudiff-case", "the record is not quoted as source")
}

func TestExportAmberUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export-amber"}, "accepts 1 arg"},
		{[]string{"export-amber", "does-not-exist.wgsl"}, "does-not-exist.wgsl"},
		{[]string{"export-amber", repo("shaders/conformance/div_by_zero_i32.wgsl"), "--mode", "fast"}, "--mode"},
		{[]string{"export-amber", repo("shaders/conformance/div_by_zero_i32.wgsl"), "--only", "99"}, "--only"},
		{[]string{"export-amber", repo("shaders/conformance/div_by_zero_i32.wgsl"), "--kernel", "nope"}, "nope"},
	} {
		code, _, errOut := gpudiffMine(t, c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.want, "%v", c.args)
	}
}
