// gpudiff case 42bb3a0d2c4b — mismatch (vendor on wgpu-vulkan:swiftshader)
// vendor divergence, driver: every implementation on driver vulkan:swiftshader (wgpu-vulkan:swiftshader, dawn-vulkan:swiftshader) disagrees with the reference while the other drivers agree, so the driver is implicated, not a WGSL compiler; gpudiff's own SPIR-V disagrees too — which points at the driver or the interpreter, though wgpu translates SPIR-V through naga as well
// kernel kernel, 1 invocations; replay: gpudiff repro THIS_FILE

var<private> g: bool;

fn kernel() -> i32 {
  return select(0i, 1i, all(!vec3<bool>(g)));
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 1,
  "inputs": {},
  "reference": [
    {
      "ret": 1,
      "g": false
    }
  ],
  "runs": [
    {
      "adapter": "interp",
      "function": "kernel_flat",
      "format": "ir",
      "mode": "",
      "outputs": [
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 0,
          "g": false
        }
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
        {
          "ret": 0,
          "g": false
        }
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
        {
          "ret": 0,
          "g": false
        }
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
        {
          "ret": 0,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 0,
          "g": false
        }
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
        {
          "ret": 0,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
        {
          "ret": 1,
          "g": false
        }
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
      "adapter": "wgpu-vulkan:swiftshader",
      "runs": [
        "wgpu-vulkan:swiftshader kernel wgsl"
      ],
      "implicates": "vendor divergence, driver: every implementation on driver vulkan:swiftshader (wgpu-vulkan:swiftshader, dawn-vulkan:swiftshader) disagrees with the reference while the other drivers agree, so the driver is implicated, not a WGSL compiler; gpudiff's own SPIR-V disagrees too — which points at the driver or the interpreter, though wgpu translates SPIR-V through naga as well",
      "invocations": [
        0
      ]
    },
    {
      "class": "vendor",
      "adapter": "dawn-vulkan:swiftshader",
      "runs": [
        "dawn-vulkan:swiftshader kernel wgsl"
      ],
      "implicates": "vendor divergence, driver: every implementation on driver vulkan:swiftshader (wgpu-vulkan:swiftshader, dawn-vulkan:swiftshader) disagrees with the reference while the other drivers agree, so the driver is implicated, not a WGSL compiler",
      "invocations": [
        0
      ]
    }
  ],
  "hash": "42bb3a0d2c4b9c7fe04ffb6f706fde2eab04a8346b89b4c49b9061e687941f50",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
