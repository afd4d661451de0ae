// gpudiff case c70f6aec2eb2 — crash (crash on wgpu-vulkan:llvmpipe)
// the stack crashed or lost the device running this kernel: worker: wgpu-vulkan:llvmpipe: dispatch "kernel/wgsl" crashed the worker process (exit status 2, SIGABRT)
// kernel kernel, 3 invocations; replay: gpudiff repro THIS_FILE

struct Pair {
  a: i32,
  v: vec4<f32>,
}

fn load(p: ptr<function, vec4<f32>>) -> vec4<f32> {
  return (*p);
}

fn kernel(x: f32) -> vec4<f32> {
  var s: Pair;
  s.v = vec4<f32>(x, 1.0f, 2.0f, 3.0f);
  return load(&s.v);
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 3,
  "fill": "edges",
  "inputs": {
    "x": [
      0,
      1,
      -1
    ]
  },
  "reference": [
    [
      0,
      1,
      2,
      3
    ],
    [
      1,
      1,
      2,
      3
    ],
    [
      -1,
      1,
      2,
      3
    ]
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        [
          0,
          1,
          2,
          3
        ],
        [
          1,
          1,
          2,
          3
        ],
        [
          -1,
          1,
          2,
          3
        ]
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel",
      "format": "wgsl",
      "stage": "compute",
      "mode": "portable",
      "outputs": [],
      "mismatches": [],
      "verdict": "crash",
      "error": "worker: wgpu-vulkan:llvmpipe: dispatch \"kernel/wgsl\" crashed the worker process (exit status 2, SIGABRT)\nworker stderr (tail):\n   6: naga::back::spv::write_vec\n   7: wgpu_hal::vulkan::device::\u003cimpl wgpu_hal::vulkan::Device\u003e::compile_stage\n   8: wgpu_hal::vulkan::device::\u003cimpl wgpu_hal::Device\u003cwgpu_hal::vulkan::Api\u003e for wgpu_hal::vulkan::Device\u003e::create_compute_pipeline\n   9: wgpu_core::device::resource::Device\u003cA\u003e::create_compute_pipeline\n  10: wgpu_core::device::global::\u003cimpl wgpu_core::global::Global\u003cG\u003e\u003e::device_create_compute_pipeline\n  11: wgpuDeviceCreateComputePipeline\n  12: gowebgpu_device_create_compute_pipeline\n             at /root/go/pkg/mod/github.com/cogentcore/webgpu@v0.23.0/wgpu/device.go:47:8\n  13: _cgo_116bc9c30578_Cfunc_gowebgpu_device_create_compute_pipeline\n             at /tmp/go-build/cgo-gcc-prolog:136:11\n  14: runtime.asmcgocall\n             at /usr/local/go/src/runtime/asm_amd64.s:995\nnote: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\nfatal runtime error: failed to initiate panic, error 5\nSIGABRT: abort\nPC=0x7f1f64452eec m=8 sigcode=18446744073709551610\nsignal arrived during cgo execution\ncrashing goroutine, innermost call first:\n  runtime.cgocall\n  github.com/cogentcore/webgpu/wgpu._Cfunc_gowebgpu_device_create_compute_pipeline\n  github.com/cogentcore/webgpu/wgpu.(*Device).CreateComputePipeline.func4\n  github.com/cogentcore/webgpu/wgpu.(*Device).CreateComputePipeline\n  github.com/gpudiff/gpudiff/harness.(*Device).createPipeline\n  github.com/gpudiff/gpudiff/harness.(*Device).run\n  github.com/gpudiff/gpudiff/harness.(*Device).run-fm\n  github.com/gpudiff/gpudiff/harness.(*Device).Run\n  github.com/gpudiff/gpudiff/harness/worker.(*server).run\n  github.com/gpudiff/gpudiff/harness/worker.(*server).handle\n  github.com/gpudiff/gpudiff/harness/worker.Serve\n  main.newRoot.newWorkerCmd.func3\n  github.com/spf13/cobra.(*Command).execute\n  github.com/spf13/cobra.(*Command).ExecuteC\n  github.com/spf13/cobra.(*Command).Execute\n  github.com/spf13/cobra.(*Command).ExecuteContext\n  main.run\n  main.main\n  runtime.main\n  runtime.goexit\n[Go runtime's goroutine and register dump omitted]\n"
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel",
      "format": "spirv",
      "stage": "compute",
      "mode": "portable",
      "outputs": [
        [
          0,
          1,
          2,
          3
        ],
        [
          1,
          1,
          2,
          3
        ],
        [
          -1,
          1,
          2,
          3
        ]
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel_flat",
      "format": "wgsl",
      "stage": "compute",
      "mode": "portable",
      "outputs": [
        [
          0,
          1,
          2,
          3
        ],
        [
          1,
          1,
          2,
          3
        ],
        [
          -1,
          1,
          2,
          3
        ]
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel_flat",
      "format": "spirv",
      "stage": "compute",
      "mode": "portable",
      "outputs": [
        [
          0,
          1,
          2,
          3
        ],
        [
          1,
          1,
          2,
          3
        ],
        [
          -1,
          1,
          2,
          3
        ]
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "crash",
  "findings": [
    {
      "class": "crash",
      "adapter": "wgpu-vulkan:llvmpipe",
      "runs": [
        "wgpu-vulkan:llvmpipe kernel wgsl"
      ],
      "implicates": "the stack crashed or lost the device running this kernel: worker: wgpu-vulkan:llvmpipe: dispatch \"kernel/wgsl\" crashed the worker process (exit status 2, SIGABRT)",
      "invocations": null
    }
  ],
  "hash": "c70f6aec2eb2fbaa875ab99a7fe59db5e75d9ea89fc9a395a01c71eae73fd326",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  },
  "drivers": [
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "driver": "llvmpipe",
      "driver_version": "22.3.6",
      "driver_info": "Mesa 22.3.6 (LLVM 15.0.6)",
      "conformance_version": "1.3.1.1"
    }
  ]
}
*/
