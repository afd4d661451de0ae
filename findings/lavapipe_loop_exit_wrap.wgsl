// gpudiff case 9dff54f4c5cd — mismatch (vendor on wgpu-vulkan:llvmpipe)
// vendor divergence: only wgpu-vulkan:llvmpipe disagrees with the reference; the other adapters agree, so its driver (or the WGSL compiler's output for it) is implicated; gpudiff's own SPIR-V disagrees too, which points at the driver or the interpreter
// kernel kernel, 1 invocations; replay: gpudiff repro THIS_FILE

fn kernel() -> i32 {
  {
    var i: u32 = 0u;
    loop {
      if (!(i < 4u)) {
        break;
      }
      if (i + 1u == 0u) {
        return 1i;
      }
      continuing {
        i += 1u;
      }
    }
  }
  return 2i;
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 1,
  "inputs": {},
  "reference": [
    2
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        2
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
        1
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
        1
      ],
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "wgpu-vulkan:llvmpipe",
      "function": "kernel_flat",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
        2
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
      "adapter": "wgpu-vulkan:llvmpipe",
      "runs": [
        "wgpu-vulkan:llvmpipe kernel wgsl"
      ],
      "implicates": "vendor divergence: only wgpu-vulkan:llvmpipe disagrees with the reference; the other adapters agree, so its driver (or the WGSL compiler's output for it) is implicated; gpudiff's own SPIR-V disagrees too, which points at the driver or the interpreter",
      "invocations": [
        0
      ]
    }
  ],
  "hash": "9dff54f4c5cd4a13e9d7a3cc007aaa324e89cff37672c586d650c56c1f242000",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
