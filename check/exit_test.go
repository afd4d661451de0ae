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

// EmitStage takes compute and fragment only.
func TestEmitStage(t *testing.T) {
	f, err := EmitStage("compute")
	assert.NoError(t, err)
	assert.False(t, f)
	f, err = EmitStage("fragment")
	assert.NoError(t, err)
	assert.True(t, f)
	_, err = EmitStage("both")
	assert.EqualError(t, err, `--stage must be compute or fragment, got "both"`)
}
