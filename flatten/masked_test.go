package flatten_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// TestKeptLoops flattens loops flatten cannot unroll and checks, by hand
// derivation, the twin's results and the loop kinds, and that each kept-
// loop fault (Options.Fault) changes a result the derivation fixes.
func TestKeptLoops(t *testing.T) {
	tests := []struct {
		name, src string
		kind      string // what OnLoop reports
		args      []int32
		want      []int32
		fault     string // a fault that changes want
	}{
		// A do-while: the body runs once even for n <= 0 (s = 1), then
		// until n counts down to 0: s = max(n, 1).
		{"do-while with break-if", `fn k(n0: i32) -> i32 {
  var n = n0;
  var s = 0;
  loop {
    s += 1;
    continuing { n -= 1; break if n <= 0; }
  }
  return s;
}`, "masked", []int32{-2, 0, 1, 3}, []int32{1, 1, 1, 3}, "masked-exit-first"},
		// The first multiple of 7 at or above n, found by a while with a
		// break: 0 -> 0, 1 -> 7, 8 -> 14, 14 -> 14. With the break taking
		// effect only at the end of the iteration, i is incremented once
		// more after the break.
		{"while with break", `fn k(n: i32) -> i32 {
  var i = n;
  while (true) {
    if (i % 7 == 0) { break; }
    i += 1;
  }
  return i;
}`, "masked", []int32{0, 1, 8, 14}, []int32{0, 7, 14, 14}, "masked-break-late"},
		// A loop whose exit reads only a constant and a counter from a
		// constant, past the unroll cap: uniform. sum 0..99 of x = 100x.
		{"constant loop past the cap", `fn k(x: i32) -> i32 {
  var s = 0;
  for (var i = 0; i < 100; i++) { s += x; }
  return s;
}`, "uniform", []int32{0, 1, -3}, []int32{0, 100, -300}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := func(fault string) []int32 {
				m := parse(t, tc.src)
				var kinds []string
				twin, err := flatten.Function(m, "k", flatten.Options{MaxUnroll: 50, Strict: fault == "", VerifyPasses: true, Fault: fault,
					OnLoop: func(_ ir.Pos, k string) { kinds = append(kinds, k) }})
				require.NoError(t, err)
				if fault == "" {
					assert.Equal(t, []string{tc.kind}, kinds)
				}
				var args [][]ir.Value
				for _, a := range tc.args {
					args = append(args, []ir.Value{ir.I32Val(a)})
				}
				res, err := interp.Run(m, twin.Name, args, interp.Options{})
				require.NoError(t, err)
				var got []int32
				for _, r := range res {
					require.NoError(t, r.Err)
					got = append(got, int32(r.Outputs[0].Value.Bits))
				}
				return got
			}
			assert.Equal(t, tc.want, run(""))
			if tc.fault != "" {
				assert.NotEqual(t, tc.want, run(tc.fault), "fault %s changes no result", tc.fault)
			}
		})
	}
}
