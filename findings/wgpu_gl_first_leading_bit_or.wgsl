// gpudiff case 152a2c5e6542 — mismatch (vendor on wgpu-gl:llvmpipe)
// vendor divergence: only wgpu-gl:llvmpipe disagrees with the reference; the other adapters agree, so its driver (or the WGSL compiler's output for it) is implicated; gpudiff's own SPIR-V disagrees too, which points at the driver or the interpreter
// kernel kernel, 4 invocations; replay: gpudiff repro THIS_FILE

fn kernel(x: u32) -> u32 {
  return firstLeadingBit(x) | 4294967295u;
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 4,
  "inputs": {
    "x": [
      0,
      1,
      256,
      65536
    ]
  },
  "reference": [
    4294967295,
    4294967295,
    4294967295,
    4294967295
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        65535,
        65535,
        65535,
        65535
      ],
      "mismatches": [
        0,
        1,
        2,
        3
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
        65535,
        65535,
        65535,
        65535
      ],
      "mismatches": [
        0,
        1,
        2,
        3
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
        65535,
        65535,
        65535,
        65535
      ],
      "mismatches": [
        0,
        1,
        2,
        3
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
      "function": "kernel_flat",
      "format": "spirv",
      "mode": "portable",
      "outputs": [
        65535,
        65535,
        65535,
        65535
      ],
      "mismatches": [
        0,
        1,
        2,
        3
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
        4294967295,
        4294967295,
        4294967295,
        4294967295
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
      "implicates": "vendor divergence: only wgpu-gl:llvmpipe disagrees with the reference; the other adapters agree, so its driver (or the WGSL compiler's output for it) is implicated; gpudiff's own SPIR-V disagrees too, which points at the driver or the interpreter",
      "invocations": [
        0,
        1,
        2,
        3
      ]
    }
  ],
  "hash": "152a2c5e654228140972e5338f7a91fb814992cd5e7b51a6a924682136553956",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
