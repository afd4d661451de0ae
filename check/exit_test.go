package check

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/oracle"
)

// ExitOf: flatten's refusal comes first, then each verdict's class.
func TestExitOf(t *testing.T) {
	assert.Equal(t, ExitFlatten, ExitOf(oracle.Pass, errors.New("no twin")))
	for v, want := range map[oracle.Verdict]Exit{
		oracle.Pass: ExitPass, oracle.Mismatch: ExitFound, oracle.Crash: ExitFound, oracle.Timeout: ExitFound,
		oracle.Race: ExitShader, oracle.OutOfDomain: ExitShader, oracle.Verdict("no outputs"): ExitNoOutputs,
	} {
		assert.Equal(t, want, ExitOf(v, nil), v)
	}
}
