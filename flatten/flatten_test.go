package flatten_test

import (
	"testing"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flat flattens name in m with pass-by-pass verification and returns the
// twin's canonical text.
func flat(t *testing.T, m *ir.Module, name string, opts flatten.Options) string {
	t.Helper()
	require.NoError(t, ir.Normalize(m))
	opts.VerifyPasses = true
	opts.Strict = true
	twin, err := flatten.Function(m, name, opts)
	require.NoError(t, err)
	require.NoError(t, ir.Verify(m))
	return ir.PrintFunc(twin)
}

// TestShadeIsOneSelect is the reference's §8.1 example and the issue's
// acceptance: the twin's body is a single select.
func TestShadeIsOneSelect(t *testing.T) {
	x := prm("x", ir.F32)
	m := module(fn("shade", ir.F32, params("x", ir.F32),
		iff(bin(ir.OpGt, x, lf(0.5)), blk(ret(bin(ir.OpMul, x, lf(2))))),
		ret(x)))
	got := flat(t, m, "shade", flatten.Options{})
	assert.Equal(t, "fn shade_flat(x: f32) -> f32 {\n  return select(x, x * 2.0f, x > 0.5f);\n}\n", got)
}
