package dawn

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// The Dawn adapters every machine has after `make deps`, GPU or not.
const (
	swiftshader  = "dawn-vulkan:swiftshader"
	glLLVMpipe   = "dawn-gl:llvmpipe"
	glesLLVMpipe = "dawn-gles:llvmpipe"
)

var cpuAdapters = []string{swiftshader, glLLVMpipe, glesLLVMpipe}

// The Deno adapters every machine has after `make deps`.
const (
	denoLavapipe    = "deno-vulkan:llvmpipe"
	denoSwiftShader = "deno-vulkan:swiftshader"
	denoGL          = "deno-gl:llvmpipe"
)

var denoCPUAdapters = []string{denoLavapipe, denoSwiftShader, denoGL}

// runAdapters are the adapters of both implementations that the tests of
// what a Run returns go through.
var runAdapters = append(slices.Clone(cpuAdapters), denoCPUAdapters...)

const adapterHint = "install the CPU adapters with `make deps` (chromium for SwiftShader; libegl1, libegl-dev " +
	"(Dawn loads libEGL.so), libegl-mesa0 and libgl1-mesa-dri for llvmpipe-GL)"

// requireDawn fails the test when node or the npm package is missing: Dawn
// must be tested on real adapters, never skipped.
func requireDawn(t testing.TB) {
	t.Helper()
	if _, err := locate(); err != nil {
		t.Fatalf("%v", err)
	}
}

// requireDeno fails the test when deno is missing: Deno must be tested on
// real adapters, never skipped.
func requireDeno(t testing.TB) {
	t.Helper()
	if _, err := locateDeno(); err != nil {
		t.Fatalf("%v", err)
	}
}

// openDevice opens the named Dawn (or, for a "deno-" name, Deno) adapter
// for the test and closes it at cleanup.
func openDevice(t testing.TB, name string) *Device {
	t.Helper()
	open := Open
	if strings.HasPrefix(name, DenoImplementation+"-") {
		requireDeno(t)
		open = OpenDeno
	} else {
		requireDawn(t)
	}
	d, err := open(name)
	var unknown *harness.UnknownAdapterError
	if errors.As(err, &unknown) {
		t.Fatalf("adapter %s not found (have %v): %s", name, unknown.Available, adapterHint)
	}
	require.NoError(t, err)
	t.Cleanup(d.Close)
	return d
}

// tripleWGSL computes out[i] = in[i]*3 + 1 (wrapping, WGSL u32 arithmetic)
// for the invocations the output has room for.
const tripleWGSL = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
	let i = id.x;
	if (i >= arrayLength(&outp)) { return; }
	outp[i] = inp[i] * 3u + 1u;
}
`

// le encodes words as little-endian bytes, the layout of array<u32> in a
// storage buffer.
func le(words ...uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// words decodes little-endian bytes into words.
func words(b []byte) []uint32 {
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}
