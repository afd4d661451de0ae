// gpudiff case f6e2d838d99e — mismatch (stack on wgpu-vulkan:swiftshader)
// the stack disagrees with WGSL's semantics (its WGSL compiler or driver), or gpudiff's WGSL emitter or interpreter is wrong; gpudiff's own SPIR-V disagrees too, which points at the driver or the interpreter
// kernel kernel, 1 invocations; replay: gpudiff repro THIS_FILE

fn kernel() -> i32 {
  var l: i32;
  let v: vec3<bool> = vec3<i32>(l) == vec3<i32>(0i, 0i, 0i);
  return select(0i, 1i, v.x);
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 1,
  "inputs": {},
  "reference": [
    1
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        1
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
        1
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
        1
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
        1
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
        0
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
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
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
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
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
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "wgpu-gl:llvmpipe",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        1
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
        1
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
        1
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
        1
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
        0
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
      "mismatches": [
        0
      ],
      "verdict": "mismatch",
      "error": ""
    },
    {
      "adapter": "dawn-gl:llvmpipe",
      "function": "kernel",
      "format": "wgsl",
      "mode": "portable",
      "outputs": [
        1
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
        1
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
        1
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
        1
      ],
      "mismatches": [],
      "verdict": "pass",
      "error": ""
    }
  ],
  "verdict": "mismatch",
  "findings": [
    {
      "class": "stack",
      "adapter": "wgpu-vulkan:swiftshader",
      "runs": [
        "wgpu-vulkan:swiftshader kernel wgsl"
      ],
      "implicates": "the stack disagrees with WGSL's semantics (its WGSL compiler or driver), or gpudiff's WGSL emitter or interpreter is wrong; gpudiff's own SPIR-V disagrees too, which points at the driver or the interpreter",
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
  "hash": "f6e2d838d99ea605700be4dcf3bb444710bb6008cbdfc33365b9a4c50d5c1419",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
