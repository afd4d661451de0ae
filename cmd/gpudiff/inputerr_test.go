package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/ir"
)

// TestInputErrKeepsFlattenBugsInternal: flatten's refusal of the input is
// an input error (exit 2), its own internal error ("twin … does not
// verify") a gpudiff bug (exit 3, README "Exit codes"); before, both
// exited 2.
func TestInputErrKeepsFlattenBugsInternal(t *testing.T) {
	diag := ir.ErrorList{ir.Errorf("k.wgsl", ir.Pos{Line: 3, Col: 1}, "flatten", "x")}
	for _, c := range []struct {
		kind flatten.Kind
		code int
	}{{flatten.Refused, exitUsage}, {flatten.Internal, exitInternal}} {
		err := inputErr(fmt.Errorf("wrapped: %w", &flatten.Error{Kind: c.kind, List: diag}))
		var ee *exitError
		assert.ErrorAs(t, err, &ee)
		assert.Equal(t, c.code, ee.code, "kind %v", c.kind)
	}
}
