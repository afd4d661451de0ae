package wgsl

import (
	"testing"

	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBreakIfSeesContinuingDeclarations: `break if` is the last statement
// of the continuing block, so its condition names the continuing block's
// own declarations (WGSL #continuing-statement). Regression: naga's
// break-if.wgsl (`continuing { var c = …; break if a == c; }`) was an
// internal error ("normalized IR does not verify: var c is not declared
// in scope"), and the renamer resolved the break-if's names after
// leaving the continuing block's scope, so a continuing declaration that
// shadows an outer one made the break-if read the outer one.
func TestBreakIfSeesContinuingDeclarations(t *testing.T) {
	tests := []struct {
		name, src string
		arg, want int32
	}{
		// The break-if reads a var declared in the continuing block; the
		// loop runs once (c = a != a is false, a == c is a == false).
		{"continuing var", `fn f(x: i32) -> i32 {
  var n = 0;
  let a = x > 0;
  loop {
    n++;
    continuing {
      var b = a;
      var c = a != b;
      break if a == c;
    }
  }
  return n;
}`, 0, 1},
		// The continuing block's c shadows the function's c (true): reading
		// the outer one would exit after 1 iteration, the right one after 3.
		{"continuing let shadows an outer let", `fn f(x: i32) -> i32 {
  let c = true;
  var n = x;
  loop {
    n++;
    continuing {
      let c = n >= 3;
      break if c;
    }
  }
  return n;
}`, 0, 3},
		// A declaration of the body is visible in the break-if too.
		{"body let", `fn f(x: i32) -> i32 {
  var n = x;
  loop {
    n++;
    let d = n >= 4;
    continuing {
      break if d;
    }
  }
  return n;
}`, 1, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse("breakif.wgsl", []byte(tc.src))
			require.NoError(t, err)
			require.NoError(t, ir.Verify(m))
			res, err := interp.Run(m, "f", [][]ir.Value{{ir.I32Val(tc.arg)}}, interp.Options{})
			require.NoError(t, err)
			require.Len(t, res, 1)
			require.NoError(t, res[0].Err)
			assert.Equal(t, tc.want, res[0].Outputs[0].Value.I32())
		})
	}
}
