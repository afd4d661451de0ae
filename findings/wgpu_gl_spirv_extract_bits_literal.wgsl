// gpudiff case f82fddaf8a4b — mismatch (spirv on wgpu-gl:llvmpipe)
// gpudiff's SPIR-V emitter (or the stack's SPIR-V path): the WGSL of the same function agrees on this adapter
// kernel kernel, 4 invocations; replay: gpudiff repro THIS_FILE

fn kernel(a: u32) -> u32 {
  return extractBits(65536u, a, 32u);
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 4,
  "inputs": {
    "a": [
      0,
      1,
      16,
      40
    ]
  },
  "reference": [
    65536,
    32768,
    1,
    0
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:swiftshader",
      "function": "kernel",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
      "function": "kernel",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        0,
        0,
        0,
        0
      ],
      "mismatches": [
        0,
        1,
        2
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        65536,
        32768,
        1,
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
        0,
        0,
        0,
        0
      ],
      "mismatches": [
        0,
        1,
        2
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "dawn-vulkan:swiftshader",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        65536,
        32768,
        1,
        0
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    },
    {
      "adapter": "dawn-vulkan:swiftshader",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
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
        65536,
        32768,
        1,
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
      "class": "spirv",
      "adapter": "wgpu-gl:llvmpipe",
      "runs": [
        "wgpu-gl:llvmpipe kernel spirv"
      ],
      "implicates": "gpudiff's SPIR-V emitter (or the stack's SPIR-V path): the WGSL of the same function agrees on this adapter",
      "invocations": [
        0,
        1,
        2
      ]
    },
    {
      "class": "spirv",
      "adapter": "wgpu-gl:llvmpipe",
      "runs": [
        "wgpu-gl:llvmpipe kernel_flat spirv"
      ],
      "implicates": "gpudiff's SPIR-V emitter (or the stack's SPIR-V path): the WGSL of the same function agrees on this adapter",
      "invocations": [
        0,
        1,
        2
      ]
    }
  ],
  "hash": "f82fddaf8a4bbdd0767938a794f44a136034c26fc9cfa1bf42555920647a1f4e",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
