package harness

import "errors"

// CompileWGSL creates a shader module from the WGSL text src and releases
// it at once: no pipeline, buffers or dispatch. It is the stack's verdict
// on a whole module — for wgpu, naga parses it and validates it with the
// device's capabilities (WebGPU's createShaderModule) — so src need not
// follow the kernel ABI or have an entry point at all.
//
// Errors: *CompileError (Stage StageShaderModule, the stack's message)
// when the stack rejects src, the Device staying usable; *DeviceError when
// the device reported an error outside the error scope or was lost (see
// DeviceError.Broken); other errors for empty src (an empty module is
// valid WGSL, but the binding crashes on it) or a closed Device.
// Compilation cannot be interrupted, so CompileWGSL takes no context.
func (d *Device) CompileWGSL(src string) error {
	switch {
	case d.closed:
		return errors.New("harness: CompileWGSL on a closed Device")
	case d.broken != nil:
		return d.broken
	case src == "":
		// cogentcore/webgpu v0.23.0 passes an empty Go string to
		// wgpu-native as a NULL code pointer, which crashes the process.
		return errors.New("harness: CompileWGSL of empty WGSL text (the binding cannot pass it)")
	}
	if err := d.takeEvents(); err != nil {
		return err
	}
	m, err := d.createModule(Kernel{WGSL: src})
	if m != nil {
		m.Release()
	}
	if evErr := d.takeEvents(); evErr != nil && (err == nil || d.broken != nil) {
		err = evErr
	}
	return err
}
