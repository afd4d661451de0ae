package flatten_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// TestStrictAcceptsRunTimeOperandsKept: a compound assignment whose
// operand would fold to a constant zero divisor or a shift count ≥ 32
// keeps its run-time form (a shader-creation error otherwise, WGSL
// #arithmetic-expr, #bit-expr), and Strict does not call that a residual;
// the cleanup does not count the fold it undid as a change either (it
// used to run all its rounds). The render programs met both (a vertex
// stage's `g1.y /= u32(bool(ii) & false)`, a helper's `g0 <<=
// select(3663440434u, select(1u, u32(g0) % 16u, false), false)`). By
// hand: x is 9 where c holds, else 7; x / 0 is x (WGSL: an integer
// divided by zero is its left operand); the shift count is 3663440434
// mod 32 = 18, so x << 18 is 9 · 2¹⁸ = 2359296 or 7 · 2¹⁸ = 1835008.
func TestStrictAcceptsRunTimeOperandsKept(t *testing.T) {
	for _, tc := range []struct {
		name, src, kept string
		want            [2]uint32 // c false, c true
	}{
		{"zero divisor", `fn k(b: bool, c: bool) -> u32 {
  var x = 7u;
  if (c) { x = 9u; }
  x /= u32(b & false);
  return x;
}`, "x /= u32(b & false);", [2]uint32{7, 9}},
		{"shift count", `fn k(b: bool, c: bool) -> u32 {
  var x = 7u;
  if (c) { x = 9u; }
  x <<= select(3663440434u, select(1u, u32(b) % 16u, false), false);
  return x;
}`, "x <<= select(3663440434u, select(1u, u32(b) % 16u, false), false);", [2]uint32{1835008, 2359296}},
		// The fold's result is the select's own arm, 724u, a node of the
		// operand given back. 724 mod 32 = 20: 7 · 2²⁰ = 7340032,
		// 9 · 2²⁰ = 9437184.
		{"shift count, an arm", `fn k(b: bool, c: bool) -> u32 {
  var x = 7u;
  if (c) { x = 9u; }
  x <<= select(724u, u32(b) ^ 16u, false);
  return x;
}`, "x <<= select(724u, u32(b) ^ 16u, false);", [2]uint32{7340032, 9437184}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := parse(t, tc.src)
			folds := 0
			twin, err := flatten.Function(m, "k", flatten.Options{Strict: true, VerifyPasses: true, AfterPass: func(pass string, _ *ir.Func) {
				if pass == "fold" {
					folds++
				}
			}})
			require.NoError(t, err)
			assert.Contains(t, ir.PrintFunc(twin), tc.kept)
			assert.Less(t, folds, 8, "the fold it undid is no change")
			for _, name := range []string{"k", twin.Name} {
				for ci, c := range []bool{false, true} {
					for _, b := range []bool{false, true} {
						inv, err := interp.Run(m, name, [][]ir.Value{{ir.BoolVal(b), ir.BoolVal(c)}}, interp.Options{})
						require.NoError(t, err)
						assert.Equal(t, tc.want[ci], inv[0].Outputs[0].Value.U32(), "%s(b=%v, c=%v)", name, b, c)
					}
				}
			}
		})
	}
}
