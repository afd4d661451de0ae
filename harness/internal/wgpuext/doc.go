// Package wgpuext holds the few wgpu-native calls that the Go binding
// github.com/cogentcore/webgpu v0.23.0 lacks or gets wrong, as a small cgo
// layer over the binding's own objects. Nothing outside package harness and
// its window package (harness/window: its device and screenshot readback)
// uses it.
//
// What it adds, and why:
//
//   - CreateShaderModuleSPIRV: the binding stores the SPIR-V byte length in
//     WGPUShaderModuleSPIRVDescriptor.codeSize, which webgpu.h defines as a
//     count of 32-bit words, so wgpu-native reads four times past the end of
//     the code and rejects it ("invalid word count"). This package passes the
//     word count.
//   - RequestDevice: the binding cannot set the device's uncaptured-error
//     callback, and wgpu-native's default handler aborts the process on the
//     first error that escapes an error scope. Its device-lost callback keeps
//     a pointer to a Go variable that the garbage collector may free. This
//     package sets both callbacks in C and reports to a Go Sink looked up by
//     id, so a late callback after Close is a no-op.
//   - MapRead: the binding's Buffer.MapAsync hands wgpu-native a pointer to a
//     Go variable that nothing keeps alive until the callback runs; here the
//     callback state lives in C memory.
//   - CurrentTexture: the binding's Surface.GetCurrentTexture drops
//     wgpuSurfaceGetCurrentTexture's status and returns a texture with a
//     NULL handle when the surface has none (outdated after a resize),
//     which wgpu-native aborts on once used; this returns the status.
//   - Sleep: a sub-millisecond sleep for the harness's polling loop (Go's
//     time.Sleep rounds short sleeps up to about 1 ms in an idle process).
//
// # Reaching the binding's C handles
//
// The binding keeps each C handle in an unexported field (wgpu.Device is
// struct{ ref C.WGPUDevice }). This package reads and writes those fields
// through structs of the same layout (handles.go) converted with
// unsafe.Pointer. layoutErr checks the binding's struct shapes with reflect
// once per process, and every entry point refuses to run if they changed, so
// a binding upgrade fails with an error instead of corrupting memory.
//
// # Linking
//
// The C code calls wgpu-native functions that live in libwgpu_native.a, which
// only the binding's package names on its link line (by a path inside the
// module cache). wgpuext.c declares them weak so this package's own cgo link
// step succeeds without the library, and link.go passes "-Wl,-undefined=" for
// each so the final link pulls their definitions in. MissingSymbol reports a
// function the final link did not resolve; every entry point checks it.
//
// The headers under include/ are verbatim copies of the binding's
// wgpu/lib/webgpu.h and wgpu/lib/wgpu.h; a test fails if they drift from the
// module the build uses.
//
// This package must never keep a Go pointer in C memory, call back into Go
// through a pointer to Go memory, or free a wgpu object it did not create.
package wgpuext
