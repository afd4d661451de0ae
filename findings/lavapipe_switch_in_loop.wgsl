// gpudiff case 8ec9dddd2a45 — mismatch (vendor on wgpu-vulkan:llvmpipe)
// vendor divergence: only wgpu-vulkan:llvmpipe disagrees with the reference; the other adapters agree, so its driver (or the WGSL compiler's output for it) is implicated; gpudiff's own SPIR-V disagrees too, which points at the driver or the interpreter
// kernel kernel, 1 invocations; replay: gpudiff repro THIS_FILE

var<private> g0: i32;

fn kernel() -> i32 {
  var i0: u32 = 2u;
  loop {
    if (i0 >= 6u) {
      break;
    }
    i0 += 1u;
    switch (i0) {
      case 2u: {
        return 0i;
      }
      case 100u, 4294967295u, default: {
        g0 = 1i;
      }
    }
  }
  return 0i;
}

/* gpudiff-case
{
  "format": "gpudiff-case/1",
  "kernel": "kernel",
  "invocations": 1,
  "inputs": {},
  "reference": [
    {
      "ret": 0,
      "g0": 1
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
          "ret": 0,
          "g0": 1
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
          "ret": 0,
          "g0": 0
        }
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
        {
          "ret": 0,
          "g0": 0
        }
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
        {
          "ret": 0,
          "g0": 1
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
          "ret": 0,
          "g0": 1
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
          "g0": 1
        }
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
        {
          "ret": 0,
          "g0": 1
        }
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
        {
          "ret": 0,
          "g0": 1
        }
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
        {
          "ret": 0,
          "g0": 1
        }
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
        {
          "ret": 0,
          "g0": 1
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
          "ret": 0,
          "g0": 1
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
          "ret": 0,
          "g0": 1
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
          "ret": 0,
          "g0": 1
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
          "g0": 1
        }
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
        {
          "ret": 0,
          "g0": 1
        }
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
        {
          "ret": 0,
          "g0": 1
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
          "ret": 0,
          "g0": 1
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
          "ret": 0,
          "g0": 1
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
          "ret": 0,
          "g0": 1
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
  "signature": "vendor/wgpu-vulkan:llvmpipe/f6512ff4f6e70a2d",
  "hash": "8ec9dddd2a45aaa066bd0faa1f4b0892a94258713af0fc852d3144669f8db096",
  "mode": "portable",
  "flat": true,
  "spirv": true,
  "seed": {
    "campaign": 2,
    "index": 15,
    "program": 9654812947495861457,
    "size": 0,
    "profile": "default"
  },
  "tool": {
    "version": "devel",
    "go": "go1.26.8"
  }
}
*/
