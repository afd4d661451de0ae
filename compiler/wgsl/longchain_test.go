package wgsl

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// Long left-associative chains (issue 38 item 5b): `x + x + … + x` with
// 1,200 terms was refused by the parser's nesting limit, each operator
// counting as a level. A chain is parsed in a loop and enters no level
// (pMaxChain bounds it instead); parentheses, unary operators and calls
// keep the nesting limit.

// lcChain is first followed by n-1 copies of each element of rest in
// turn: lcChain("x", 4, " + x", " - 1") is "x + x - 1 + x".
func lcChain(first string, n int, rest ...string) string {
	var b strings.Builder
	b.WriteString(first)
	for i := 1; i < n; i++ {
		b.WriteString(rest[(i-1)%len(rest)])
	}
	return b.String()
}

// lcKernels are kernels over one long chain each, with their values by
// hand (WGSL #arithmetic-expr: i32 + - * wrap modulo 2^32; #bit-expr;
// #logical-expr: && short-circuits).
var lcKernels = []struct {
	name, src string
	args      []int32
	want      []int32
}{
	// 1200 terms of x: 1200x, wrapping (1200 * 2147483647 mod 2^32 is
	// -1200, 1200 * -2147483648 is 0 since 1200 is a multiple of 2^4 and
	// 2^31 * 16 = 2^35).
	{"x + x + … + x", "fn k(x: i32) -> i32 {\n  return " + lcChain("x", 1200, " + x") + ";\n}\n",
		[]int32{0, 1, -1, 3, 2147483647, -2147483648}, []int32{0, 1200, -1200, 3600, -1200, 0}},
	// x, then 400 groups of + x * 3 - x - 2 (1201 additive terms, 1200
	// operators, and a * inside every third term): x + 400 * (3x - x - 2)
	// = 801x - 800.
	{"mixed + and -, * inside", "fn k(x: i32) -> i32 {\n  return " + lcChain("x", 1201, " + x * 3", " - x", " - 2") + ";\n}\n",
		[]int32{0, 1, 5, -7}, []int32{-800, 1, 3205, -6407}},
	// 1200 factors: x^1200, wrapping: 1, 0 (2^1200 mod 2^32), 1 (-1 to an
	// even power).
	{"x * x * … * x", "fn k(x: i32) -> i32 {\n  return " + lcChain("x", 1200, " * x") + ";\n}\n",
		[]int32{1, 2, -1, 0}, []int32{1, 0, 1, 0}},
	// x & (x | 3) & … with 1200 operands: x & (x | 3) is x; x ^ x ^ …
	// (1200 operands, an even count) is 0.
	{"x & (x | 3) & …", "fn k(x: i32) -> i32 {\n  return " + lcChain("x", 1200, " & (x | 3)") + ";\n}\n",
		[]int32{0, 5, -1}, []int32{0, 5, -1}},
	{"x ^ x ^ … ^ x", "fn k(x: i32) -> i32 {\n  return " + lcChain("x", 1200, " ^ x") + ";\n}\n",
		[]int32{0, 5, -1}, []int32{0, 0, 0}},
	// x > 0 && x > 1 && … && x > 1199: true for x >= 1200 only.
	{"x > 0 && x > 1 && …", "fn k(x: i32) -> i32 {\n  return select(0, 1, " + lcGreaterChain(1200) + ");\n}\n",
		[]int32{1200, 1199, 0, -5, 5000}, []int32{1, 0, 0, 0, 1}},
}

// lcGreaterChain is x > 0 && x > 1 && … && x > n-1.
func lcGreaterChain(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("x > %d", i)
	}
	return strings.Join(parts, " && ")
}

// TestLongChainsParseAndEvaluate: each 1,200-term chain parses, lowers to
// a left-leaning tree and evaluates in the reference to the value derived
// by hand; the canonical printer spells it without a parenthesis per term
// and round-trips; flatten's twin evaluates to the same values.
func TestLongChainsParseAndEvaluate(t *testing.T) {
	for _, c := range lcKernels {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse("chain.wgsl", []byte(c.src))
			require.NoError(t, err)
			f, err := Kernel(m, "k")
			require.NoError(t, err)
			require.NoError(t, ir.Verify(m))

			printed := ir.Print(m)
			assert.NotContains(t, printed, "((", "a parenthesis per term:\n%.400s", printed)
			m2, err := Parse("printed.wgsl", []byte(printed))
			require.NoError(t, err, "the printed module does not parse again")
			assert.Equal(t, printed, ir.Print(m2), "the printed module does not round-trip")

			args := make([][]ir.Value, len(c.args))
			for i, a := range c.args {
				args[i] = []ir.Value{ir.I32Val(a)}
			}
			lcRequireValues(t, m, f.Name, args, c.want)

			require.NoError(t, flatten.Module(m, flatten.Options{}))
			require.NoError(t, ir.Verify(m))
			lcRequireValues(t, m, flatten.TwinName(m, "k"), args, c.want)
		})
	}
}

// lcRequireValues runs kernel in the reference and compares its results
// with want.
func lcRequireValues(t *testing.T, m *ir.Module, kernel string, args [][]ir.Value, want []int32) {
	t.Helper()
	if m.Func(kernel) == nil {
		// flatten names the twin k_flat; TwinName asked after Module
		// returns the next free name.
		kernel = "k_flat"
	}
	res, err := interp.Run(m, kernel, args, interp.Options{})
	require.NoError(t, err)
	require.Len(t, res, len(want))
	for i, r := range res {
		require.NoError(t, r.Err)
		assert.Equal(t, want[i], r.Outputs[0].Value.I32(), "%s(%v)", kernel, args[i][0])
	}
}

// TestLongChainsRunOnLavapipe: the emitted WGSL of a 1,200-term chain
// spells it without a parenthesis per term, naga accepts it and lavapipe
// computes the reference's values, and so does gpudiff's SPIR-V. Tint
// refuses any expression tree deeper than 512 (its resolver's
// kMaxExpressionDepth, whatever the parentheses: a chain of n terms is a
// tree n-1 deep), a gap checked here so that it is noticed when it closes.
func TestLongChainsRunOnLavapipe(t *testing.T) {
	c := lcKernels[1]
	m, err := Parse("chain.wgsl", []byte(c.src))
	require.NoError(t, err)
	require.NoError(t, ir.Verify(m))
	args := make([][]ir.Value, len(c.args))
	for i, a := range c.args {
		args[i] = []ir.Value{ir.I32Val(a)}
	}

	fns, err := EmitFunctions(m, "k", EmitOptions{})
	require.NoError(t, err)
	assert.Contains(t, fns, "return x + x * 3i - x - 2i + x * 3i - x - 2i + ", "%.300s", fns)
	assert.NotContains(t, fns, "((", "%.300s", fns)

	for _, mode := range []Mode{Portable, Raw} {
		got := runGPU(t, m, "k", mode, args)
		for i, w := range c.want {
			assert.Equal(t, w, got[i][0].I32(), "%s wgsl: k(%d)", mode, c.args[i])
		}
	}

	words, err := spirv.Emit(m, "k", spirv.Options{})
	require.NoError(t, err)
	abi, err := ir.NewKernelABI(m, "k")
	require.NoError(t, err)
	in, err := abi.EncodeInputs(args)
	require.NoError(t, err)
	out, err := gpu(t).Run(context.Background(), harness.Kernel{SPIRV: words, EntryPoint: spirv.EntryPoint},
		harness.Dispatch{Input: in, OutputSize: len(args) * abi.OutputStride, Invocations: len(args)})
	require.NoError(t, err)
	vals, err := abi.DecodeOutputs(out, len(args))
	require.NoError(t, err)
	for i, w := range c.want {
		assert.Equal(t, w, vals[i][0].I32(), "spirv: k(%d)", c.args[i])
	}

	src, _, err := Emit(m, "k", EmitOptions{})
	require.NoError(t, err)
	tint := ptTintCheck(t)
	ptRequireAccepts(t, tint, ptGaps{ptTint: "reached max expression depth of 512"}, tint.check(t, src)[0], src)
}

// TestChainsAreBoundedNotNested: a chain enters no nesting level, so a
// 10,000-term chain is accepted and a chain ahead of deep parentheses
// does not move where the nesting limit is met (the return statement and
// its expression are the first two levels, so the expression after the
// 999th '(' of a return value is the 1,001st); pMaxChain operators in one expression are
// accepted, one more is refused at that operator, positioned.
func TestChainsAreBoundedNotNested(t *testing.T) {
	src := "fn f(x: i32) -> i32 {\n  return " + lcChain("x", 10000, " + x", " - x", " * x", " / x") + ";\n}\n"
	m, err := Parse("long.wgsl", []byte(src))
	require.NoError(t, err)
	require.NotNil(t, m.Func("f"))

	// 1,200 chained terms, then 1,000 parentheses: refused at the
	// 1,000th parenthesis, line 2.
	chain := lcChain("x", 1200, " + x")
	src = "fn f(x: i32) -> i32 {\n  return " + chain + " + " + strings.Repeat("(", 1000) + "x" + strings.Repeat(")", 1000) + ";\n}\n"
	_, err = Parse("deep.wgsl", []byte(src))
	require.Error(t, err)
	col := len("  return "+chain+" + ") + 999 + 1
	assert.Contains(t, err.Error(), fmt.Sprintf("deep.wgsl:2:%d: parse: expressions and statements may nest at most 1000 levels deep", col))
	// 998 parentheses are fine.
	src = "fn f(x: i32) -> i32 {\n  return " + chain + " + " + strings.Repeat("(", 998) + "x" + strings.Repeat(")", 998) + ";\n}\n"
	_, err = Parse("deep.wgsl", []byte(src))
	require.NoError(t, err)

	// A right-leaning chain in parentheses nests: x + (x + (x + …)).
	src = "fn f(x: i32) -> i32 {\n  return " + strings.Repeat("x + (", 1000) + "x" + strings.Repeat(")", 1000) + ";\n}\n"
	_, err = Parse("deep.wgsl", []byte(src))
	require.Error(t, err)
	col = len("  return ") + 999*len("x + (") + 1
	assert.Contains(t, err.Error(), fmt.Sprintf("deep.wgsl:2:%d: parse: expressions and statements may nest at most 1000 levels deep", col))

	// pMaxChain operators, then one more, across nested chains of one
	// outermost expression.
	head := "fn f() -> i32 {\n  return (" + lcChain("1", pMaxChain/2+1, "+1") + ")"
	src = head + lcChain("", pMaxChain/2+1, "*1") + ";\n}\n"
	_, err = Parse("chain.wgsl", []byte(src))
	require.NoError(t, err)
	src = head + lcChain("", pMaxChain/2+2, "*1") + ";\n}\n"
	_, err = Parse("chain.wgsl", []byte(src))
	require.Error(t, err)
	col = len(head) - len("fn f() -> i32 {\n") + 2*(pMaxChain/2) + 1
	assert.Contains(t, err.Error(), fmt.Sprintf("chain.wgsl:2:%d: parse: an expression may chain at most %d binary operators", col, pMaxChain))
	// Each outermost expression has its own count.
	src = "fn f() -> i32 {\n  let a = " + lcChain("1", pMaxChain/2+2, "+1") + ";\n  return " + lcChain("a", pMaxChain/2+2, "+1") + ";\n}\n"
	_, err = Parse("chain.wgsl", []byte(src))
	require.NoError(t, err)
}
