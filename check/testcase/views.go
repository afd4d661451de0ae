package testcase

import (
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// KernelCase is one program to check: a module, its kernel and the arguments of
// each invocation (Args[i][j] is parameter j of invocation i).
type KernelCase struct {
	Module *ir.Module
	Kernel string
	Args   [][]ir.Value
}

// ComputeCase is one module as written to check.
type ComputeCase struct {
	Module     *ir.Module
	Entry      string    // the @compute entry point
	Workgroups [3]uint32 // the dispatch size, each ≥ 1
	// Buffers are the bindings' initial contents by binding name, as
	// their buffers hold them (ir.Buffer; BindingBuffers makes them from
	// values); a missing one starts zeroed.
	Buffers map[string]ir.Buffer
	// Textures and Samplers are the contents of every texture binding and
	// the description of every sampler binding, by variable name
	// (check/testcase/texture.go); empty for a module without them.
	Textures map[string]*interp.Texture
	Samplers map[string]*interp.Sampler
}

// FragmentCase is one fragment entry point as written to check.
type FragmentCase struct {
	Module *ir.Module
	Entry  string    // the @fragment entry point
	Size   [2]uint32 // the render target's width and height in pixels, each ≥ 1
	// Textures and Samplers are the contents of the module's texture
	// bindings and its samplers by variable name (check/testcase/texture.go), as a
	// compute entry point's; a missing one is a zeroed texture of the
	// default format, a nearest clamp-to-edge sampler.
	Textures map[string]*interp.Texture
	Samplers map[string]*interp.Sampler
}

// DefaultFragmentSize is the render target exec draws a fragment entry
// point over when --size is not given.
var DefaultFragmentSize = [2]uint32{16, 16}

// MaxFragmentPixels bounds a fragment case's target: the reference runs
// every pixel (exec's --max-invocations applies too).
const MaxFragmentPixels = 1 << 22

// FragmentPositions are the arguments of each pixel's invocation of a
// fragment entry point with nparams parameters (0, or 1: its
// @builtin(position)) over a w×h target, row by row from the top:
// position (x + 0.5, y + 0.5, 0, 1) at pixel (x, y) (WGSL #builtin-values:
// framebuffer coordinates of the pixel centre; depth 0 and w 1 from the
// vertex stage).
func FragmentPositions(w, h uint32, nparams int) [][]ir.Value {
	args := make([][]ir.Value, 0, int(w*h))
	for y := uint32(0); y < h; y++ {
		for x := uint32(0); x < w; x++ {
			if nparams == 0 {
				args = append(args, []ir.Value{})
				continue
			}
			pos := ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(float32(x)+0.5), ir.F32Val(float32(y)+0.5), ir.F32Val(0), ir.F32Val(1))
			args = append(args, []ir.Value{pos})
		}
	}
	return args
}
