package crosscheck

import (
	"errors"
	"os/exec"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

var bothModes = []spirv.Options{{Mode: spirv.Portable, DebugNames: true}, {Mode: spirv.Raw}}

// tool returns the path of a spirv-tools binary; a missing tool fails the
// test (it is never skipped).
func tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found: install spirv-tools (make deps)", name)
	}
	return p
}

var (
	lavapipeOnce sync.Once
	lavapipe     *harness.Device
	lavapipeErr  error
)

// gpu returns the lavapipe device, failing the test with an install hint
// when it is missing.
func gpu(t testing.TB) *harness.Device {
	t.Helper()
	lavapipeOnce.Do(func() { lavapipe, lavapipeErr = harness.Open("vulkan:llvmpipe") })
	require.NoError(t, lavapipeErr, "lavapipe (Vulkan on llvmpipe) is needed: install mesa-vulkan-drivers (make deps)")
	return lavapipe
}

func firstError(t *testing.T, err error) *ir.Error {
	t.Helper()
	require.Error(t, err)
	var list ir.ErrorList
	if errors.As(err, &list) {
		require.NotEmpty(t, list)
		return list[0]
	}
	var e *ir.Error
	require.True(t, errors.As(err, &e), "error %T is not an ir.Error/ErrorList: %v", err, err)
	return e
}
