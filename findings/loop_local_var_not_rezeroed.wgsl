// gpudiff case 36704387d060 — mismatch (vendor on wgpu-gl:llvmpipe)
// vendor divergence, compiler: wgpu's WGSL compiler (naga) is implicated — dawn-gl:llvmpipe, dawn-gles:llvmpipe run their own translation of the same WGSL correctly on the same driver (gl:llvmpipe); gpudiff's own SPIR-V of the same function agrees, which points at the stack's WGSL compiler
// kernel kernel, 1 invocations; replay: gpudiff repro THIS_FILE

fn kernel() -> i32 {
  var sum: i32 = 0i;
  {
    var i: i32 = 0i;
    loop {
      if (!(i < 3i)) {
        break;
      }
      var x: i32;
      sum += x;
      x = 5i;
      continuing {
        i += 1i;
      }
    }
  }
  return sum;
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 1,
  "inputs": {},
  "reference": [
    0
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        10
      ],
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel_flat",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        10
      ],
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
      "function": "kernel",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
      "function": "kernel_flat",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        10
      ],
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
      "function": "kernel",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
      "function": "kernel_flat",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-vulkan:swiftshader",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        10
      ],
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "dawn-vulkan:swiftshader",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-gl:llvmpipe",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-gl:llvmpipe",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-gles:llvmpipe",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-gles:llvmpipe",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "mismatch",
  "findings": [
    {
      "class": "vendor",
      "adapter": "wgpu-gl:llvmpipe",
      "runs": [
        "wgpu-gl:llvmpipe kernel wgsl"
      ],
      "implicates": "vendor divergence, compiler: wgpu's WGSL compiler (naga) is implicated — dawn-gl:llvmpipe, dawn-gles:llvmpipe run their own translation of the same WGSL correctly on the same driver (gl:llvmpipe); gpudiff's own SPIR-V of the same function agrees, which points at the stack's WGSL compiler",
      "invocations": [
        0
      ]
    },
    {
      "class": "stack",
      "adapter": "wgpu-vulkan:llvmpipe",
      "runs": [
        "wgpu-vulkan:llvmpipe kernel wgsl"
      ],
      "implicates": "the stack disagrees with WGSL's semantics (its WGSL compiler or driver), or gpudiff's WGSL emitter or interpreter is wrong; gpudiff's own SPIR-V of the same function agrees, which points at the stack's WGSL compiler",
      "invocations": [
        0
      ]
    },
    {
      "class": "stack",
      "adapter": "wgpu-vulkan:swiftshader",
      "runs": [
        "wgpu-vulkan:swiftshader kernel wgsl"
      ],
      "implicates": "the stack disagrees with WGSL's semantics (its WGSL compiler or driver), or gpudiff's WGSL emitter or interpreter is wrong; gpudiff's own SPIR-V of the same function agrees, which points at the stack's WGSL compiler",
      "invocations": [
        0
      ]
    },
    {
      "class": "stack",
      "adapter": "dawn-vulkan:swiftshader",
      "runs": [
        "dawn-vulkan:swiftshader kernel wgsl"
      ],
      "implicates": "the stack disagrees with WGSL's semantics (its WGSL compiler or driver), or gpudiff's WGSL emitter or interpreter is wrong",
      "invocations": [
        0
      ]
    }
  ],
  "hash": "36704387d0601facdc3e0e8a9cd5a8f01ac1394cbefc323a024403aa8d2d5855",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
