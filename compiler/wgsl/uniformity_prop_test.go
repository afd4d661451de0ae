package wgsl_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/harness/dawn"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/require"
)

// ptInsertBarrier inserts `workgroupBarrier();` into the pick-th block of
// the program (counting blocks of all functions in order), before the
// statement at index pick mod (len+1) (never after a jump).
func ptInsertBarrier(m *ir.Module, pick int) {
	var blocks []*ir.Block
	for _, f := range m.Funcs {
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if b, ok := n.(*ir.Block); ok {
				blocks = append(blocks, b)
			}
			return true
		})
	}
	b := blocks[pick%len(blocks)]
	i := pick % (len(b.Stmts) + 1)
	if i == len(b.Stmts) && i > 0 && ir.IsJump(b.Stmts[i-1]) {
		i--
	}
	call := &ir.ExprStmt{X: &ir.BuiltinCall{Fn: ir.BWorkgroupBarrier, T: ir.Void}}
	b.Stmts = append(b.Stmts[:i], append([]ir.Stmt{call}, b.Stmts[i:]...)...)
}

// TestUniformityAgreesWithTint is a differential property: a
// workgroupBarrier inserted anywhere in a generated program (loops,
// switches, early returns, private globals, helper calls) is accepted by
// gpudiff's uniformity analysis exactly when Tint (a dawn.Validator)
// accepts it.
func TestUniformityAgreesWithTint(t *testing.T) {
	tint, err := dawn.OpenValidator()
	if errors.Is(err, dawn.ErrNotInstalled) {
		t.Fatalf("Tint (Dawn's node binding: node and the npm package webgpu) not found: run make deps (%v)", err)
	}
	require.NoError(t, err)
	defer tint.Close()
	params := gopter.DefaultTestParametersWithSeed(99)
	params.MinSuccessfulTests = 120
	properties := gopter.NewProperties(params)
	arb := gopter.CombineGens(gen.Gen(gen.Config{}), gopter.Gen(func(p *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(int(p.NextUint64()%1000), gopter.NoShrinker)
	}))
	properties.Property("barrier placement is accepted iff Tint accepts it", prop.ForAll(func(v []interface{}) string {
		p, pick := v[0].(*gen.Program), v[1].(int)
		if p.OutsideSubset == gen.OutsideRecursion {
			return ""
		}
		m := ir.CloneModule(p.Module)
		ptInsertBarrier(m, pick)
		src := ir.Print(m)
		_, err := wgsl.Parse("u.wgsl", []byte(src))
		verdicts, werr := tint.CompileWGSL(context.Background(), src)
		if werr != nil {
			return "tint's worker: " + werr.Error()
		}
		if (err == nil) != (verdicts[0] == nil) {
			return fmt.Sprintf("gpudiff: %v\ntint: %v\n%s", err, verdicts[0], src)
		}
		return ""
	}, arb))
	properties.TestingRun(t)
}
