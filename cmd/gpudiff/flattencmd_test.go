package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFlattenDumpAfter: --dump-after PASS prints the twin as that pass
// left it to standard error (the module still goes to standard output),
// --verify-passes runs clean on a corpus example, and an unknown pass is
// a usage error that lists the passes.
func TestFlattenDumpAfter(t *testing.T) {
	code, stdout, stderr := gpudiff(t, "flatten", repo("shaders/examples/shade.wgsl"), "--verify-passes", "--dump-after", "lower")
	assert.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasPrefix(stderr, "// after lower:\nfn shade_flat("), stderr)
	// Lowering binds the return value and the live mask before the
	// cleanup passes fold them away (shade returns x*2 where x > 0.5,
	// else x: the finished twin is one select).
	assert.Contains(t, stderr, "let live: bool = !cond;")
	assert.NotContains(t, stdout, "let live")
	assert.Contains(t, stdout, "fn shade_flat(")

	code, _, stderr = gpudiff(t, "flatten", repo("shaders/examples/shade.wgsl"), "--dump-after", "gvn")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `no pass "gvn" (passes: all, precheck, lower, fold,`)
}
