package harness

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// The adapters every machine has after `make deps`, GPU or not.
const (
	lavapipe    = "wgpu-vulkan:llvmpipe"
	swiftshader = "wgpu-vulkan:swiftshader"
	glLLVMpipe  = "wgpu-gl:llvmpipe"
)

var cpuAdapters = []string{lavapipe, swiftshader, glLLVMpipe}

// installHint says how to get the CPU adapters.
const installHint = "install the CPU adapters with `make deps` " +
	"(mesa-vulkan-drivers for lavapipe, chromium for SwiftShader, libegl-mesa0 and libgl1-mesa-dri for GL)"

// openDevice opens the named adapter for the test and closes it at cleanup.
// A missing adapter fails the test: the harness must be tested on real
// adapters.
func openDevice(t testing.TB, name string) *Device {
	t.Helper()
	d, err := Open(name)
	var unknown *UnknownAdapterError
	if errors.As(err, &unknown) {
		t.Fatalf("adapter %s not found (have %v): %s", name, unknown.Available, installHint)
	}
	require.NoError(t, err)
	t.Cleanup(d.Close)
	return d
}

// le encodes words as little-endian bytes, the layout of array<u32> in a
// storage buffer.
func le(words ...uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// words decodes little-endian bytes into words; len(b) must be a multiple
// of 4.
func words(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// iota32 returns 0, 1, ..., n-1.
func iota32(n int) []uint32 {
	w := make([]uint32, n)
	for i := range w {
		w[i] = uint32(i)
	}
	return w
}
