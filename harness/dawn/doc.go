// Package dawn runs gpudiff's kernels on WebGPU implementations that live in
// a JavaScript runtime: Dawn, Chromium's WebGPU implementation (its shader
// compiler is Tint), through node, and Deno's built-in WebGPU (wgpu-core
// with naga 29: a current wgpu, beside the wgpu-native 0.19.4 that package
// harness drives in-process), through deno. Both run one embedded worker,
// worker.mjs, and both are the same *Device; what differs is the host
// (Dawn's node and npm package, or the deno binary) and how adapters are
// found (see DenoAdapters). Everything below says Dawn; Deno's adapters
// behave the same unless a paragraph says otherwise: kernels of
// the kernel ABI, and compute entry points as written with their own
// bindings (harness.Dispatch.Buffers; ARCHITECTURE.md "Entry points as
// written"), whose readback is byte for byte what harness.Device.Run
// returns for the same dispatch.
//
// Dawn comes as the npm package webgpu (dawn.node, prebuilt), pinned in the
// module root's package.json and installed by `make deps` (npm ci). Each
// opened adapter is one node process running the embedded worker.mjs, which
// speaks newline-delimited JSON: requests on its stdin, replies on file
// descriptor 3 (Dawn and the drivers print warnings on stdout and stderr,
// which the Go side keeps only to explain a worker that died). The process
// is reused across Runs.
//
// Adapters lists what Dawn offers; Open opens one by name; *Device has the
// method set of *harness.Device (harness.Runner), with the same error
// contract: *harness.CompileError carries Tint's or Dawn's own message,
// *harness.DeviceError everything after compilation. Importing the package
// registers "dawn" with harness.RegisterImplementation, so
// harness.AllAdapters and harness.OpenAny include Dawn's adapters.
//
// Device.CompileWGSL and Validator judge whole WGSL modules with Tint
// without running them (Dawn's createShaderModule only). A Validator runs
// on Dawn's null backend with every feature Dawn knows, so any
// enable-extension can be checked; it cannot Run.
//
// Adapter names follow harness's rule, "dawn-<backend>:<device-short>". On a
// machine with no GPU after `make deps`: dawn-vulkan:swiftshader (Dawn
// rejects Debian 12's lavapipe: "Vulkan shaderUniform*ArrayDynamicIndexing
// required"), dawn-gl:llvmpipe (OpenGL 4.5) and dawn-gles:llvmpipe (OpenGL ES
// 3.2); Dawn offers its GL backends only in WebGPU compatibility mode, which
// the kernel ABI fits.
//
// What differs from wgpu:
//   - WGSL only. dawn.node's createShaderModule takes its code as a string,
//     so SPIR-V kernels return ErrNoSPIRV without starting any work.
//   - A ctx that ends during a Run kills the worker process (the kernel
//     cannot be stopped otherwise) and the next Run starts a new one, so a
//     Device never becomes unusable: harness.DeviceError.Broken is always
//     false here. A lost device or a worker that died is replaced the same
//     way.
//   - DeviceError.Op may also be "worker": the node process died or spoke
//     out of turn.
//
// The worker's environment is the caller's plus, where unset,
// VK_ADD_DRIVER_FILES=<Debian chromium's SwiftShader ICD> (as harness sets
// it), NODEVICE_SELECT=1 and EGL_PLATFORM=surfaceless (Dawn's GL backends
// over EGL without a display). NodeEnv and ModulesEnv override where node
// and the npm package are found.
//
// Deno's adapters are "deno-<backend>:<device-short>" (deno-vulkan:llvmpipe,
// deno-vulkan:swiftshader, deno-gl:llvmpipe here), opened by OpenDeno and
// registered with harness as "deno"; each driver set (harness.DriverSets)
// adds its own, suffixed (deno-vulkan:llvmpipe-mesa25). Dawn's are listed
// in every driver set too (dawn-vulkan:llvmpipe-mesa25: Dawn accepts Mesa
// 25's lavapipe).
//
// Features (issue 40): every adapter carries GPUAdapter.features and,
// with subgroups, GPUAdapterInfo's subgroup size range
// (harness.AdapterInfo.Features, SubgroupMinSize, SubgroupMaxSize), and
// each device is requested with shader-f16 and subgroups where its
// adapter has them. Here: dawn-vulkan:llvmpipe-mesa25 has both (subgroup
// size 8), dawn-vulkan:swiftshader subgroups only (size 4; SwiftShader
// has no shaderFloat16), Dawn's GL and GLES adapters neither; Deno's
// lavapipe adapters have shader-f16 and no Deno adapter has subgroups
// (wgpu-core 29 offers SUBGROUP on none of them, although Deno knows the
// feature), Deno's SwiftShader and GL adapters no shader-f16. Tint requires `enable f16;` and `enable
// subgroups;`; naga 29 requires `enable f16;` and refuses `enable
// subgroups;` (not yet implemented), taking subgroup builtins without it
// where the SUBGROUP capability is granted (extensions_test.go).
//
// Subgroup sizes (issue 40, item 3): a lavapipe adapter of Dawn's with
// subgroups is listed again at each other LP_NATIVE_VECTOR_WIDTH of 128,
// 256 and 512 bits (LavapipeWidthEnv; lavapipe's subgroup size is the
// width / 32), as the variants dawn-vulkan:llvmpipe-mesa25-lp128 (size 4)
// and -lp512 (size 16) beside dawn-vulkan:llvmpipe-mesa25 (8 on this
// AVX2 host): their workers run with the width in their environment, and
// each width with a Mesa shader cache of its own (Mesa 25.0.7's disk cache
// does not key lavapipe's binaries by the width, so a shared one hands a
// variant another width's binary: shaderCacheEnv).
// Listing them costs one node process per width at listing time (about
// 0.3 s, in parallel); each opened variant is one more worker (0.3 s to
// start, about 200 MB) that compiles and runs every case again (a small
// subgroup module: 65 ms at 128 bits, 140 ms at 512). So "all" and
// prefixes leave variants out (harness.Select), harness.Variants and
// harness/devices' Options.Variants add those of the selected adapters,
// and harness.VariantRuns keeps them to the cases that need subgroups.
//
// It must never: print anything on its own, leave a node or deno process
// running after Close, or depend on another gpudiff package but harness.
package dawn
