// Package harness runs compute and fragment kernels on the WebGPU adapters
// of this machine and returns their raw output bytes.
//
// It owns the WebGPU side of gpudiff: the process-wide instance and the
// environment it needs (see Adapters), adapter enumeration and naming
// (AdapterInfo, Select, Lookup), devices (Open), the seam through which
// other WebGPU implementations add their adapters (RegisterImplementation,
// AllAdapters, OpenAny, Runner; package harness/dawn adds Dawn's), the
// driver sets adapters are found in (DriverSets: the system's drivers and
// Mesa 25 from build/mesa25, whose adapters a child process lists and only
// worker processes run; ARCHITECTURE.md "Driver sets"), shader
// modules from WGSL text or SPIR-V words, buffers, dispatch and readback
// (Device.Run), the stack's verdict on a whole WGSL module without running
// it (Device.CompileWGSL), and turning every failure of the stack into an
// error value: *CompileError when the stack rejects a kernel,
// *DeviceError when the device, dispatch or readback fails.
//
// The harness is byte-level. It serves the kernel ABI of ARCHITECTURE.md ("Kernel
// ABI") without knowing any types: a compute entry point with
// @workgroup_size(64) reads one input record per invocation from the
// read-only storage buffer at @group(0) @binding(0), writes one output record
// per invocation to the read-write storage buffer at @group(0) @binding(1),
// and bounds-checks itself with arrayLength of the output. Run dispatches
// ceil(invocations/64) workgroups along x and returns the output buffer.
//
// The same kernel may come as a fragment entry point (Kernel.Stage
// FragmentStage, render.go): Run then draws one full-screen triangle with
// the harness's own WGSL vertex stage (VertexWGSL, also under a SPIR-V
// fragment module) over Dispatch.Target, with the two buffers bound to the
// fragment stage and one colour attachment per Dispatch.Attachments, and
// returns the output buffer followed by the attachments' texels. The
// kernel ABI's target is FragmentTarget: the fragment at pixel (x, y) is
// invocation y*FragmentRowPitch + x. A device whose fragment stage has no
// writable storage buffers returns an *UnsupportedError.
//
// A render pipeline as written (draw.go, issue 39) brings its own vertex
// stage (Kernel.VertexWGSL or VertexSPIRV, VertexEntryPoint) and draw
// (Dispatch.Draw: vertex buffers of any GPUVertexFormat the adapter takes,
// an index buffer, the draw call's counts, topology, culling, clear
// values); its buffers, textures and samplers are bound as the module
// declares them, visible to both stages. CheckDraw refuses, before a
// pipeline exists, what WebGPU's validation and the adapter's vertex
// limits would. Known: wgpu's GL backend (0.19.4 here, 29 in Deno)
// ignores primitive restart in indexed strips; Dawn's GL and GLES
// backends abort on drawIndexed with a negative baseVertex.
//
// It must never: depend on another gpudiff package (ir, interp, compiler,
// flatten, fuzz); encode or decode argument values; compare results or
// decide verdicts; retry or alter a kernel; print anything on its own; or
// let a kernel the stack rejects panic or abort the process. A Device's
// methods take plain data and return bytes or error values, so a worker
// process can later run them on the parent's behalf.
//
// Observed stack behaviour that callers must know: llvmpipe (both
// wgpu-vulkan:llvmpipe and wgpu-gl:llvmpipe) silently stops looping after about 65535
// loop iterations per invocation, all loops of the invocation together, and
// carries on after the loop; kernels that iterate more get wrong results
// there, not errors. SwiftShader has no such limit.
//
// wgpu-native (wgpu 0.19.4) gives up a blocking device poll (wgpuDevicePoll with
// wait) after 5 s and then treats the submission as complete: it maps the
// readback buffer before the dispatch's copy into it (all zeros, or bytes
// of an earlier dispatch) and recycles the command buffer and resources the
// driver is still executing, so later dispatches go wrong too and the
// process may die of SIGSEGV on a driver thread. A dispatch takes that long
// when its kernel runs long, or when lavapipe, which compiles at dispatch
// time, compiles a large kernel on a loaded machine. The harness therefore
// never blocks in wgpu-native: Run polls the device without waiting and
// sleeps between polls (run.go), so any dispatch may take as long as it
// takes.
//
// What this package cannot catch in-process: wgpu-native (wgpu 0.19.4) treats a
// failed queue submission or device poll (a lost device, a driver crash) as
// fatal and aborts, and a kernel that never finishes can only be abandoned
// (Run returns when its ctx ends; Close then leaks the device). Both are what
// per-adapter worker processes are for: package harness/worker runs Device.Run
// in them.
//
// # Textures and samplers (issue 24)
//
// A dispatch of a module as written may bind textures and samplers beside
// its buffers (texture.go), still as bytes: Dispatch.Textures holds one
// TextureBinding per texture binding — @group/@binding, Kind
// (TextureSampled or TextureStorage), the WebGPU view dimension ("2d",
// "2d-array", …), format ("rgba8unorm", …), the layout's SampleType ("" to
// derive it from the format) or storage Access ("write-only", "read-only",
// "read-write"), the size of level 0, MipLevels, and Data: each mip
// level's texels, layer after layer, row after row, tightly packed.
// Dispatch.Samplers holds one SamplerBinding per sampler (filters, address
// modes, LOD clamps, compare). Run returns, after the BindingStorage
// buffers, every written storage texture (TextureBinding.Written) level by
// level, tightly packed (TextureBinding.ReadBackSize bytes each; the
// device's 256-byte row padding removed). A multisampled texture
// (SampleCount 4: each texel's samples one after the other in Data) and a
// depth32float one are uploaded by render passes (render_upload.go), a
// depth16unorm one by a copy; depth formats bind with sample type
// "depth". harness/worker and harness/dawn carry the same fields.
//
// What the case model calls (the lead wires it; nothing here decodes a
// texel): for each ir.TextureVar of the module, build a TextureBinding
// (view dimension from ir.TextureType.Dim: "1d", "2d", "2d-array", "3d",
// "cube", "cube-array"; Kind from its Class; Access from TexAccess: read →
// "read-only", write → "write-only", read_write → "read-write"; Format from
// the inputs, which must equal ir.TexFormat's name for a storage texture)
// and the matching interp.Texture (same Format, size, MipLevels and Data);
// for each sampler an interp.Sampler and a SamplerBinding with the same
// fields. Pass the former in Dispatch.Textures/Samplers and the latter in
// interp.Options.Textures/Samplers to Dispatch.Run; then compare the
// output's texture bytes, split with ReadBackSize, against
// interp.DispatchResult.Textures[name] (interp.TextureOutput: Levels are
// channel codes of the format's channel width, Any marks codes that may be
// anything, Allowed the codes a store may have left; TextureOutput.Bytes
// gives a level as bytes).
//
// # f16 and subgroups (issue 40)
//
// Every adapter reports its WebGPU features and, with subgroups, its
// subgroup size range (AdapterInfo.Features, SubgroupMinSize,
// SubgroupMaxSize; features.go), and every device is requested with
// shader-f16 and subgroups where its adapter has them. A module that needs
// either on an adapter without it is not a finding: NeedF16 and
// NeedSubgroups are needs as in declared.go, and each adapter declares
// what it lacks (declared_ext.go): wgpu-native as linked (naga 0.19) has
// neither in WGSL or SPIR-V although lavapipe lists shader-f16; Deno's
// WebGPU has no subgroups. One driver at several subgroup sizes is
// several adapters, variants (variant.go): Dawn's Mesa 25 lavapipe at
// LP_NATIVE_VECTOR_WIDTH 128 and 512 (sizes 4 and 16), which "all" leaves
// out and Variants and VariantRuns add for the cases that need subgroups.
//
// Package harness/window (build tag glfw) is the one place WebGPU draws to a
// screen: an image in a GLFW window, and the same frame offscreen for a
// screenshot (gpudiff view).
package harness
