package dawn

import (
	"context"
	"errors"
	"fmt"

	"github.com/gpudiff/gpudiff/harness"
)

// CompileWGSL creates a shader module from each WGSL text in srcs on the
// device and nothing else (no pipeline, no dispatch): Tint parses,
// resolves and validates each module as Dawn's createShaderModule does, so
// a text need not follow the kernel ABI or have an entry point. All texts
// travel in one request to the worker.
//
// It returns one error per text, in order: nil when Dawn accepts it,
// *harness.CompileError (Stage "shader-module", Tint's diagnostics) when it
// rejects it. The second result reports what kept any verdict from being
// reached, as Run does: *harness.DeviceError for a worker that died, could
// not start, answered out of turn or lost its device, or a ctx that ended
// (the worker is then killed; the next call starts a new one); other errors
// for a closed Device or a ctx already done on entry.
//
// Which extensions a module may enable depends on the device's features:
// an Open device has none beyond WebGPU's core, so `enable f16;` is
// rejected there; a Validator's device has them all.
func (d *Device) CompileWGSL(ctx context.Context, srcs ...string) ([]error, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errors.New("dawn: CompileWGSL on a closed Device")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(srcs) == 0 {
		return nil, nil
	}
	rep, err := d.call(ctx, request{Compile: srcs})
	if err != nil {
		return nil, err
	}
	if len(rep.Compiled) != len(srcs) {
		d.w.kill()
		d.w = nil
		return nil, d.fail("worker", fmt.Sprintf("%d compile results for %d modules", len(rep.Compiled), len(srcs)), nil)
	}
	errs := make([]error, len(srcs))
	for i, msg := range rep.Compiled {
		if msg != nil {
			errs[i] = &harness.CompileError{Stage: harness.StageShaderModule, Message: *msg}
		}
	}
	return errs, nil
}

// ValidatorName is the AdapterInfo.Name of a Validator's device, as it
// appears in its errors.
const ValidatorName = "dawn-null"

// Validator checks WGSL modules with Tint as Dawn's createShaderModule
// does, on Dawn's null backend: Dawn's own front end (Tint's parser,
// resolver, uniformity analysis and Dawn's shader-module validation, the
// same code every backend runs before it translates anything) on a device
// that has every feature Dawn knows — shader-f16, subgroups,
// dual-source-blending, clip-distances, ... — so modules using any
// enable-extension can be checked on a machine whose adapters lack them
// (SwiftShader has neither shader-f16 nor dual-source-blending). The null
// backend runs nothing, so a Validator offers CompileWGSL only, never Run.
//
// A Validator is one node worker process; its calls are serialized. Close
// it when done.
type Validator struct {
	d *Device
}

// OpenValidator starts a Validator's worker. Errors wrap ErrNotInstalled
// when node or the npm package is missing; *harness.DeviceError (Op
// "open") when the worker cannot get the null device.
func OpenValidator() (*Validator, error) {
	t, err := locate()
	if err != nil {
		return nil, err
	}
	d := &Device{
		info:        harness.AdapterInfo{Name: ValidatorName, Implementation: Implementation, Backend: "null", Device: "null", Vendor: "dawn", Type: "unknown"},
		wire:        wireAdapter{Backend: "null", FeatureLevel: "core"},
		tools:       t,
		allFeatures: true,
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := d.start(ctx); err != nil {
		return nil, err
	}
	return &Validator{d: d}, nil
}

// CompileWGSL validates each WGSL text in srcs (see Device.CompileWGSL):
// one error per text, nil for a module Tint accepts, *harness.CompileError
// with Tint's diagnostics for one it rejects; the second result is an
// error of the worker or of ctx.
func (v *Validator) CompileWGSL(ctx context.Context, srcs ...string) ([]error, error) {
	return v.d.CompileWGSL(ctx, srcs...)
}

// Close ends the Validator's worker process. It is safe to call more than
// once.
func (v *Validator) Close() { v.d.Close() }
