package flatten_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// Unrolling a loop over ldexp's exponent must not fold an exponent past
// 128 into a literal: ldexp(e1, e2) with a constant e2 > bias + 1 is a
// shader-creation error (WGSL #ldexp-builtin; Tint refuses "e2 must be
// less than or equal to 128"), where the original's run-time exponent is
// fine. Iterations 126 to 128 fold; 129 keeps its exponent at run time.
func TestUnrolledLdexpKeepsABadExponentAtRunTime(t *testing.T) {
	m := parse(t, `fn ldloop(x: f32) -> f32 {
    var acc = 0.0;
    for (var i = 126; i < 130; i++) {
        if (x > 0.0) {
            acc += ldexp(x, i);
        }
    }
    return acc;
}
`)
	tw, err := flatten.Function(m, "ldloop", flatten.Options{})
	require.NoError(t, err)
	text := ir.PrintFunc(tw)
	for _, e := range []string{"126", "127", "128"} {
		assert.Contains(t, text, "ldexp(x, "+e+"i)", "iteration %s folds", e)
	}
	assert.NotRegexp(t, regexp.MustCompile(`ldexp\([^)]*, 129i\)`), text, "no constant exponent past 128")
}
