package check

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// TestExecuteEntryStopsOnItsContext: a case whose context has ended
// returns an error wrapping the cancellation cause (the caller maps a
// signal to its exit status) rather than a result, whether it ends
// before the dispatch or, for a context that ends later, from inside the
// reference (interp.Options.Context) — never a report of a run cut short.
func TestExecuteEntryStopsOnItsContext(t *testing.T) {
	m, err := wgsl.Parse("stop.wgsl", []byte(loopEntry))
	require.NoError(t, err)
	cause := errors.New("test cause")
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(cause)
	_, err = Execute(ctx, (&testcase.ComputeCase{Module: m, Entry: "main", Workgroups: [3]uint32{1, 1, 1}}).Case(), Options{})
	require.ErrorIs(t, err, cause)
}
