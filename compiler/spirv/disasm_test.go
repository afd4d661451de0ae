package spirv

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

type namedModule struct {
	name   string
	m      *ir.Module
	kernel string
}

// testCorpus is every hand-built module of the tests, for checks that
// apply to all of them.
func testCorpus() []namedModule {
	out := []namedModule{
		{"nested ifs", nestedIfs(), "k"},
		{"odd sum", oddSum(), "k"},
		{"break if", breakIfSum(), "k"},
		{"switch in loop", switchInLoop(), "k"},
		{"early return", earlyReturn(), "k"},
		{"short circuit", shortCircuitIndex(), "k"},
		{"nested loops", nestedLoops(), "k"},
		{"helper calls", helperCalls(), "k"},
		{"dead code", deadAfterBlock(), "k"},
	}
	cm, _, _ := compositeModule()
	out = append(out, namedModule{"composites", cm, "k"})
	for b := ir.BAbs; b <= ir.BAny; b++ {
		for i, sig := range builtinSignatures(b) {
			m := phonyKernel(sig, []func([]ir.Expr) ir.Expr{func(ps []ir.Expr) ir.Expr { return bi(b, ps...) }})
			out = append(out, namedModule{fmt.Sprintf("%v#%d", b, i), m, "k"})
		}
	}
	return out
}

// spirvDis runs `spirv-dis --raw-id` on words.
func spirvDis(t testing.TB, words []uint32) string {
	t.Helper()
	return runSpirvDis(t, words, "--raw-id")
}

// runSpirvDis runs spirv-dis --no-color with flags on words (without
// --raw-id: friendly names, %uint_64, %_ptr_Workgroup_uint).
func runSpirvDis(t testing.TB, words []uint32, flags ...string) string {
	t.Helper()
	out, err := exec.Command(tool(t, "spirv-dis"), append(append(flags, "--no-color"), writeBinary(t, words))...).CombinedOutput()
	require.NoError(t, err, "spirv-dis: %s", out)
	return string(out)
}

var opcodeRE = regexp.MustCompile(`\bOp[A-Za-z0-9]+`)

// opcodeSequence is the first Op… word of each instruction line.
func opcodeSequence(text string) []string {
	var ops []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, ";") {
			continue
		}
		if op := opcodeRE.FindString(line); op != "" {
			ops = append(ops, op)
		}
	}
	return ops
}

// TestDisassembleMatchesSpirvDis cross-checks our disassembler (tables
// generated from the grammar) against spirv-dis --raw-id on every test
// module in both modes: the opcode sequences must agree, and so must the
// full text (header, operands, enumerant names, literals, alignment).
func TestDisassembleMatchesSpirvDis(t *testing.T) {
	for _, c := range testCorpus() {
		for _, o := range bothModes {
			words, err := Emit(c.m, c.kernel, o)
			require.NoError(t, err, c.name)
			ours, err := Disassemble(words)
			require.NoError(t, err, c.name)
			theirs := spirvDis(t, words)
			require.Equal(t, opcodeSequence(theirs), opcodeSequence(ours), "%s (%s): opcode sequence", c.name, o.Mode)
			assert.Equal(t, theirs, ours, "%s (%s): text", c.name, o.Mode)
		}
	}
}

// TestDisassembleLiterals checks the literal forms against spirv-dis on
// a module assembled by spirv-as: floats (normal, negative zero,
// subnormal, infinity, NaN), signed switch literals, strings with quotes,
// bit masks with parameters, and 64-bit constants.
func TestDisassembleLiterals(t *testing.T) {
	src := `OpCapability Shader
OpCapability Float64
OpCapability Int64
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 8 1 1
OpName %main "a \"quoted\" \\ name"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpTypeFloat 32
%d = OpTypeFloat 64
%i = OpTypeInt 32 1
%l = OpTypeInt 64 1
%c1 = OpConstant %f 0.1
%c2 = OpConstant %f -0.0
%c3 = OpConstant %f 0x1p-140
%c4 = OpConstant %f 0x1p+128
%c5 = OpConstant %f -0x1.8p+128
%c6 = OpConstant %f 3e9
%c7 = OpConstant %d 0.1
%c8 = OpConstant %l -5000000000
%c9 = OpConstant %i -7
%c10 = OpConstant %f 0x1.2p-130
%pf = OpTypePointer Function %f
%main = OpFunction %void None %fn
%e = OpLabel
%v = OpVariable %pf Function
%x = OpExtInst %f %glsl FClamp %c1 %c2 %c6
OpStore %v %x Volatile|Aligned 4
OpSelectionMerge %m None
OpSwitch %c9 %m -7 %a 2147483647 %m
%a = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
`
	dir := t.TempDir()
	in, out := dir+"/lit.spvasm", dir+"/lit.spv"
	require.NoError(t, writeFile(in, src))
	msg, err := exec.Command(tool(t, "spirv-as"), "--target-env", "vulkan1.1", "-o", out, in).CombinedOutput()
	require.NoError(t, err, "spirv-as: %s", msg)
	words := readBinary(t, out)
	ours, err := Disassemble(words)
	require.NoError(t, err)
	assert.Equal(t, spirvDis(t, words), ours)
}

func TestDisassembleRejectsMalformed(t *testing.T) {
	words, err := Emit(nestedIfs(), "k", DefaultOptions())
	require.NoError(t, err)
	cases := map[string][]uint32{
		"empty":           nil,
		"bad magic":       append([]uint32{0xdeadbeef}, words[1:]...),
		"short header":    words[:3],
		"overrun":         append(append([]uint32{}, words...), 5<<16|uint32(opNop), 0),
		"missing operand": append(append([]uint32{}, words...), 1<<16|uint32(opName)),
		"extra operand":   append(append([]uint32{}, words...), 2<<16|uint32(opReturn), 7),
		"unknown opcode":  append(append([]uint32{}, words...), 1<<16|0xfff0),
		"zero length":     append(append([]uint32{}, words...), 0),
	}
	for name, w := range cases {
		_, err := Disassemble(w)
		assert.Error(t, err, name)
	}
}
