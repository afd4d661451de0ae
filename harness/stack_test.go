package harness

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lcg is spinWGSL's loop in Go: n rounds of acc = acc*1664525 + 1013904223
// (mod 2^32) from acc.
func lcg(n, acc uint32) uint32 {
	for range n {
		acc = acc*1664525 + 1013904223
	}
	return acc
}

// TestLLVMpipeStopsLoopsAfter65535Iterations pins the stack behaviour that
// the package doc warns about: llvmpipe ends a loop after 65535 iterations
// without an error and runs on, so the kernel returns a wrong value, while
// SwiftShader loops as told. If this fails, Mesa changed and the warning (and
// whatever the fuzzer does about it) should change too.
func TestLLVMpipeStopsLoopsAfter65535Iterations(t *testing.T) {
	spin := Kernel{WGSL: spinWGSL, EntryPoint: "main"}
	loops := func(t *testing.T, d *Device, n uint32) uint32 {
		out, err := d.Run(context.Background(), spin, Dispatch{Input: le(n), OutputSize: 4, Invocations: 1})
		require.NoError(t, err)
		return words(out)[0]
	}
	for _, c := range []struct {
		adapter string
		limit   uint32 // iterations a loop of 80,000 actually runs
	}{{lavapipe, 65535}, {glLLVMpipe, 65535}, {swiftshader, 80000}} {
		t.Run(c.adapter, func(t *testing.T) {
			d := openDevice(t, c.adapter)
			for _, n := range []uint32{65535, 80000} {
				want := lcg(min(n, c.limit), 0)
				assert.Equal(t, want, loops(t, d, n), fmt.Sprintf("%d iterations", n))
			}
		})
	}
}
